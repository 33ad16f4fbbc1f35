import { jsonBytes } from "../shared/cache.js";
import { nextSequence } from "../shared/sequence.js";
import type { World } from "../shared/world.js";
import type { ReadTransaction, Table, WriteTransaction } from "../storage/port.js";
import { type Change, NodeStore, mapDiff, mapEntries, mapGet, mapSize, mapUpdate } from "./hamt.js";
import {
  type FileVersionRecord,
  type PageVersionRecord,
  type RevisionRecord,
  type ReusableContentVersionRecord,
  type RevisionTree,
  fileVersionsTable,
  pageVersionsTable,
  reusableContentVersionsTable,
  revisionsTable,
} from "./tables.js";
import { type Row, lastRow, listRows, updateList } from "./sibling-list.js";
import { type FullContent, type TreeNode } from "./tree.js";

export type { FullContent } from "./tree.js";

/**
 * Immutable revisions whose cost follows the edit.
 *
 * A revision's content is three persistent maps (content-addressed trees, hamt.ts), named by their
 * root hashes in the revision record:
 *
 * - `pages`: page id → page version id;
 * - `files`: file id → file version id;
 * - `children`: parent page id ("" for the root) → the list of its children (sibling-list.ts),
 *   ordered by position, each with its slug (so that paths and positions need no page loads);
 * - `slugs`: parent page id and slug (joined by {@link slugKey}) → the child's page id, so that a
 *   creation checks or picks a free slug without reading its siblings;
 * - `reusableContents`: reusable content id → reusable content version id (absent: none).
 *
 * Versions are immutable records of their own. An edit to one page writes its version, the few
 * tree nodes on that page's path and the revision record: a constant number of records, whatever
 * the size of the space. Two revisions share every unchanged node. Reading one page reads the
 * nodes on its path; the whole content is loaded only by the operations that show all of it
 * ({@link Revision.full}).
 *
 * Everything read is memoized in `world.cache` under immutable ids (nodes by hash, versions and
 * revision records by id), accounted by size in one budget.
 */

/** One child of a page (or of the root) in a revision: enough to order siblings and build paths. */
export interface ChildEntry {
  readonly page: string;
  readonly position: string;
  readonly slug: string;
}

/** The changes between two revisions, by page, file and reusable content id, with the versions on each side. */
export interface ContentDiff {
  readonly pages: Map<string, { before?: PageVersionRecord; after?: PageVersionRecord }>;
  readonly files: Map<string, { before?: FileVersionRecord; after?: FileVersionRecord }>;
  readonly reusableContents: Map<
    string,
    { before?: ReusableContentVersionRecord; after?: ReusableContentVersionRecord }
  >;
}

const EMPTY_TREE: RevisionTree = { pages: "", files: "", children: "", slugs: "" };

const entryOf = ([position, page, slug]: Row): ChildEntry => ({ page, position, slug });

/** The key of a child in the `slugs` map: its parent's id and its slug ("\u0000" is in neither). */
export const slugKey = (parent: string, slug: string) => `${parent}\u0000${slug}`;

/**
 * The `slugs` map of a revision tree; built from its children lists when the revision predates it
 * (a one-time cost, at the first commit on such a revision).
 */
export async function slugsOf(store: NodeStore, tree: RevisionTree): Promise<string> {
  if (tree.slugs !== undefined) return tree.slugs;
  const entries = new Map<string, string>();
  for (const [parent, list] of await mapEntries(store, tree.children)) {
    for (const [, page, slug] of await listRows(store, list)) entries.set(slugKey(parent, slug), page);
  }
  return mapUpdate(store, "", entries);
}

const versionBytes = (version: object) => jsonBytes(version);

/**
 * A revision read in one transaction: its record, and lookups that load only what they need.
 * Cheap to make; never keep one beyond its transaction.
 */
export class Revision {
  private readonly store: NodeStore;

  constructor(
    readonly tx: ReadTransaction,
    readonly world: World,
    readonly record: RevisionRecord & { readonly tree: RevisionTree },
  ) {
    this.store = new NodeStore(tx, world.cache);
  }

  get id(): string {
    return this.record.id;
  }

  get tree(): RevisionTree {
    return this.record.tree;
  }

