/**
 * `docsbase/adapters/indexeddb`: {@link indexedDbStorage}, storage in the runtime's IndexedDB
 * (browsers, service workers, web workers), one object store per table; transactions serialize
 * per database name, across tabs and workers.
 *
 * @module
 */
import type { IDBPObjectStore } from "idb";
import {
  createStorage,
  Mutex,
  type BufferedTransaction,
  type Storage,
  type TableWrites,
} from "../../core/storage/index.js";
import { keyRange } from "./query.js";
import { META, open, plan, readLayout, toEntry, type Database, type Entry, type Layout } from "./schema.js";

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

/** The commit counter a transaction first read; every later native transaction must see the same. */
interface Seen {
  version?: number;
}

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
 * - a write body's `put` and `delete` wait in the storage kit's overlay, which its reads merge in
 *   (read-your-writes); this is a buffered engine (see `src/core/storage/engine.ts`);
 * - when the body resolves, its writes are applied in one native read-write transaction, so they
 *   become visible together; when it throws, nothing is applied.
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
  let layout: Layout = {};
  let connection: Database | undefined;

  const forget = (db: Database) => {
    if (connection === db) connection = undefined;
  };
  const connect = async (): Promise<Database> => {
    if (connection) return connection;
    const db = await open(factory, name, { onClose: forget });
    layout = await readLayout(db);
    return (connection = db);
  };
  /** Serializes with this realm's transactions on the database, then with other realms'. */
  const locked = <T>(mode: "shared" | "exclusive", fn: () => Promise<T>): Promise<T> =>
    lock.run(() => (webLocks ? webLocks.request(`docsbase:${name}`, { mode }, fn) : fn()));
  const conflict = () =>
    new Error(
      `IndexedDB database "${name}" changed during a transaction: another connection wrote to it ` +
        `without holding the "docsbase:${name}" Web Lock`,
    );

  /** Runs `work` in one short read-only native transaction, awaiting only IndexedDB requests. */
  async function native<R>(
    seen: Seen,
    table: string,
    work: (store: IDBPObjectStore<unknown, string[], string, "readonly">) => Promise<R>,
  ): Promise<R> {
    const tx = (await connect()).transaction([table, META], "readonly");
    tx.done.catch(() => undefined);
    const stamp = (await tx.objectStore(META).get("version")) as { value: number } | undefined;
    const version = stamp?.value ?? 0;
    if (seen.version !== undefined && seen.version !== version) throw conflict();
    seen.version = version;
    return work(tx.objectStore(table));
  }

  /** One engine transaction: committed reads, each its own native transaction, and the commit. */
  function transaction(): BufferedTransaction {
    const seen: Seen = {};
    return {
      async get(table, key) {
        const entry = (await native(seen, table.name, (store) => store.get(key))) as Entry | undefined;
        return entry?.record;
      },
      async list(table, query) {
        const range = keyRange(query);
        const entries = await native(seen, table.name, async (store) => {
          const index = store.index(query.index);
          if (!query.reverse) return (await index.getAll(range, query.limit)) as Entry[];
          const found: Entry[] = [];
          let cursor = await index.openCursor(range, "prev");
          while (cursor && (query.limit === undefined || found.length < query.limit)) {
            found.push(cursor.value as Entry);
            cursor = await cursor.continue();
          }
          return found;
        });
        return entries.map((entry) => entry.record);
      },
      count(table, range) {
        return native(seen, table.name, (store) => store.index(range.index).count(keyRange(range)));
      },
      apply: (writes) => commit(seen, writes),
    };
  }

  /** Applies a body's writes in one native read-write transaction. */
  async function commit(seen: Seen, writes: readonly TableWrites[]): Promise<void> {
    const tx = (await connect()).transaction([...writes.map(({ table }) => table.name), META], "readwrite");
    const requests: Promise<unknown>[] = [];
    try {
      const meta = tx.objectStore(META);
      const version = ((await meta.get("version")) as { value: number } | undefined)?.value ?? 0;
      if (seen.version !== undefined && seen.version !== version) throw conflict();
      for (const { table, records } of writes) {
        const store = tx.objectStore(table.name);
        const shape = layout[table.name] ?? table;
        for (const [key, record] of records) {
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

  return createStorage({
    writes: "buffered",
    async init(schema) {
      return locked("exclusive", async () => {
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
      });
    },
    transaction: (mode, body) => locked(mode === "write" ? "exclusive" : "shared", () => body(transaction())),
    async close() {
      connection?.close();
      connection = undefined;
    },
  });
}
