import type { PageTree, TreeNode } from "../content-tree/tree.js";
import {
  ASSETS_DIRECTORY,
  MISSING_DIRECTORY,
  linkPath,
  pageFilePath,
  pagePathOf,
} from "../link-references/paths.js";
import { parseReference, type StoredReference } from "../link-references/references.js";

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
 * - a stored reference (`docsbase-ref:page/<id>`, link-references/references.ts) names its page or file by
 *   id, wherever it now is; when it is gone the link is `broken` and its path is
 *   `.gitbook/missing/page/<id>` (or `file/<id>`), which is how the markdown shows it.
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
  hasFile(id: string): boolean;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** The file of a page in the Git Sync layout. */
export function pageFile(node: TreeNode): string {
  return pageFilePath(node.path, node.children.length > 0);
}

/** The directory that relative links of a page start from. */
export function pageDirectory(node: TreeNode): string {
  const file = pageFile(node);
  const slash = file.lastIndexOf("/");
  return slash < 0 ? "" : file.slice(0, slash);
}

/**
 * Resolves a link as stored. `literal` marks a target that is text even in the reserved form (an
 * autolink): it is never taken for a reference.
 */
export function resolveLink(
  href: string,
  fromDirectory: string,
  index: ResolveIndex,
  literal = false,
): ResolvedLink {
  const reference = literal ? undefined : parseReference(href);
  if (reference) return resolveReference(reference, index);
  if (href.startsWith("//") || SCHEME.test(href)) return resolveUrl(href, index);
  const path = linkPath(href, fromDirectory);
  const missing = missingAt(path);
  if (path.startsWith(`${ASSETS_DIRECTORY}/`)) {
    const file = index.filesByName.get(path.slice(ASSETS_DIRECTORY.length + 1));
    return file ? { key: `file:${file}`, status: "ok", target: { kind: "file", file } } : missing;
  }
  const node = pageAt(path, index.tree);
  return node
    ? { key: `page:${node.version.page}`, status: "ok", target: { kind: "page", page: node.version.page } }
    : missing;
}

function resolveReference(reference: StoredReference, index: ResolveIndex): ResolvedLink {
  switch (reference.kind) {
    case "literal":
      return resolveUrl(reference.url, index);
    case "page": {
      const { page } = reference;
      return index.tree.byId.has(page)
        ? { key: `page:${page}`, status: "ok", target: { kind: "page", page } }
        : missingAt(`${MISSING_DIRECTORY}/page/${page}`);
    }
    case "file": {
      const { file } = reference;
      return index.hasFile(file)
        ? { key: `file:${file}`, status: "ok", target: { kind: "file", file } }
        : missingAt(`${MISSING_DIRECTORY}/file/${file}`);
    }
  }
}

const missingAt = (path: string): ResolvedLink => ({
  key: `missing:${path}`,
  status: "broken",
  target: { kind: "missing", path },
});

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
  const pagePath = pagePathOf(path);
  return pagePath === "" ? tree.roots[0] : tree.byPath.get(pagePath);
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
