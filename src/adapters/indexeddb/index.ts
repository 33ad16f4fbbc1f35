import {
  checkQuery,
  indexTuple,
  Mutex,
  type ListQuery,
  type ReadTransaction,
  type Storage,
  type StorageSchema,
  type StoredRecord,
  type TableSchema,
  type WriteTransaction,
} from "../../core/storage/index.js";
import type { IDBPObjectStore } from "idb";
import {
  checkSchema,
  META,
  open,
  plan,
  readLayout,
  toEntry,
  type Database,
  type Entry,
  type Layout,
} from "./schema.js";
import { hasPrefix, keyRange, merge, pendingRows, type Pending, type Row } from "./query.js";

/** Options of {@link indexedDbStorage}. */
export interface IndexedDbStorageOptions {
  /** The database name. Storages on one name share its data and serialize their transactions. */
  name: string;
  /**
   * The factory to open it with. Default: `globalThis.indexedDB`. idb recognises requests by the
   * global IndexedDB classes, so a factory given here must come from the same implementation
   * (for example `new IDBFactory()` from fake-indexeddb once `fake-indexeddb/auto` is loaded).
   */
  indexedDB?: IDBFactory;
}

/** The part of the Web Locks API the adapter uses. */
interface LockManagerLike {
  request<T>(name: string, options: { mode: "shared" | "exclusive" }, callback: () => Promise<T>): Promise<T>;
}

/** One lock per factory and database name, so storages of one realm queue here. */
const realmLocks = new WeakMap<IDBFactory, Map<string, Mutex>>();

function lockFor(factory: IDBFactory, name: string): Mutex {
  const byName = realmLocks.get(factory) ?? new Map<string, Mutex>();
  realmLocks.set(factory, byName);
  const lock = byName.get(name) ?? new Mutex();
  byName.set(name, lock);
  return lock;
}

/**
 * Storage in an IndexedDB database, for browsers, service workers and other runtimes with
 * IndexedDB. Each table is an object store; each declared index is a native index, so `list`
 * and `count` are key-range scans.
 *
 * A native transaction commits as soon as it is left without a pending request, and transaction
 * bodies may await other promises (Web Crypto digests, for one). So a body never holds a native
 * transaction across its own awaits:
 * - each `get`, `list` and `count` runs in its own short read-only native transaction;
 * - a write body's `put` and `delete` are buffered, and its reads see them (read-your-writes);
 * - when the body resolves, its buffered writes are applied in one native read-write
 *   transaction, so they become visible together; when it throws, nothing is applied.
 * Consistency then comes from locking instead: transactions run one at a time per database name
 * within a JavaScript realm, and across tabs and workers under a Web Lock named
 * `docsbase:<name>` (shared for reads, exclusive for writes) where `navigator.locks` exists.
 * Every commit also increments a counter that reads compare, so a writer that ignores the lock
 * makes the overlapping transaction fail instead of silently breaking isolation.
 *
 * `init` adds missing stores and indexes through a version upgrade; connections close themselves
 * when another tab upgrades and reopen on their next transaction.
 *
 * @example
 * ```ts
 * import { createDocsbase } from "docsbase";
 * import { indexedDbStorage } from "docsbase/adapters/indexeddb";
 * const docsbase = createDocsbase({ storage: indexedDbStorage({ name: "docsbase" }) });
 * ```
 */
