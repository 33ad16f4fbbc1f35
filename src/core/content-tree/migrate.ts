import * as z from "zod";
import type { World } from "../shared/world.js";
import { defineTable } from "../storage/table.js";
import type { IndexValue, Table, WriteTransaction } from "../storage/port.js";
import { applyChanges, Revision, type ContentChanges } from "./revisions.js";
import {
  type FileVersionRecord,
  type PageVersionRecord,
  type RevisionRecord,
  type RevisionTree,
  fileVersionsTable,
  pageVersionsTable,
  revisionsTable,
} from "./tables.js";

/**
 * Gives every revision stored before content trees (snapshots and deltas, content-tree/tables.ts) its
 * `tree`, once, when a docsbase opens its storage. A delta revision is converted from its base's
 * tree by applying the delta, so the work follows what is stored, and the snapshot and delta
 * fields are dropped. Idempotent: revisions that have a tree are skipped, so instances that start
 * together, or a run interrupted halfway, converge.
 *
 * @returns the number of revisions converted.
 */
export async function migrateRevisions(world: World, batchSize = 50): Promise<number> {
  // Once every revision has its tree, a marker says so, and later opens read one record.
  if (await world.storage.read((tx) => tx.get(contentMigrationsTable, TREES))) return 0;
  const pending: string[] = [];
  let after: IndexValue[] | undefined;
  for (;;) {
    const page = await world.storage.read((tx) =>
      tx.list(revisionsTable, { index: "bySpace", limit: 500, ...(after ? { after } : {}) }),
    );
    for (const record of page) if (!record.tree) pending.push(record.id);
    const last = page.at(-1);
    if (page.length < 500 || !last) break;
    after = [last.space, last.seq, last.id];
  }
  for (let start = 0; start < pending.length; start += batchSize) {
    const batch = pending.slice(start, start + batchSize);
    await world.storage.write(async (tx) => {
      for (const id of batch) await migrateOne(tx, world, id);
    });
  }
  for (const id of pending) world.cache.delete(`revision:${id}`);
  await world.storage.write((tx) =>
    tx.put(contentMigrationsTable, { id: TREES, at: world.clock().toISOString(), revisions: pending.length }),
  );
  return pending.length;
}

const TREES = "content-trees";

/** Content migrations done on this storage, by name (`content-trees`: every revision has a tree). */
export const contentMigrationsTable = defineTable({
  name: "contentMigrations",
  key: "id",
  indexes: {},
  record: z.object({ id: z.string(), at: z.string(), revisions: z.number() }),
});

async function migrateOne(tx: WriteTransaction, world: World, id: string): Promise<RevisionTree> {
  const record = await tx.get(revisionsTable, id);
  if (!record) throw new Error(`Revision ${id} is missing`);
  if (record.tree) return record.tree;
  let base: Revision | null = null;
  let changes: ContentChanges;
  if (record.base && record.delta) {
    const baseRecord = (await tx.get(revisionsTable, record.base)) as RevisionRecord;
    const tree = await migrateOne(tx, world, record.base);
    base = new Revision(tx, world, { ...baseRecord, tree });
    changes = await versionsOf(tx, record.delta);
  } else {
    changes = await versionsOf(tx, record.snapshot ?? { pages: {}, files: {} });
  }
  const tree = await applyChanges(tx, world, base, changes);
  const { snapshot: _snapshot, base: _base, delta: _delta, depth: _depth, ...rest } = record;
  await tx.put(revisionsTable, { ...rest, tree });
  return tree;
}

async function versionsOf(
  tx: WriteTransaction,
  map: { pages: Record<string, string | null>; files: Record<string, string | null> },
): Promise<ContentChanges> {
  const load = async <R extends PageVersionRecord | FileVersionRecord>(
    table: Table<R>,
    entries: Record<string, string | null>,
  ) =>
    new Map(
      await Promise.all(
        Object.entries(entries).map(async ([id, version]) => {
          if (version === null) return [id, null] as const;
          const record = await tx.get(table, version);
          if (!record) throw new Error(`Missing ${table.name} record ${version}`);
          return [id, record] as const;
        }),
      ),
    );
  return {
    pages: await load<PageVersionRecord>(pageVersionsTable, map.pages),
    files: await load<FileVersionRecord>(fileVersionsTable, map.files),
  };
}
