import type { World } from "../shared/world.js";
import type { WriteTransaction } from "../storage/port.js";
import { NodeStore, mapConflicts, mapDiff, mapGet, mapMerge, mapUpdate } from "./hamt.js";
import { type MergeConflict, type MergeInput, type MergeResolutions, mergeContents } from "./merge.js";
import { type ChildEntry, type Revision, slugKey, slugsOf } from "./revisions.js";
import { buildList, listRows } from "./sibling-list.js";
import {
  type FileVersionRecord,
  type PageVersionRecord,
  type RevisionTree,
  fileVersionsTable,
  pageVersionsTable,
} from "./tables.js";
import { sortSiblings } from "./tree.js";

/**
 * The three-way merge of two revisions against their common ancestor, on their content trees
 * (revisions.ts, hamt.ts). It decides what content-tree/merge.ts decides (`mergeContents`: the same
 * versions, conflicts and tree checks), reading and writing only what both sides changed:
 *
 * - an entry that one side changed and the other did not takes that side's version id: no version
 *   is loaded for it, and the maps merge structurally ({@link mapMerge}): a subtree one side left
 *   as in `base` is taken from the other side as it is;
 * - versions are loaded for the entries both sides changed ({@link mapConflicts}, which walks only
 *   the subtrees both sides changed) and for the pages whose place or slug `theirs` changed (found
 *   in the diff of the children lists, not in the pages), since only those can break the tree;
 * - reusable contents merge by id and whole, as files do: one changed on one side takes that side's
 *   version, one changed differently on both sides is a conflict;
 * - the children lists merge by row: a list changed on one side is taken from it, a list changed on
 *   both merges page by page, with the merged version's row for a page both sides changed.
 *
 * `resolutions` settle the collisions of the entries they name (see `MergeResolutions`).
 *
 * `mergeContents` with every changed entry loaded is the reference it must agree with
 * (merge-revisions.test.ts compares the root hashes and conflicts on random histories).
 */
export async function mergeRevisions(
  tx: WriteTransaction,
  world: World,
  base: Revision,
  ours: Revision,
  theirs: Revision,
  resolutions: MergeResolutions = {},
): Promise<{ tree: RevisionTree } | { conflicts: MergeConflict[] }> {
  const store = new NodeStore(tx, world.cache);
  const reusable = (revision: Revision) => revision.tree.reusableContents ?? "";
  const [pagesBoth, filesBoth, listsBoth, theirsLists, reusableBoth] = await Promise.all([
    mapConflicts(store, base.tree.pages, ours.tree.pages, theirs.tree.pages),
    mapConflicts(store, base.tree.files, ours.tree.files, theirs.tree.files),
    mapConflicts(store, base.tree.children, ours.tree.children, theirs.tree.children),
    mapDiff(store, base.tree.children, theirs.tree.children),
    mapConflicts(store, reusable(base), reusable(ours), reusable(theirs)),
  ]);

  // Pages `theirs` placed differently (moved, renamed, created, deleted): the tree checks' input.
  const placed = new Set<string>();
  await Promise.all(
    [...theirsLists].map(async ([, change]) => {
      const [before, after] = await Promise.all([rowsOf(store, change.before), rowsOf(store, change.after)]);
      for (const page of new Set([...before.keys(), ...after.keys()])) {
        if (!sameRow(before.get(page), after.get(page))) placed.add(page);
      }
    }),
  );

  const sides = { base: emptySide(), ours: emptySide(), theirs: emptySide() };
  const load = async <K extends "pages" | "files">(kind: K, ids: Iterable<string>) => {
    const get = (revision: Revision, id: string) =>
      kind === "pages" ? revision.page(id) : revision.file(id);
    await Promise.all(
      [...ids].map(async (id) => {
        const [b, o, t] = await Promise.all([get(base, id), get(ours, id), get(theirs, id)]);
        if (o?.id === t?.id) return;
        for (const [side, version] of [
          [sides.base, b],
          [sides.ours, o],
          [sides.theirs, t],
        ] as const) {
          if (version) (side[kind] as Map<string, typeof version>).set(id, version);
        }
      }),
    );
  };
  await Promise.all([
    load("pages", new Set([...pagesBoth.keys(), ...placed])),
    load("files", filesBoth.keys()),
  ]);
  const { changes, conflicts } = await mergeContents(
    sides.base,
    sides.ours,
    sides.theirs,
    world,
    ours,
    resolutions,
  );
  // Reusable contents merge whole, as files do: changed differently on both sides is a conflict.
  for (const id of reusableBoth.keys()) {
    conflicts.push({ reusableContent: id, reason: "Changed differently on both sides" });
  }
  if (conflicts.length > 0) return { conflicts };

  // Versions the merge made (neither side's) are new.
  const known = (kind: "pages" | "files", id: string) => [
    sides.ours[kind].get(id)?.id,
    sides.theirs[kind].get(id)?.id,
  ];
  for (const [id, version] of changes.pages) {
    if (version && !known("pages", id).includes(version.id)) await tx.put(pageVersionsTable, version);
  }
  for (const [id, version] of changes.files) {
    if (version && !known("files", id).includes(version.id)) await tx.put(fileVersionsTable, version);
  }

  /** The merged version of an entry both sides changed: the merge's change, or ours. */
  const decide = <R extends { id: string }>(
    both: ReadonlyMap<string, unknown>,
    merged: ReadonlyMap<string, R | null>,
    own: ReadonlyMap<string, R>,
  ) =>
    new Map(
      [...both.keys()].map((id) => [id, merged.has(id) ? merged.get(id)! : (own.get(id) ?? null)] as const),
    );
  const pages = decide(pagesBoth, changes.pages, sides.ours.pages);
  const files = decide(filesBoth, changes.files, sides.ours.files);

  const lists = await mergeLists(store, { base, ours, theirs }, listsBoth.keys(), pages, sides);
  const ids = (versions: ReadonlyMap<string, { id: string } | null>) =>
    new Map([...versions].map(([id, version]) => [id, version?.id ?? null] as const));
  const [pagesRoot, filesRoot, childrenRoot, reusableRoot] = await Promise.all([
    mapMerge(store, base.tree.pages, ours.tree.pages, theirs.tree.pages, ids(pages)),
    mapMerge(store, base.tree.files, ours.tree.files, theirs.tree.files, ids(files)),
    mapMerge(store, base.tree.children, ours.tree.children, theirs.tree.children, lists),
    mapMerge(store, reusable(base), reusable(ours), reusable(theirs), new Map()),
  ]);
  const slugs = await mergedSlugs(store, ours.tree, childrenRoot);
  const tree: RevisionTree = { pages: pagesRoot, files: filesRoot, children: childrenRoot, slugs };
  return { tree: reusableRoot ? { ...tree, reusableContents: reusableRoot } : tree };
}

