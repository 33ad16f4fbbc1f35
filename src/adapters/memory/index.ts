import {
  checkQuery,
  compareTuples,
  indexTuple,
  Mutex,
  type IndexValue,
  type ListQuery,
  type ReadTransaction,
  type Storage,
  type StorageSchema,
  type StoredRecord,
  type TableSchema,
  type WriteTransaction,
} from "../../core/storage/index.js";
import { SortedIndex } from "./sorted-index.js";

/**
 * Storage in a JavaScript `Map`, for tests, demos and short-lived processes. Nothing survives the
 * process. Transactions run one at a time; a write transaction buffers its writes and applies them
 * in one synchronous step when its body resolves, so a failing body leaves nothing behind.
 *
 * Each declared index keeps the committed rows' tuples sorted, so a list is a binary search and
 * a walk. A transaction that has written to a table and then lists it scans that table instead,
 * merging its pending writes: simple, and rare enough not to matter.
 *
 * @example
 * ```ts
 * import { createDocsbase } from "docsbase";
 * import { memoryStorage } from "docsbase/adapters/memory";
 * const docsbase = createDocsbase({ storage: memoryStorage() });
 * ```
 */
export function memoryStorage(): Storage {
  const tables = new Map<
    string,
    { schema: TableSchema; rows: Map<string, StoredRecord>; indexes: Map<string, SortedIndex> }
  >();
  const lock = new Mutex();
  let closed = false;

  const table = (name: string) => {
    const found = tables.get(name);
    if (!found) throw new Error(`Unknown table "${name}"`);
    return found;
  };
  const ensureOpen = () => {
    if (closed) throw new Error("Storage is closed");
  };

  /** A transaction view: committed rows overlaid with this transaction's pending writes. */
  function transaction(pending?: Map<string, Map<string, StoredRecord | null>>): WriteTransaction {
    const lookup = (name: string, key: string): StoredRecord | undefined => {
      const overlay = pending?.get(name);
      if (overlay?.has(key)) return overlay.get(key) ?? undefined;
      return table(name).rows.get(key);
    };
    const scan = (name: string, query: Pick<ListQuery, "index" | "where" | "after" | "reverse">) => {
      const { schema, rows } = table(name);
      const fields = checkQuery(schema, query);
      const where = query.where ?? [];
      const keys = new Set(rows.keys());
      for (const key of pending?.get(name)?.keys() ?? []) keys.add(key);
      const matches: { tuple: IndexValue[]; record: StoredRecord }[] = [];
      for (const key of keys) {
        const record = lookup(name, key);
        if (!record) continue;
        const tuple = indexTuple(record, fields, schema.key);
        if (!tuple || where.some((value, i) => tuple[i] !== value)) continue;
        matches.push({ tuple: tuple.slice(where.length), record });
      }
      matches.sort((a, b) => compareTuples(a.tuple, b.tuple) * (query.reverse ? -1 : 1));
      if (!query.after) return matches;
      const after = query.after;
      return matches.filter(({ tuple }) => compareTuples(tuple, after) * (query.reverse ? -1 : 1) > 0);
    };
    return {
      async get<T extends StoredRecord>(name: string, key: string) {
        const record = lookup(name, key);
        return record === undefined ? undefined : (structuredClone(record) as T);
      },
      async list<T extends StoredRecord>(name: string, query: ListQuery) {
        const { schema, rows, indexes } = table(name);
        if (!pending?.get(name)?.size) {
          checkQuery(schema, query);
          const keys = indexes
            .get(query.index)!
            .keys(query.where ?? [], query.after, !!query.reverse, query.limit ?? Infinity);
          return keys.map((key) => structuredClone(rows.get(key)) as T);
        }
        const matches = scan(name, query);
        const limited = query.limit === undefined ? matches : matches.slice(0, query.limit);
        return limited.map(({ record }) => structuredClone(record) as T);
      },
      async count(name, query) {
        const { schema, indexes } = table(name);
        if (!pending?.get(name)?.size) {
          checkQuery(schema, query);
          return indexes.get(query.index)!.count(query.where ?? []);
        }
        // `count` ignores `after`, `limit` and `reverse` (see the port), whatever the caller passes.
        return scan(name, { index: query.index, ...(query.where ? { where: query.where } : {}) }).length;
      },
      async put(name, record) {
        if (!pending) throw new Error("put() needs a write transaction");
        const { schema } = table(name);
        const key = record[schema.key];
        if (typeof key !== "string") throw new Error(`Record of "${name}" lacks string key "${schema.key}"`);
        // A JSON round trip both copies the record and keeps only what a JSON store would keep.
        const overlay = pending.get(name) ?? new Map<string, StoredRecord | null>();
        overlay.set(key, JSON.parse(JSON.stringify(record)) as StoredRecord);
        pending.set(name, overlay);
      },
      async delete(name, key) {
        if (!pending) throw new Error("delete() needs a write transaction");
        const existed = lookup(name, key) !== undefined;
        const overlay = pending.get(name) ?? new Map<string, StoredRecord | null>();
        overlay.set(key, null);
        pending.set(name, overlay);
        return existed;
      },
    };
  }

  return {
    async init(schema: StorageSchema) {
      ensureOpen();
      for (const definition of schema.tables) {
        const rows = tables.get(definition.name)?.rows ?? new Map<string, StoredRecord>();
        const indexes = new Map<string, SortedIndex>();
        for (const [index, fields] of Object.entries(definition.indexes)) {
          const sorted = new SortedIndex(fields, definition.key);
          for (const record of rows.values()) sorted.update(undefined, record);
          indexes.set(index, sorted);
        }
        tables.set(definition.name, { schema: definition, rows, indexes });
      }
    },
    read<T>(fn: (tx: ReadTransaction) => Promise<T>) {
      return lock.run(async () => {
        ensureOpen();
        return fn(transaction());
      });
    },
    write<T>(fn: (tx: WriteTransaction) => Promise<T>) {
      return lock.run(async () => {
        ensureOpen();
        const pending = new Map<string, Map<string, StoredRecord | null>>();
        const result = await fn(transaction(pending));
        for (const [name, overlay] of pending) {
          const { rows, indexes } = table(name);
          for (const [key, record] of overlay) {
            const before = rows.get(key);
            for (const index of indexes.values()) index.update(before, record ?? undefined);
            if (record) rows.set(key, record);
            else rows.delete(key);
          }
        }
        return result;
      });
    },
    async close() {
      await lock.run(async () => {
        closed = true;
      });
    },
  };
}