  /** The version of a page, or undefined when the revision has no such page. */
  async page(id: string): Promise<PageVersionRecord | undefined> {
    const version = await mapGet(this.store, this.tree.pages, id);
    return version === undefined ? undefined : loadVersion(this.tx, this.world, pageVersionsTable, version);
  }

  async hasPage(id: string): Promise<boolean> {
    return (await mapGet(this.store, this.tree.pages, id)) !== undefined;
  }

  /** The version of a file, or undefined. */
  async file(id: string): Promise<FileVersionRecord | undefined> {
    const version = await mapGet(this.store, this.tree.files, id);
    return version === undefined ? undefined : loadVersion(this.tx, this.world, fileVersionsTable, version);
  }

  /** The version of a reusable content, or undefined. */
  async reusableContent(id: string): Promise<ReusableContentVersionRecord | undefined> {
    const version = await mapGet(this.store, this.tree.reusableContents ?? "", id);
    return version === undefined
      ? undefined
      : loadVersion(this.tx, this.world, reusableContentVersionsTable, version);
  }

  /** How many reusable contents the revision holds (one node read). */
  async reusableContentCount(): Promise<number> {
    return mapSize(this.store, this.tree.reusableContents ?? "");
  }

  /** Every reusable content version, by reusable content id. */
  async reusableContents(): Promise<ReadonlyMap<string, ReusableContentVersionRecord>> {
    const entries = await mapEntries(this.store, this.tree.reusableContents ?? "");
    const versions = await Promise.all(
      entries.map(([, version]) => loadVersion(this.tx, this.world, reusableContentVersionsTable, version)),
    );
    return new Map(entries.map(([id], index) => [id, versions[index]!]));
  }

  /** The children of a page ("" for the root pages), in order. */
  async children(parent: string): Promise<readonly ChildEntry[]> {
    const list = await mapGet(this.store, this.tree.children, parent);
    return (await listRows(this.store, list ?? "")).map(entryOf);
  }

  /** The last child of a page ("" for the root), reading one list node per level. */
  async lastChild(parent: string): Promise<ChildEntry | undefined> {
    const list = await mapGet(this.store, this.tree.children, parent);
    const row = await lastRow(this.store, list ?? "");
    return row && entryOf(row);
  }

  /** The id of the child of `parent` whose slug is `slug`, or undefined. */
  async childBySlug(parent: string, slug: string): Promise<string | undefined> {
    if (this.tree.slugs !== undefined) return mapGet(this.store, this.tree.slugs, slugKey(parent, slug));
    return (await this.children(parent)).find((entry) => entry.slug === slug)?.page;
  }

  /** The page's ancestors' ids from the root down, then the page; undefined when it is absent. */
  async lineage(id: string): Promise<PageVersionRecord[] | undefined> {
    const chain: PageVersionRecord[] = [];
    const seen = new Set<string>();
    for (let current: string = id; current;) {
      if (seen.has(current)) break;
      seen.add(current);
      const version = await this.page(current);
      if (!version) return current === id ? undefined : chain.reverse();
      chain.push(version);
      current = version.parent;
    }
    return chain.reverse();
  }

  /** The path of a page (slugs from the root, joined by "/"), or undefined. */
  async path(id: string): Promise<string | undefined> {
    return (await this.lineage(id))?.map((version) => version.slug).join("/");
  }

  /** The page at a path of slugs, or undefined. */
  async pageAtPath(path: string): Promise<PageVersionRecord | undefined> {
    let parent = "";
    for (const slug of path.split("/")) {
      const child = await this.childBySlug(parent, slug);
      if (!child) return undefined;
      parent = child;
    }
    return parent ? this.page(parent) : undefined;
  }

  /** Whether `page` is `ancestor` or below it. */
  async isWithin(page: string, ancestor: string): Promise<boolean> {
    const lineage = await this.lineage(page);
    return lineage?.some((version) => version.page === ancestor) ?? false;
  }

  /** The ids of a page and all its descendants (none when the page is absent). */
  async subtree(page: string): Promise<string[]> {
    if (!(await this.hasPage(page))) return [];
    const ids: string[] = [];
    const walk = async (current: string): Promise<void> => {
      ids.push(current);
      for (const child of await this.children(current)) await walk(child.page);
    };
    await walk(page);
    return ids;
  }

