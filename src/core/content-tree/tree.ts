import type {
  FileVersionRecord,
  PageVersionRecord,
  ReusableContentVersionRecord,
  RevisionRecord,
} from "./tables.js";

/** A revision with all its content loaded. Treat as read-only: it is shared through the cache. */
export interface FullContent {
  readonly record: RevisionRecord;
  readonly pages: ReadonlyMap<string, PageVersionRecord>;
  readonly files: ReadonlyMap<string, FileVersionRecord>;
  readonly reusableContents: ReadonlyMap<string, ReusableContentVersionRecord>;
}

/**
 * The page tree of a revision, derived from its page versions: each version names its parent and
 * its position among siblings, so moving a page is one new version of that page. Paths are the
 * slugs from the root joined by "/". Derived once per revision and memoized on the content object.
 */
export interface TreeNode {
  readonly version: PageVersionRecord;
  readonly path: string;
  readonly children: readonly TreeNode[];
  readonly depth: number;
}

export interface PageTree {
  readonly roots: readonly TreeNode[];
  readonly byId: ReadonlyMap<string, TreeNode>;
  readonly byPath: ReadonlyMap<string, TreeNode>;
  /** All nodes in reading order (depth first, siblings by position). */
  readonly ordered: readonly TreeNode[];
}

const trees = new WeakMap<FullContent, PageTree>();

export function pageTree(content: FullContent): PageTree {
  const known = trees.get(content);
  if (known) return known;
  const children = new Map<string, PageVersionRecord[]>();
  for (const version of content.pages.values()) {
    // A page whose parent is missing (never expected) is shown at the root rather than lost.
    const parent = version.parent && content.pages.has(version.parent) ? version.parent : "";
    const list = children.get(parent) ?? [];
    list.push(version);
    children.set(parent, list);
  }
  const byId = new Map<string, TreeNode>();
  const byPath = new Map<string, TreeNode>();
  const ordered: TreeNode[] = [];
  const build = (parent: string, prefix: string, depth: number): TreeNode[] =>
    sortSiblings(children.get(parent) ?? []).map((version) => {
      const path = prefix ? `${prefix}/${version.slug}` : version.slug;
      const node: { version: PageVersionRecord; path: string; depth: number; children: TreeNode[] } = {
        version,
        path,
        depth,
        children: [],
      };
      byId.set(version.page, node);
      byPath.set(path, node);
      ordered.push(node);
      node.children = build(version.page, path, depth + 1);
      return node;
    });
  const tree: PageTree = { roots: build("", "", 0), byId, byPath, ordered };
  trees.set(content, tree);
  return tree;
}

export function sortSiblings<T extends Pick<PageVersionRecord, "position" | "page">>(pages: T[]): T[] {
  return [...pages].sort((a, b) =>
    a.position !== b.position ? (a.position < b.position ? -1 : 1) : a.page < b.page ? -1 : 1,
  );
}

/** The pages directly under `parent` ("" for the root), in order. */
export function siblingsOf(content: Pick<FullContent, "pages">, parent: string): PageVersionRecord[] {
  return sortSiblings([...content.pages.values()].filter((version) => version.parent === parent));
}

/** A URL-safe slug from a title: lower-case ASCII letters and digits joined by single hyphens. */
export function slugify(title: string): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug || "page";
}

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
