/**
 * `docsbase/adapters/memory`: {@link memoryStorage}, storage held in memory (a map per table, a
 * sorted index per declared index), with snapshots and restores. Runs on every runtime; nothing
 * outlives the process.
 *
 * @module
 */
import {
  createStorage,
  Mutex,
  type BufferedTransaction,
  type Storage,
  type TableSchema,
} from "../../core/storage/index.js";
import { Rows } from "./rows.js";
import { SortedIndex } from "./sorted-index.js";

/**
 * One table: its committed rows by primary key, and each declared index kept sorted. `owner` is
 * the generation that made this object: only that generation changes it (see `writableTable`).
 */
interface MemoryTable {
  readonly owner: object;
  readonly rows: Rows;
  readonly indexes: ReadonlyMap<string, SortedIndex>;
  /** The key and index definitions the indexes were built for, to keep them across `init`. */
  readonly shape: string;
}

/** The tables of a snapshot, by snapshot: nothing outside this module reads them. */
const snapshots = new WeakMap<MemorySnapshot, ReadonlyMap<string, MemoryTable>>();

declare const memorySnapshot: unique symbol;

/**
 * The state of a memory storage at one moment (`storage.snapshot()`), for `storage.restore` or
 * `memoryStorage({ from })`. Opaque and never changed: it shares with the storage every row and
 * index chunk written neither since, which the storage copies before changing them.
 */
export interface MemorySnapshot {
  readonly [memorySnapshot]: true;
}

/** The memory storages made here, so that `isMemoryStorage` does not take a lookalike. */
const memoryStorages = new WeakSet<Storage>();

/** A storage in memory, with its snapshots. */
export interface MemoryStorage extends Storage {
  /**
   * The committed state now, taken between transactions (it waits for the one under way). Costs a
   * few pointers per table, whatever their size: the first write after it to a row or an index
   * copies the bucket of rows or the chunk of a few hundred index entries it changes.
   */
  snapshot(): Promise<MemorySnapshot>;
  /**
   * Makes the committed state that of `snapshot` (of this storage or another memory storage, of
   * the same schema), between transactions. The snapshot stays as it was: it can be restored again.
   */
  restore(snapshot: MemorySnapshot): Promise<void>;
}

export interface MemoryStorageOptions {
  /** Start from a snapshot (of any memory storage) instead of empty: a fork, sharing nothing mutable. */
  readonly from?: MemorySnapshot;
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
 * Snapshots are cheap: rows sit in buckets by key hash and index entries in chunks of a few
 * hundred, each owned by the generation that wrote it. `snapshot()` starts a new generation and
 * keeps the old one's tables as they are; a later write copies only the bucket or chunk it
 * changes. `restore(snapshot)` and `memoryStorage({ from: snapshot })` start from a snapshot's
 * tables in a generation of their own, so neither side ever sees the other's writes.
 *
 * @example
 * ```ts
 * import { createDocsbase } from "docsbase";
 * import { memoryStorage } from "docsbase/adapters/memory";
 * const storage = memoryStorage();
 * const docsbase = createDocsbase({ storage });
 * const before = await storage.snapshot();
 * // ... writes ...
 * await storage.restore(before); // as it was (caches of `docsbase` may still hold the writes)
 * const fork = memoryStorage({ from: before }); // an independent copy, for another instance
 * ```
 */
export function memoryStorage(options: MemoryStorageOptions = {}): MemoryStorage {
  let tables = new Map(options.from ? tablesOf(options.from) : undefined);
  // The generation now: a write copies what another generation made before changing it.
  let owner = {};
  const lock = new Mutex();
  // The kit only passes tables that `init` has created.
  const table = (schema: TableSchema) => tables.get(schema.name) as MemoryTable;
  const index = (schema: TableSchema, name: string) => table(schema).indexes.get(name) as SortedIndex;
  const writableTable = (schema: TableSchema): MemoryTable => {
    const current = table(schema);
    if (current.owner === owner) return current;
    const indexes = new Map([...current.indexes].map(([name, sorted]) => [name, sorted.writable(owner)]));
    const copy = { owner, rows: current.rows.writable(owner), indexes, shape: current.shape };
    tables.set(schema.name, copy);
    return copy;
  };

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
      return keys.map((key) => rows.get(key)!);
    },
    async count(schema, range) {
      return index(schema, range.index).count(range.where);
    },
    async apply(writes) {
      for (const { table: schema, records } of writes) {
        const { rows, indexes } = writableTable(schema);
        for (const [key, record] of records) {
          const before = rows.get(key);
          for (const sorted of indexes.values()) sorted.update(before, record ?? undefined);
          if (record) rows.set(key, record);
          else rows.delete(key);
        }
      }
    },
  };

  const storage = createStorage({
    writes: "buffered",
    async init(schema) {
      for (const definition of schema.tables) {
        const shape = JSON.stringify([definition.key, definition.indexes]);
        const existing = tables.get(definition.name);
        if (existing?.shape === shape) continue;
        const rows = existing?.rows.writable(owner) ?? new Rows(owner);
        const indexes = new Map<string, SortedIndex>();
        for (const [name, fields] of Object.entries(definition.indexes)) {
          const sorted = new SortedIndex(fields, definition.key, owner);
          for (const record of rows.values()) sorted.update(undefined, record);
          indexes.set(name, sorted);
        }
        tables.set(definition.name, { owner, rows, indexes, shape });
      }
    },
    transaction: (_mode, body) => lock.run(() => body(transaction)),
    async close() {},
  });
  const memory = Object.assign(storage, {
    snapshot: () =>
      lock.run(async () => {
        const snapshot = Object.freeze({}) as MemorySnapshot;
        snapshots.set(snapshot, new Map(tables));
        owner = {};
        return snapshot;
      }),
    restore: (snapshot: MemorySnapshot) =>
      lock.run(async () => {
        tables = new Map(tablesOf(snapshot));
        owner = {};
      }),
  });
  memoryStorages.add(memory);
  return memory;
}

/** Whether `storage` is a memory storage, which can snapshot. */
export function isMemoryStorage(storage: Storage): storage is MemoryStorage {
  return memoryStorages.has(storage);
}

function tablesOf(snapshot: MemorySnapshot): ReadonlyMap<string, MemoryTable> {
  const found = snapshots.get(snapshot);
  if (!found) throw new TypeError("Not a snapshot of a memory storage");
  return found;
}