  /**
   * The tree node of one page: its version, path and depth, and with `children` its descendants
   * (each loaded). Reads the page's lineage and subtree only.
   */
  async node(id: string, options: { readonly children: boolean }): Promise<TreeNode | undefined> {
    const lineage = await this.lineage(id);
    if (!lineage) return undefined;
    const version = lineage.at(-1)!;
    const path = lineage.map((entry) => entry.slug).join("/");
    const build = async (current: PageVersionRecord, at: string, depth: number): Promise<TreeNode> => {
      const children = options.children
        ? await Promise.all(
            (await this.children(current.page)).map(async (child) => {
              const childVersion = (await this.page(child.page))!;
              return build(childVersion, `${at}/${childVersion.slug}`, depth + 1);
            }),
          )
        : [];
      return { version: current, path: at, depth, children };
    };
    return build(version, path, lineage.length - 1);
  }

  /** Every file version, by file id (without loading pages). */
  async files(): Promise<ReadonlyMap<string, FileVersionRecord>> {
    const entries = await mapEntries(this.store, this.tree.files);
    const versions = await Promise.all(
      entries.map(([, version]) => loadVersion(this.tx, this.world, fileVersionsTable, version)),
    );
    return new Map(entries.map(([id], index) => [id, versions[index]!]));
  }

  /** Everything: every page, file and reusable content version. Memoized per revision. */
  async full(): Promise<FullContent> {
    const key = `full:${this.id}`;
    const cached = this.world.cache.get(key) as FullContent | undefined;
    if (cached) return cached;
    const load = async <R extends object>(table: Table<R>, root: string) => {
      const entries = await mapEntries(this.store, root);
      const versions = await Promise.all(
        entries.map(([, version]) => loadVersion(this.tx, this.world, table, version)),
      );
      return entries.map(([id], index) => [id, versions[index]!] as const);
    };
    const [pages, files, reusable] = await Promise.all([
      load(pageVersionsTable, this.tree.pages),
      load(fileVersionsTable, this.tree.files),
      load(reusableContentVersionsTable, this.tree.reusableContents ?? ""),
    ]);
    const content: FullContent = {
      record: this.record,
      pages: new Map(pages),
      files: new Map(files),
      reusableContents: new Map(reusable),
    };
    let bytes = 256;
    for (const [, version] of [...pages, ...files, ...reusable]) bytes += versionBytes(version) + 96;
    this.world.cache.set(key, content, bytes);
    return content;
  }
}

/** A page or file version by id, through the cache. */
async function loadVersion<R extends object>(
  tx: ReadTransaction,
  world: World,
  table: Table<R>,
  id: string,
): Promise<R> {
  const key = `${table.name}:${id}`;
  const cached = world.cache.get(key) as R | undefined;
  if (cached) return cached;
  const version = await tx.get(table, id);
  if (!version) throw new Error(`Missing ${table.name} record ${id}`);
  world.cache.set(key, version, versionBytes(version));
  return version;
}

/** The record of a revision through the cache, or undefined. */
async function revisionRecordOf(
  tx: ReadTransaction,
  world: World,
  id: string,
): Promise<RevisionRecord | undefined> {
  const key = `revision:${id}`;
  const cached = world.cache.get(key) as RevisionRecord | undefined;
  if (cached) return cached;
  const record = await tx.get(revisionsTable, id);
  if (record) world.cache.set(key, record, jsonBytes(record));
  return record;
}

const hasTree = (record: RevisionRecord): record is RevisionRecord & { readonly tree: RevisionTree } =>
  record.tree !== undefined;

/** A revision, or undefined when no such revision exists. */
export async function loadRevision(
  tx: ReadTransaction,
  world: World,
  id: string,
): Promise<Revision | undefined> {
  const record = await revisionRecordOf(tx, world, id);
  if (!record) return undefined;
  if (!hasTree(record)) throw new Error(`Revision ${id} predates content trees and was not migrated`);
  return new Revision(tx, world, record);
}

/** Like {@link loadRevision}, for revisions that must exist (a space's or a change request's head). */
export async function requireRevision(tx: ReadTransaction, world: World, id: string): Promise<Revision> {
  const revision = await loadRevision(tx, world, id);
  if (!revision) throw new Error(`Revision ${id} is missing`);
  return revision;
}

