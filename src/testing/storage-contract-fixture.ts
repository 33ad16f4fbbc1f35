import type { IndexValue, Storage, StorageSchema, StoredRecord, Table } from "../core/storage/index.js";

/** A record of the `items` table. Fields other than `id` may hold anything JSON. */
export interface Item extends StoredRecord {
  id: string;
  group?: unknown;
  rank?: unknown;
  name?: unknown;
}

/** A record of the `counters` table. */
export interface Counter extends StoredRecord {
  id: string;
  value: number;
}

/**
 * The tables the contract suite runs against: one with single- and multi-field indexes over string
 * and number fields, and one small table for counters.
 */
export const itemsTable: Table<Item> = {
  name: "items",
  key: "id",
  indexes: {
    byRank: ["rank"],
    byName: ["name"],
    byGroupRank: ["group", "rank"],
    byGroupName: ["group", "name"],
  },
};
export const countersTable: Table<Counter> = { name: "counters", key: "id", indexes: { byValue: ["value"] } };

/** The contract suite's table handles, for adapters' own tests. */
export const contractTables = { items: itemsTable, counters: countersTable };

/** The schema of {@link contractTables}, which every contract test's storage is initialised with. */
export const contractSchema: StorageSchema = { tables: [itemsTable, countersTable] };

/** What each contract test gets: the storage under test, opened and initialised. */
export interface ContractContext {
  readonly storage: Storage;
  /** Closes the storage; the suite then does not close it again after the test. */
  close(): Promise<void>;
}

/** Writes records in one transaction. */
export async function seed<R extends object>(
  storage: Storage,
  table: Table<R>,
  records: readonly R[],
): Promise<void> {
  await storage.write(async (tx) => {
    for (const record of records) await tx.put(table, record);
  });
}

/** The primary keys of records, in order. */
export const ids = (records: readonly StoredRecord[]): unknown[] => records.map((record) => record.id);

/** The `after` cursor of a record: its values for `fields` (the index fields past `where`), then its key. */
export const cursor = (record: StoredRecord, fields: readonly string[]): IndexValue[] =>
  [...fields, "id"].map((field) => record[field] as IndexValue);

/** Lets other pending work run, so interleaving bugs get a chance to show. */
export const pause = (ms = 0): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Pages through `items` on an index with `limit`-sized pages, following `after` cursors. */
export async function pageAll(
  storage: Storage,
  query: { index: string; fields: readonly string[]; where?: IndexValue[]; reverse?: boolean; limit: number },
): Promise<Item[]> {
  const seen: Item[] = [];
  let after: IndexValue[] | undefined;
  for (let pages = 0; pages < 1000; pages++) {
    const page = await storage.read((tx) =>
      tx.list(itemsTable, {
        index: query.index,
        where: query.where,
        reverse: query.reverse,
        limit: query.limit,
        after,
      }),
    );
    seen.push(...page);
    const last = page.at(-1);
    if (page.length < query.limit || !last) return seen;
    after = cursor(last, query.fields);
  }
  throw new Error("Paging did not terminate: the cursor does not move forward");
}
