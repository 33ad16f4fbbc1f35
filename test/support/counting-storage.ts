import type { ReadTransaction, Storage, Table, WriteTransaction } from "../../src/core/storage/port.js";

/** Records and their JSON characters, per table name. */
export type TableCounts = Map<string, { records: number; chars: number }>;

/**
 * A storage over `inner` that counts, per table, the records its transactions read (`get`,
 * `list`) and write (`put`), and their JSON length: a test's measure of work that does not
 * depend on timing.
 */
export function countingStorage(inner: Storage) {
  const reads: TableCounts = new Map();
  const writes: TableCounts = new Map();
  const note = (counts: TableCounts, table: Table<object>, records: readonly object[]) => {
    const seen = counts.get(table.name) ?? { records: 0, chars: 0 };
    for (const record of records) {
      seen.records += 1;
      seen.chars += JSON.stringify(record).length;
    }
    counts.set(table.name, seen);
  };
  const counted = <T extends ReadTransaction>(tx: T): T =>
    Object.assign(Object.create(tx) as T, {
      get: async <R extends object>(table: Table<R>, key: string) => {
        const record = await tx.get(table, key);
        note(reads, table, record ? [record] : []);
        return record;
      },
      list: async <R extends object>(table: Table<R>, query: Parameters<ReadTransaction["list"]>[1]) => {
        const records = await tx.list(table, query);
        note(reads, table, records);
        return records;
      },
      count: (table: Table<object>, query: Parameters<ReadTransaction["count"]>[1]) => tx.count(table, query),
    });
  const storage: Storage = {
    init: (schema) => inner.init(schema),
    read: (fn) => inner.read((tx) => fn(counted(tx))),
    write: (fn) =>
      inner.write((tx) =>
        fn(
          Object.assign(counted(tx), {
            put: (table: Table<object>, record: object) => (
              note(writes, table, [record]),
              tx.put(table, record)
            ),
            delete: (table: Table<object>, key: string) => tx.delete(table, key),
          }) as WriteTransaction,
        ),
      ),
    close: () => inner.close(),
  };
  const sum = (counts: TableCounts) => [...counts.values()].reduce((total, { chars }) => total + chars, 0);
  return {
    storage,
    reads,
    writes,
    /** Forgets what was counted so far. */
    clear() {
      reads.clear();
      writes.clear();
    },
    /** The JSON characters of the records read so far. */
    readChars: () => sum(reads),
    /** The JSON characters of the records written so far. */
    writtenChars: () => sum(writes),
    /** Records of `table` read so far. */
    recordsRead: (table: string) => reads.get(table)?.records ?? 0,
  };
}