/**
 * What changed from `from` to `to`, walking only the tree nodes that differ. `from` null stands
 * for empty content (what a space's first revision is compared with): everything in `to` is new.
 */
export async function diffRevisions(from: Revision | null, to: Revision): Promise<ContentDiff> {
  const store = new NodeStore(to.tx, to.world.cache);
  const tree = from?.tree ?? EMPTY_TREE;
  const [pageChanges, fileChanges, reusableChanges] = await Promise.all([
    mapDiff(store, tree.pages, to.tree.pages),
    mapDiff(store, tree.files, to.tree.files),
    mapDiff(store, tree.reusableContents ?? "", to.tree.reusableContents ?? ""),
  ]);
  const resolve = async <R extends object>(table: Table<R>, changes: Map<string, Change>) =>
    new Map(
      await Promise.all(
        [...changes].map(async ([id, change]) => {
          const [before, after] = await Promise.all([
            change.before === undefined ? undefined : loadVersion(to.tx, to.world, table, change.before),
            change.after === undefined ? undefined : loadVersion(to.tx, to.world, table, change.after),
          ]);
          return [id, { ...(before ? { before } : {}), ...(after ? { after } : {}) }] as const;
        }),
      ),
    );
  const [pages, files, reusableContents] = await Promise.all([
    resolve(pageVersionsTable, pageChanges),
    resolve(fileVersionsTable, fileChanges),
    resolve(reusableContentVersionsTable, reusableChanges),
  ]);
  return { pages, files, reusableContents };
}

/** What a commit changes: new versions by page or file id, `null` to remove. */
export interface ContentChanges {
  readonly pages?: ReadonlyMap<string, PageVersionRecord | null>;
  readonly files?: ReadonlyMap<string, FileVersionRecord | null>;
  readonly reusableContents?: ReadonlyMap<string, ReusableContentVersionRecord | null>;
  /** Ids of versions known to be stored already (taken from another revision): not looked up. */
  readonly stored?: ReadonlySet<string>;
}

export interface CommitInput {
  readonly space: string;
  /** The revision the changes apply to; it becomes the first parent. */
  readonly base: Revision | null;
  /** Further parents (the other side of a merge or an update). */
  readonly otherParents?: readonly string[];
  /**
   * Without `base`, the revision whose content the new one starts from (a duplicated space: its
   * trees are shared as they are, whatever their size).
   */
  readonly startFrom?: Revision;
  readonly type?: RevisionRecord["type"];
  readonly changes: ContentChanges;
}

/**
 * Writes a new revision: stores the new page and file versions (versions already stored, such as
 * those taken from another revision in a merge, are reused as they are), the tree nodes that
 * changed and the revision record.
 */
export async function commitRevision(
  tx: WriteTransaction,
  world: World,
  input: CommitInput,
): Promise<Revision> {
  const tree = await applyChanges(tx, world, input.base ?? input.startFrom ?? null, input.changes);
  return recordRevision(tx, world, {
    space: input.space,
    parents: [...(input.base ? [input.base.id] : []), ...(input.otherParents ?? [])],
    type: input.type ?? "edits",
    tree,
  });
}

/**
 * Writes the record of a revision whose trees are already written (by {@link applyChanges} or a
 * merge of trees, merge-revisions.ts).
 */
export async function recordRevision(
  tx: WriteTransaction,
  world: World,
  input: Pick<RevisionRecord, "space" | "parents" | "type" | "changeRequest"> & {
    readonly tree: RevisionTree;
  },
): Promise<Revision> {
  const record: RevisionRecord = {
    id: world.ids(),
    space: input.space,
    seq: await nextSequence(tx, input.space),
    parents: input.parents,
    createdAt: world.clock().toISOString(),
    type: input.type,
    ...(input.changeRequest ? { changeRequest: input.changeRequest } : {}),
    tree: input.tree,
  };
  await tx.put(revisionsTable, record);
  world.cache.set(`revision:${record.id}`, record, jsonBytes(record));
  return new Revision(tx, world, { ...record, tree: input.tree });
}

/**
 * The trees of `base` with `changes` applied: writes the new versions and the changed nodes, and
 * keeps the children lists of the parents a change touches in step with the page versions.
 */
