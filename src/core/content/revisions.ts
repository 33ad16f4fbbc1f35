import { nextSequence } from "../shared/sequence.js";
import type { World } from "../shared/world.js";
import type { ReadTransaction, Table, WriteTransaction } from "../storage/port.js";
import {
  type ContentDelta,
  type FileVersionRecord,
  type PageVersionRecord,
  type RevisionRecord,
  fileVersionsTable,
  pageVersionsTable,
  revisionsTable,
} from "./tables.js";

/**
 * Immutable revisions with structural sharing (DESIGN.md, "Immutable revisions").
 *
 * A revision's content is a map from page id to page version and from file id to file version.
 * Versions are immutable records of their own; a revision stores only ids. Most revisions store a
 * `delta` against their `base` (what one edit changed: usually one entry), and every
 * {@link SNAPSHOT_EVERY}-th one along a chain stores the whole map (`snapshot`) so that loading
 * never walks a long chain. An edit to one page of a 1,000-page space therefore writes one page
 * version and a revision of a few hundred bytes, never a copy of the space.
 *
 * Materialized content is memoized per revision id in `world.cache`: a revision never changes, and
 * a child is built from its cached base by applying its delta.
 */
export const SNAPSHOT_EVERY = 32;

/** A revision with its content resolved. Treat as read-only: it is shared through the cache. */
export interface RevisionContent {
  readonly record: RevisionRecord;
  readonly pages: ReadonlyMap<string, PageVersionRecord>;
  readonly files: ReadonlyMap<string, FileVersionRecord>;
}

const cacheKey = (id: string) => `revision:${id}`;

/** The content of a revision, or undefined when no such revision exists. */
export async function loadRevision(
  tx: ReadTransaction,
  world: World,
  id: string,
): Promise<RevisionContent | undefined> {
  const cached = world.cache.get(cacheKey(id)) as RevisionContent | undefined;
  if (cached) return cached;
  const record = await tx.get(revisionsTable, id);
  if (!record) return undefined;
  let content: RevisionContent;
  if (record.base && record.delta) {
    const base = await loadRevision(tx, world, record.base);
    if (!base) throw new Error(`Revision ${id} lost its base ${record.base}`);
    content = await applyDelta(tx, record, base, record.delta);
  } else {
    // All reads at once: an adapter with a network round trip per statement (PostgreSQL) sends them
    // as one query.
    const load = <R extends object>(table: Table<R>, versions: Record<string, string>) =>
      Promise.all(
        Object.entries(versions).map(
          async ([id, version]) => [id, await requireVersion(tx, table, version)] as const,
        ),
      );
    const [pages, files] = await Promise.all([
      load(pageVersionsTable, record.snapshot?.pages ?? {}),
      load(fileVersionsTable, record.snapshot?.files ?? {}),
    ]);
    content = { record, pages: new Map(pages), files: new Map(files) };
  }
  world.cache.set(cacheKey(id), content);
  return content;
}

/** Like {@link loadRevision}, for revisions that must exist (a space's or a change request's head). */
export async function requireRevision(
  tx: ReadTransaction,
  world: World,
  id: string,
): Promise<RevisionContent> {
  const content = await loadRevision(tx, world, id);
  if (!content) throw new Error(`Revision ${id} is missing`);
  return content;
}

async function applyDelta(
  tx: ReadTransaction,
  record: RevisionRecord,
  base: RevisionContent,
  delta: ContentDelta,
): Promise<RevisionContent> {
  const pages = new Map(base.pages);
  const files = new Map(base.files);
  for (const [page, version] of Object.entries(delta.pages)) {
    if (version === null) pages.delete(page);
    else pages.set(page, await requireVersion(tx, pageVersionsTable, version));
  }
  for (const [file, version] of Object.entries(delta.files)) {
    if (version === null) files.delete(file);
    else files.set(file, await requireVersion(tx, fileVersionsTable, version));
  }
  return { record, pages, files };
}

async function requireVersion<R extends object>(
  tx: ReadTransaction,
  table: Table<R>,
  id: string,
): Promise<R> {
  const version = await tx.get(table, id);
  if (!version) throw new Error(`Missing ${table.name} record ${id}`);
  return version;
}

/** What a commit changes: new versions by page or file id, `null` to remove. */
export interface ContentChanges {
  readonly pages?: ReadonlyMap<string, PageVersionRecord | null>;
  readonly files?: ReadonlyMap<string, FileVersionRecord | null>;
}

export interface CommitInput {
  readonly space: string;
  /** The revision the changes apply to; it becomes the first parent. */
  readonly base: RevisionContent | null;
  /** Further parents (the other side of a merge or an update). */
  readonly otherParents?: readonly string[];
  readonly type?: RevisionRecord["type"];
  readonly changes: ContentChanges;
}

/**
 * Writes a new revision: stores the new page and file versions (versions already stored, such as
 * those taken from another revision in a merge, are reused as they are) and the revision record.
 */
export async function commitRevision(
  tx: WriteTransaction,
  world: World,
  input: CommitInput,
): Promise<RevisionContent> {
  const pages = new Map(input.base?.pages ?? []);
  const files = new Map(input.base?.files ?? []);
  const delta: ContentDelta = { pages: {}, files: {} };
  for (const [page, version] of input.changes.pages ?? []) {
    if (version === null) {
      if (!pages.delete(page)) continue;
      delta.pages[page] = null;
    } else {
      if (pages.get(page)?.id === version.id) continue;
      if (!(await tx.get(pageVersionsTable, version.id))) await tx.put(pageVersionsTable, version);
      pages.set(page, version);
      delta.pages[page] = version.id;
    }
  }
  for (const [file, version] of input.changes.files ?? []) {
    if (version === null) {
      if (!files.delete(file)) continue;
      delta.files[file] = null;
    } else {
      if (files.get(file)?.id === version.id) continue;
      if (!(await tx.get(fileVersionsTable, version.id))) await tx.put(fileVersionsTable, version);
      files.set(file, version);
      delta.files[file] = version.id;
    }
  }
  const depth = (input.base?.record.depth ?? 0) + 1;
  const common = {
    id: world.ids(),
    space: input.space,
    seq: await nextSequence(tx, input.space),
    parents: [...(input.base ? [input.base.record.id] : []), ...(input.otherParents ?? [])],
    createdAt: world.clock().toISOString(),
    type: input.type ?? "edits",
  };
  const record: RevisionRecord =
    input.base && depth < SNAPSHOT_EVERY
      ? { ...common, base: input.base.record.id, delta, depth }
      : {
          ...common,
          snapshot: {
            pages: Object.fromEntries([...pages].map(([page, version]) => [page, version.id])),
            files: Object.fromEntries([...files].map(([file, version]) => [file, version.id])),
          },
          depth: 0,
        };
  await tx.put(revisionsTable, record);
  const content: RevisionContent = { record, pages, files };
  world.cache.set(cacheKey(record.id), content);
  return content;
}
