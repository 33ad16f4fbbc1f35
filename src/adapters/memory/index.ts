import {
  createStorage,
  Mutex,
  type BufferedTransaction,
  type Storage,
  type StoredRecord,
  type TableSchema,
} from "../../core/storage/index.js";
import { SortedIndex } from "./sorted-index.js";

/** One table: its committed rows by primary key, and each declared index kept sorted. */
interface MemoryTable {
  readonly rows: Map<string, StoredRecord>;
  readonly indexes: Map<string, SortedIndex>;
}

/**
 * Storage in a JavaScript `Map`, for tests, demos and short-lived processes. Nothing survives the
 * process. Records are kept deeply frozen and reads hand them out without copying: a caller that
 * mutates one gets a `TypeError`, and what is stored never changes. Transactions run one at a time; a write transaction's changes wait in the kit's overlay
 * and are applied in one synchronous step when its body resolves, so a failing body leaves nothing
 * behind.
 *
 * Each declared index keeps the committed rows' tuples sorted, so a list is a binary search and a
 * walk, also in a write transaction that has written to the table (the kit merges its pending
 * writes into the committed range).
 *
 * @example
 * ```ts
 * import { createDocsbase } from "docsbase";
 * import { memoryStorage } from "docsbase/adapters/memory";
 * const docsbase = createDocsbase({ storage: memoryStorage() });
 * ```
 */
export function memoryStorage(): Storage {
  const tables = new Map<string, MemoryTable>();
  const lock = new Mutex();
  // The kit only passes tables that `init` has created.
  const table = (schema: TableSchema) => tables.get(schema.name) as MemoryTable;
  const index = (schema: TableSchema, name: string) => table(schema).indexes.get(name) as SortedIndex;

  // Stateless: one object serves every transaction, since the lock lets only one run at a time.
  const transaction: BufferedTransaction = {
    // Rows are the kit's frozen JSON copies (see `BufferedOperations.put`): handed out as they are.
    async get(schema, key) {
      return table(schema).rows.get(key);
    },
    async list(schema, query) {
      const { rows } = table(schema);
      const keys = index(schema, query.index).keys(
        query.where,
        query.after,
        query.reverse,
        query.limit ?? Infinity,
      );
      return keys.map((key) => rows.get(key) as StoredRecord);
    },
    async count(schema, range) {
      return index(schema, range.index).count(range.where);
    },
    async apply(writes) {
      for (const { table: schema, records } of writes) {
        const { rows, indexes } = table(schema);
        for (const [key, record] of records) {
          const before = rows.get(key);
          for (const sorted of indexes.values()) sorted.update(before, record ?? undefined);
          if (record) rows.set(key, record);
          else rows.delete(key);
        }
      }
    },
  };

  return createStorage({
    writes: "buffered",
    async init(schema) {
      for (const definition of schema.tables) {
        const rows = tables.get(definition.name)?.rows ?? new Map<string, StoredRecord>();
        const indexes = new Map<string, SortedIndex>();
        for (const [name, fields] of Object.entries(definition.indexes)) {
          const sorted = new SortedIndex(fields, definition.key);
          for (const record of rows.values()) sorted.update(undefined, record);
          indexes.set(name, sorted);
        }
        tables.set(definition.name, { rows, indexes });
      }
    },
    transaction: (_mode, body) => lock.run(() => body(transaction)),
    async close() {},
  });
}