export function indexedDbStorage(options: IndexedDbStorageOptions): Storage {
  const factory = options.indexedDB ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  if (!factory) throw new Error("IndexedDB is not available here: pass options.indexedDB");
  const { name } = options;
  const lock = lockFor(factory, name);
  const webLocks = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
  const tables = new Map<string, TableSchema>();
  let layout: Layout = {};
  let connection: Database | undefined;
  let closed = false;

  const forget = (db: Database) => {
    if (connection === db) connection = undefined;
  };
  const connect = async (): Promise<Database> => {
    if (connection) return connection;
    const db = await open(factory, name, { onClose: forget });
    layout = await readLayout(db);
    return (connection = db);
  };
  const ensureOpen = () => {
    if (closed) throw new Error("Storage is closed");
  };
  /** Serializes with this realm's transactions on the database, then with other realms'. */
  const locked = <T>(mode: "shared" | "exclusive", fn: () => Promise<T>): Promise<T> =>
    lock.run(() => (webLocks ? webLocks.request(`docsbase:${name}`, { mode }, fn) : fn()));
  const conflict = () =>
    new Error(
      `IndexedDB database "${name}" changed during a transaction: another connection wrote to it ` +
        `without holding the "docsbase:${name}" Web Lock`,
    );

  /** The state of one transaction body: whether it may still be used, and the commit counter it saw. */
  interface Body {
    active: boolean;
    version?: number;
  }

  /** Runs `work` in one short read-only native transaction, awaiting only IndexedDB requests. */
  async function native<R>(
    body: Body,
    table: string,
    work: (store: IDBPObjectStore<unknown, string[], string, "readonly">) => Promise<R>,
  ): Promise<R> {
    const tx = (await connect()).transaction([table, META], "readonly");
    tx.done.catch(() => undefined);
    const stamp = (await tx.objectStore(META).get("version")) as { value: number } | undefined;
    const version = stamp?.value ?? 0;
    if (body.version !== undefined && body.version !== version) throw conflict();
    body.version = version;
    return work(tx.objectStore(table));
  }

  function transaction(body: Body, pending: Pending | undefined): WriteTransaction {
    const use = (table: string) => {
      if (!body.active) throw new Error("The transaction has already finished");
      const schema = tables.get(table);
      if (!schema) throw new Error(`Unknown table "${table}"`);
      return schema;
    };
    const writable = (table: string) => {
      if (!pending) throw new Error("Writes need a write transaction");
      const schema = use(table);
      const overlay = pending.get(table) ?? new Map<string, StoredRecord | null>();
      pending.set(table, overlay);
      return { schema, overlay };
    };
    return {
      async get<T extends StoredRecord>(table: string, key: string) {
        use(table);
        const overlay = pending?.get(table);
        if (overlay?.has(key)) {
          const record = overlay.get(key);
          return record ? (structuredClone(record) as T) : undefined;
        }
        const entry = (await native(body, table, (store) => store.get(key))) as Entry | undefined;
        return entry?.record as T | undefined;
      },
      async list<T extends StoredRecord>(table: string, query: ListQuery) {
        const schema = use(table);
        const fields = checkQuery(schema, query);
        if (query.limit === 0) return [];
        const overlay = pending?.get(table);
        // At most one stored row per pending key is replaced, so this many stored rows always suffice.
        const wanted = query.limit === undefined ? undefined : query.limit + (overlay?.size ?? 0);
        const range = keyRange(query);
        const entries = await native(body, table, async (store) => {
          const index = store.index(query.index);
          if (!query.reverse) return (await index.getAll(range, wanted)) as Entry[];
          const found: Entry[] = [];
          let cursor = await index.openCursor(range, "prev");
          while (cursor && (wanted === undefined || found.length < wanted)) {
            found.push(cursor.value as Entry);
            cursor = await cursor.continue();
          }
          return found;
        });
        const stored = entries
          .filter((entry) => !overlay?.has(entry.key))
          .map((entry): Row => ({ tuple: entry.index[query.index] ?? [], record: entry.record }));
        const rows = overlay
          ? merge(stored, pendingRows(overlay, schema, fields, query), !!query.reverse)
          : stored;
        const limited = query.limit === undefined ? rows : rows.slice(0, query.limit);
        return limited.map((row) => row.record as T);
      },
      async count(table, query) {
        const schema = use(table);
        const fields = checkQuery(schema, { index: query.index, where: query.where });
        const where = query.where ?? [];
        const overlay = pending?.get(table);
        return native(body, table, async (store) => {
          let count = await store.index(query.index).count(keyRange({ where }));
          for (const [key, record] of overlay ?? []) {
            const entry = (await store.get(key)) as Entry | undefined;
            if (hasPrefix(entry?.index[query.index], where)) count--;
            if (record && hasPrefix(indexTuple(record, fields, schema.key), where)) count++;
          }
          return count;
        });
      },
      async put(table, record) {
        const { schema, overlay } = writable(table);
        const key = record?.[schema.key];
        if (typeof key !== "string") throw new Error(`Record of "${table}" lacks string key "${schema.key}"`);
        // A JSON round trip both copies the record and keeps only what a JSON store would keep.
        overlay.set(key, JSON.parse(JSON.stringify(record)) as StoredRecord);
      },
      async delete(table, key) {
        const { overlay } = writable(table);
        const existed = overlay.has(key)
          ? overlay.get(key) !== null
          : (await native(body, table, (store) => store.count(key))) > 0;
        overlay.set(key, null);
        return existed;
      },
    };
  }

  /** Applies a body's pending writes in one native read-write transaction. */
  async function commit(body: Body, pending: Pending): Promise<void> {
    const changed = [...pending].filter(([, overlay]) => overlay.size > 0);
    if (changed.length === 0) return;
    const tx = (await connect()).transaction([...changed.map(([table]) => table), META], "readwrite");
    const requests: Promise<unknown>[] = [];
    try {
      const meta = tx.objectStore(META);
      const version = ((await meta.get("version")) as { value: number } | undefined)?.value ?? 0;
      if (body.version !== undefined && body.version !== version) throw conflict();
      for (const [table, overlay] of changed) {
        const store = tx.objectStore(table);
        const shape = layout[table] ?? (tables.get(table) as TableSchema);
        for (const [key, record] of overlay) {
          requests.push(record ? store.put(toEntry(shape, record)) : store.delete(key));
        }
      }
      requests.push(meta.put({ key: "version", value: version + 1 }));
    } catch (error) {
      for (const request of [...requests, tx.done]) request.catch(() => undefined);
      try {
        tx.abort();
      } catch {
        // Already aborted by the failed request.
      }
      throw error;
    }
    await Promise.all([...requests, tx.done]);
  }

  function run<T>(writable: boolean, fn: (tx: WriteTransaction) => Promise<T>): Promise<T> {
    return locked(writable ? "exclusive" : "shared", async () => {
      ensureOpen();
      const body: Body = { active: true };
      const pending: Pending | undefined = writable ? new Map() : undefined;
      try {
        const result = await fn(transaction(body, pending));
        body.active = false;
        if (pending) await commit(body, pending);
        return result;
      } finally {
        body.active = false;
      }
    });
  }

  return {
    async init(schema: StorageSchema) {
      checkSchema(schema);
      return locked("exclusive", async () => {
        ensureOpen();
        let db = await connect();
        // Another connection may upgrade between our check and our open: check again after each open.
        for (let attempt = 0; plan(db, layout, schema).upgrade; attempt++) {
          if (attempt === 5) throw new Error(`Could not upgrade IndexedDB database "${name}"`);
          const version = db.version + 1;
          db.close();
          forget(db);
          db = await open(factory, name, { version, schema, onClose: forget }).catch((error: unknown) => {
            if ((error as { name?: unknown })?.name !== "VersionError") throw error;
            return open(factory, name, { onClose: forget });
          });
          layout = await readLayout(db);
          connection = db;
        }
        for (const table of schema.tables) tables.set(table.name, table);
      });
    },
    read<T>(fn: (tx: ReadTransaction) => Promise<T>) {
      return run(false, fn);
    },
    write<T>(fn: (tx: WriteTransaction) => Promise<T>) {
      return run(true, fn);
    },
    async close() {
      await lock.run(async () => {
        closed = true;
        connection?.close();
        connection = undefined;
      });
    },
  };
}
