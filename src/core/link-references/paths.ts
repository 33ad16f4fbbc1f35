/**
 * Paths of the Git Sync layout of a space, which is how page markdown names other content
 * (links/resolve.ts describes the rules): a page is `<path>.md`, or `<path>/README.md` when it has
 * children; a file is `.gitbook/assets/<file name>`; relative links start from the directory of
 * the linking page's file. Pure string functions, shared by resolution (text links) and by the
 * rendering of stored references (link-references/references.ts).
 */

export const ASSETS_DIRECTORY = ".gitbook/assets";

/**
 * Where the markdown output shows a reference whose page or file was deleted:
 * `.gitbook/missing/page/<id>` or `.gitbook/missing/file/<id>`. No page can live there (slugs never
 * start with a dot) and no file either (files live in `.gitbook/assets`), so the link stays
 * broken, and written back it becomes the same reference by id again.
 */
export const MISSING_DIRECTORY = ".gitbook/missing";

/** The file of the page at tree path `path`. */
export function pageFilePath(path: string, hasChildren: boolean): string {
  return hasChildren ? `${path}/README.md` : `${path}.md`;
}

/** The directory of a file path ("" at the root). */
export function directoryOf(file: string): string {
  const slash = file.lastIndexOf("/");
  return slash < 0 ? "" : file.slice(0, slash);
}

/**
 * The tree path of the page a normalized path names: `a/b.md`, `a/b/README.md`, `a/b/` or `a/b`
 * name `a/b`; `""` and `README.md` name the first page of the space (as in Git Sync), given as "".
 */
export function pagePathOf(path: string): string {
  if (path === "" || /^readme\.md$/i.test(path)) return "";
  const readme = /\/readme\.md$/i.exec(path);
  if (readme) return path.slice(0, readme.index);
  if (/\.md$/i.test(path)) return path.slice(0, -3);
  return path;
}

/** Resolves `.` and `..` against a directory; a leading `/` starts from the root. */
export function normalizePath(path: string, fromDirectory: string): string {
  const segments = path.startsWith("/") ? [] : fromDirectory.split("/").filter(Boolean);
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return segments.join("/");
}

/** The path part of a written link (before `?` or `#`), percent-decoded and normalized. */
export function linkPath(href: string, fromDirectory: string): string {
  return normalizePath(decodePath(href.split(/[?#]/, 1)[0] ?? ""), fromDirectory);
}

export function decodePath(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `to` (a path from the space root) relative to directory `fromDirectory`. */
export function relativePath(fromDirectory: string, to: string): string {
  const from = fromDirectory.split("/").filter(Boolean);
  const target = to.split("/");
  let shared = 0;
  while (shared < from.length && shared < target.length - 1 && from[shared] === target[shared]) shared++;
  return [...from.slice(shared).map(() => ".."), ...target.slice(shared)].join("/");
}

/** A file name as a path segment of a link: percent-encoded, parentheses and quotes included. */
export function encodeSegment(name: string): string {
  return encodeURIComponent(name).replace(
    /[()']/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