/**
 * The `slugs` map of the merged tree: ours', with the slugs of the children lists that differ
 * between ours and the merge moved along (the lists the merge took from theirs or merged).
 */
async function mergedSlugs(store: NodeStore, ours: RevisionTree, children: string): Promise<string> {
  const slugs = await slugsOf(store, ours);
  const changes = new Map<string, string | null>();
  const joined = new Map<string, string>();
  await Promise.all(
    [...(await mapDiff(store, ours.children, children))].map(async ([parent, change]) => {
      const [before, after] = await Promise.all([rowsOf(store, change.before), rowsOf(store, change.after)]);
      for (const [page, row] of before) {
        if (sameRow(row, after.get(page))) continue;
        const key = slugKey(parent, row.slug);
        if ((await mapGet(store, slugs, key)) === page) changes.set(key, null);
      }
      for (const [page, row] of after) {
        if (!sameRow(row, before.get(page))) joined.set(slugKey(parent, row.slug), page);
      }
    }),
  );
  for (const [key, page] of joined) changes.set(key, page);
  return mapUpdate(store, slugs, changes);
}

type Sides = Record<"base" | "ours" | "theirs", MergeInput>;

const emptySide = () => ({
  pages: new Map<string, PageVersionRecord>(),
  files: new Map<string, FileVersionRecord>(),
});

type Row = Omit<ChildEntry, "page">;

const sameRow = (a: Row | undefined, b: Row | undefined) =>
  a === b || (a !== undefined && b !== undefined && a.position === b.position && a.slug === b.slug);

/** The rows of a children list by page. */
async function rowsOf(store: NodeStore, list: string | undefined): Promise<Map<string, Row>> {
  return new Map(
    (await listRows(store, list ?? "")).map(([position, page, slug]) => [page, { position, slug }]),
  );
}

const rowOf = (version: PageVersionRecord | null | undefined, parent: string): Row | undefined =>
  version && version.parent === parent ? { position: version.position, slug: version.slug } : undefined;

/**
 * The merged children lists that the structural merge of the children maps cannot take from one
 * side: the lists both sides changed, and the lists where a page both sides changed ends up with a
 * row neither side's list gives it (for instance moved by ours and renamed by theirs). A page
 * changed on one side only keeps that side's row; a page both changed takes its merged version's.
 */
async function mergeLists(
  store: NodeStore,
  revisions: Record<"base" | "ours" | "theirs", Revision>,
  changedOnBoth: Iterable<string>,
  pages: ReadonlyMap<string, PageVersionRecord | null>,
  sides: Sides,
): Promise<Map<string, string | null>> {
  const parents = new Set(changedOnBoth);
  for (const [id, merged] of pages) {
    const versions = [sides.base.pages.get(id), sides.ours.pages.get(id), sides.theirs.pages.get(id)];
    for (const parent of new Set(
      [...versions, merged].flatMap((version) => (version ? [version.parent] : [])),
    )) {
      const [b, o, t] = versions.map((version) => rowOf(version, parent));
      if (!sameRow(sameRow(o, b) ? t : o, rowOf(merged, parent))) parents.add(parent);
    }
  }
  const lists = new Map<string, string | null>();
  await Promise.all(
    [...parents].map(async (parent) => {
      const [b, o, t] = await Promise.all(
        (["base", "ours", "theirs"] as const).map(async (side) => {
          const entries = await revisions[side].children(parent);
          return new Map(entries.map((entry) => [entry.page, entry as Row]));
        }),
      );
      const rows: ChildEntry[] = [];
      const joining = [...pages].filter(([, merged]) => merged?.parent === parent).map(([id]) => id);
      for (const page of new Set([...b!.keys(), ...o!.keys(), ...t!.keys(), ...joining])) {
        const [rb, ro, rt] = [b!.get(page), o!.get(page), t!.get(page)];
        const row = pages.has(page) ? rowOf(pages.get(page), parent) : sameRow(ro, rb) ? rt : ro;
        if (row) rows.push({ page, position: row.position, slug: row.slug });
      }
      const list = sortSiblings(rows);
      lists.set(
        parent,
        (await buildList(
          store,
          list.map((entry) => [entry.position, entry.page, entry.slug]),
        )) || null,
      );
    }),
  );
  return lists;
}
