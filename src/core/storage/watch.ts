import type { ListQuery, Storage, Table, TableSchema, WriteTransaction } from "./port.js";

/** The primary keys a committed write transaction put or deleted, by table name (watched tables only). */
export type WrittenKeys = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * The same storage, telling `onCommit` which keys of the `watched` tables each write transaction
 * put or deleted, once it committed: what an in-memory cache of those records (the token cache)
 * needs to drop what this instance changed, at once. Writes by other instances, or straight to the
 * storage underneath, are not seen: such a cache also needs a short lifetime.
 *
 * `onCommit` runs after the commit and before `write` resolves, so the caller that wrote reads its
 * own write next. Keys of every run of a body are reported (a PostgreSQL retry may write other
 * keys than the run that failed): reporting too many costs a cache miss, too few a stale answer.
 * A transaction that fails reports nothing, since nothing it wrote stays.
 *
 * @example
 * ```ts
 * const storage = watchWrites(memoryStorage(), [tokensTable], (written) => {
 *   for (const hash of written.get(tokensTable.name) ?? []) cache.delete(hash);
 * });
 * ```
 */
export function watchWrites(
  storage: Storage,
  watched: readonly TableSchema[],
  onCommit: (written: WrittenKeys) => void,
): Storage {
  const names = new Set(watched.map((table) => table.name));
  return {
    init: (schema) => storage.init(schema),
    read: (fn) => storage.read(fn),
    async write(fn) {
      const written = new Map<string, Set<string>>();
      const result = await storage.write((tx) => fn(new RecordingTransaction(tx, names, written)));
      if (written.size > 0) onCommit(written);
      return result;
    },
    close: () => storage.close(),
  };
}

/** A write transaction that notes the keys its body writes to the watched tables. */
class RecordingTransaction implements WriteTransaction {
  constructor(
    private readonly tx: WriteTransaction,
    private readonly names: ReadonlySet<string>,
    private readonly written: Map<string, Set<string>>,
  ) {}

  get<R extends object>(table: Table<R>, key: string) {
    return this.tx.get(table, key);
  }
  list<R extends object>(table: Table<R>, query: ListQuery) {
    return this.tx.list(table, query);
  }
  count(table: Table<object>, query: Pick<ListQuery, "index" | "where">) {
    return this.tx.count(table, query);
  }
  put<R extends object>(table: Table<R>, record: R) {
    const key = (record as Record<string, unknown>)[table.key];
    if (typeof key === "string") this.#note(table, key);
    return this.tx.put(table, record);
  }
  delete(table: Table<object>, key: string) {
    this.#note(table, key);
    return this.tx.delete(table, key);
  }

  #note(table: TableSchema, key: string) {
    if (!this.names.has(table.name)) return;
    const keys = this.written.get(table.name);
    if (keys) keys.add(key);
    else this.written.set(table.name, new Set([key]));
  }
}