export async function applyChanges(
  tx: WriteTransaction,
  world: World,
  base: Revision | null,
  changes: ContentChanges,
): Promise<RevisionTree> {
  const from = base?.tree ?? EMPTY_TREE;
  const store = new NodeStore(tx, world.cache);
  const pageIds = new Map<string, string | null>();
  const fileIds = new Map<string, string | null>();
  /** Children-list edits by parent: entries leaving it, and entries joining it. */
  const leaving = new Map<string, ChildEntry[]>();
  const joining = new Map<string, ChildEntry[]>();
  const touch = <T>(map: Map<string, T>, key: string, empty: () => T) => {
    if (!map.has(key)) map.set(key, empty());
    return map.get(key)!;
  };

  await Promise.all(
    [...(changes.pages ?? [])].map(async ([page, version]) => {
      const current = base ? await base.page(page) : undefined;
      if (version === null) {
        if (!current) return;
        pageIds.set(page, null);
        touch(leaving, current.parent, () => []).push(current);
        return;
      }
      if (current?.id === version.id) return;
      if (!changes.stored?.has(version.id) && !(await tx.get(pageVersionsTable, version.id))) {
        await tx.put(pageVersionsTable, version);
      }
      pageIds.set(page, version.id);
      const moved =
        !current ||
        current.parent !== version.parent ||
        current.position !== version.position ||
        current.slug !== version.slug;
      if (!moved) return;
      if (current) touch(leaving, current.parent, () => []).push(current);
      touch(joining, version.parent, () => []).push({ page, position: version.position, slug: version.slug });
    }),
  );
  await Promise.all(
    [...(changes.files ?? [])].map(async ([file, version]) => {
      const current = base ? await mapGet(store, from.files, file) : undefined;
      if (version === null) {
        if (current !== undefined) fileIds.set(file, null);
        return;
      }
      if (current === version.id) return;
      if (!changes.stored?.has(version.id) && !(await tx.get(fileVersionsTable, version.id))) {
        await tx.put(fileVersionsTable, version);
      }
      fileIds.set(file, version.id);
    }),
  );

  const reusableIds = new Map<string, string | null>();
  for (const [id, version] of changes.reusableContents ?? []) {
    const current = base ? await mapGet(store, from.reusableContents ?? "", id) : undefined;
    if (version === null) {
      if (current !== undefined) reusableIds.set(id, null);
    } else if (current !== version.id) {
      if (!changes.stored?.has(version.id)) await tx.put(reusableContentVersionsTable, version);
      reusableIds.set(id, version.id);
    }
  }

  const listChanges = new Map<string, string | null>();
  await Promise.all(
    [...new Set([...leaving.keys(), ...joining.keys()])].map(async (parent) => {
      const list = (await mapGet(store, from.children, parent)) ?? "";
      const rows = (entries: readonly ChildEntry[]) =>
        entries.map((entry): Row => [entry.position, entry.page, entry.slug]);
      const updated = await updateList(
        store,
        list,
        leaving.get(parent) ?? [],
        rows(joining.get(parent) ?? []),
      );
      if (updated !== list) listChanges.set(parent, updated || null);
    }),
  );

  // A slug leaves its key only if no other change takes it (two pages swapping slugs).
  const slugs = await slugsOf(store, from);
  const slugChanges = new Map<string, string | null>();
  await Promise.all(
    [...leaving].flatMap(([parent, entries]) =>
      entries.map(async (entry) => {
        const key = slugKey(parent, entry.slug);
        if ((await mapGet(store, slugs, key)) === entry.page) slugChanges.set(key, null);
      }),
    ),
  );
  for (const [parent, entries] of joining) {
    for (const entry of entries) slugChanges.set(slugKey(parent, entry.slug), entry.page);
  }

  const [pages, files, children, slugsRoot, reusable] = await Promise.all([
    mapUpdate(store, from.pages, pageIds),
    mapUpdate(store, from.files, fileIds),
    mapUpdate(store, from.children, listChanges),
    mapUpdate(store, slugs, slugChanges),
    mapUpdate(store, from.reusableContents ?? "", reusableIds),
  ]);
  return { pages, files, children, slugs: slugsRoot, ...(reusable ? { reusableContents: reusable } : {}) };
}
