import type { PageTree, TreeNode } from "../content/tree.js";

/**
 * Resolution of a link as written in page markdown, in the Git Sync layout of a space:
 *
 * - a page is stored as `<path>.md`, or `<path>/README.md` when it has children, and other pages
 *   link to it by that file, relative to their own file (`../install.md`, `guides/README.md`). Both
 *   forms name the page whether or not it has children, so a link survives a leaf gaining children;
 *   a directory link (`guides/`, `guides`) names the page at that path too. `README.md` at the root
 *   is the first page of the space, as in Git Sync.
 * - a file is `.gitbook/assets/<file name>` (percent-encoding decoded), from the space root.
 * - a path starting with `/` starts from the space root; `..` never climbs above it (as URLs do).
 * - an absolute URL (`https:`, `mailto:`, `//host`) is external; one whose host is the docsbase
 *   API or app host is `in-app`: a link into the app that should name its target as content.
 * - any other relative link names content that is not in the revision: it is `broken`.
 */

export type LinkStatus = "ok" | "broken" | "in-app";

/** What a link points at. `missing` is a page or file path that nothing in the revision matches. */
export type LinkTarget =
  | { readonly kind: "page"; readonly page: string }
  | { readonly kind: "file"; readonly file: string }
  | { readonly kind: "url"; readonly url: string }
  | { readonly kind: "missing"; readonly path: string };

export interface ResolvedLink {
  /** Identifies the target: equal keys are the same target. */
  readonly key: string;
  readonly status: LinkStatus;
  readonly target: LinkTarget;
}

export interface ResolveIndex {
  readonly tree: PageTree;
  /** File ids by file name (the first by id when names repeat). */
  readonly filesByName: ReadonlyMap<string, string>;
  /** Hosts (`host:port`) of the docsbase API and app: absolute URLs to them are `in-app`. */
  readonly appHosts: ReadonlySet<string>;
}

export const ASSETS_DIRECTORY = ".gitbook/assets";

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** The file of a page in the Git Sync layout. */
export function pageFile(node: TreeNode): string {
  return node.children.length > 0 ? `${node.path}/README.md` : `${node.path}.md`;
}

/** The directory that relative links of a page start from. */
export function pageDirectory(node: TreeNode): string {
  const file = pageFile(node);
  const slash = file.lastIndexOf("/");
  return slash < 0 ? "" : file.slice(0, slash);
}

export function resolveLink(href: string, fromDirectory: string, index: ResolveIndex): ResolvedLink {
  if (href.startsWith("//") || SCHEME.test(href)) return resolveUrl(href, index);
  const path = normalizePath(decode(href.split(/[?#]/, 1)[0] ?? ""), fromDirectory);
  const missing: ResolvedLink = {
    key: `missing:${path}`,
    status: "broken",
    target: { kind: "missing", path },
  };
  if (path.startsWith(`${ASSETS_DIRECTORY}/`)) {
    const file = index.filesByName.get(path.slice(ASSETS_DIRECTORY.length + 1));
    return file ? { key: `file:${file}`, status: "ok", target: { kind: "file", file } } : missing;
  }
  const node = pageAt(path, index.tree);
  return node
    ? { key: `page:${node.version.page}`, status: "ok", target: { kind: "page", page: node.version.page } }
    : missing;
}

function resolveUrl(href: string, index: ResolveIndex): ResolvedLink {
  let host: string | undefined;
  try {
    host = new URL(href.startsWith("//") ? `https:${href}` : href).host.toLowerCase();
  } catch {
    host = undefined;
  }
  const status: LinkStatus = host && index.appHosts.has(host) ? "in-app" : "ok";
  return { key: `url:${href}`, status, target: { kind: "url", url: href } };
}

/** The page a path names: `a/b.md`, `a/b/README.md`, `a/b/` or `a/b`. */
function pageAt(path: string, tree: PageTree): TreeNode | undefined {
  if (path === "" || /^readme\.md$/i.test(path)) return tree.roots[0];
  const readme = /\/readme\.md$/i.exec(path);
  if (readme) return tree.byPath.get(path.slice(0, readme.index));
  if (/\.md$/i.test(path)) return tree.byPath.get(path.slice(0, -3));
  return tree.byPath.get(path);
}

/** Resolves `.` and `..` against a directory; a leading `/` starts from the root. */
function normalizePath(path: string, fromDirectory: string): string {
  const segments = path.startsWith("/") ? [] : fromDirectory.split("/").filter(Boolean);
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return segments.join("/");
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Hosts of absolute base URLs, for {@link ResolveIndex.appHosts}. */
export function hostsOf(...urls: readonly string[]): Set<string> {
  const hosts = new Set<string>();
  for (const url of urls) {
    try {
      hosts.add(new URL(url).host.toLowerCase());
    } catch {
      // A base URL that is not absolute names no host.
    }
  }
  return hosts;
}
