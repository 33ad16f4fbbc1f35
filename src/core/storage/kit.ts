import type { StorageEngine } from "./engine.js";
import { PendingWrites } from "./overlay.js";
import type { Storage, StorageSchema, TableSchema, WriteTransaction } from "./port.js";
import { checkSchemaNames } from "./schema.js";
import { BufferedOperations, DirectOperations, TransactionView } from "./view.js";

/**
 * Builds a `Storage` from an engine: the part of an adapter that talks to its database. The kit
 * does the rest, once for every adapter:
 * - `init` refuses a schema whose table, index or field names some adapter cannot store
 *   (`checkSchemaNames`, `schema.ts`), before the engine sees it;
 * - tables are looked up by name among those given to `init` (an unknown one is an error);
 * - a call after `close()` fails with "Storage is closed", and `close()` waits for the
 *   transactions already started, then closes the engine;
 * - a transaction used after its body settled fails with "The transaction has already finished";
 * - `put` needs a write transaction and a string primary key;
 * - records are copied through JSON on `put` (so a stored record is what a JSON store keeps); a
 *   buffered engine's pending copies are deeply frozen, so reads hand them out without copying
 *   (see "read-only" in `port.ts`);
 * - queries are checked against their index (`checkQuery`), and `limit: 0` answers `[]`;
 * - for a buffered engine, a write body's puts and deletes wait in an overlay that its reads
 *   merge in, and reach the engine in one `apply` when the body resolves.
 *
 * @example
 * ```ts
 * // A direct engine over a hypothetical promise-based SQL client `db`.
 * const lock = new Mutex();
 * const storage = createStorage({
 *   writes: "direct",
 *   init: (schema) => createTables(db, schema),
 *   transaction: (mode, body) =>
 *     lock.run(async () => {
 *       await db.exec(mode === "write" ? "BEGIN IMMEDIATE" : "BEGIN");
 *       try {
 *         const result = await body(sqlTransaction(db)); // get, list, count, put, delete
 *         await db.exec("COMMIT");
 *         return result;
 *       } catch (error) {
 *         await db.exec("ROLLBACK");
 *         throw error;
 *       }
 *     }),
 *   close: () => db.close(),
 * });
 * ```
 */
export function createStorage(engine: StorageEngine): Storage {
  const tables = new Map<string, TableSchema>();
  const running = new Set<Promise<unknown>>();
  let closing: Promise<void> | undefined;

  /** Starts `work` unless the storage is closing, and remembers it until it settles. */
  function track<T>(work: () => Promise<T>): Promise<T> {
    if (closing) return Promise.reject(new Error("Storage is closed"));
    let promise: Promise<T>;
    try {
      promise = work();
    } catch (error) {
      promise = Promise.reject(error);
    }
    running.add(promise);
    promise.then(
      () => running.delete(promise),
      () => running.delete(promise),
    );
    return promise;
  }

  function run<T>(mode: "read" | "write", fn: (tx: WriteTransaction) => Promise<T>): Promise<T> {
    const writable = mode === "write";
    return track(() => {
      if (engine.writes === "direct") {
        return engine.transaction(mode, async (tx) => {
          const view = new TransactionView(tables, new DirectOperations(tx), writable);
          try {
            return await fn(view);
          } finally {
            view.end();
          }
        });
      }
      return engine.transaction(mode, async (tx) => {
        const pending = new PendingWrites();
        const view = new TransactionView(tables, new BufferedOperations(tx, pending), writable);
        let result: T;
        try {
          result = await fn(view);
        } finally {
          view.end();
        }
        const writes = pending.writes();
        if (writes.length > 0) await tx.apply(writes);
        return result;
      });
    });
  }

  return {
    init(schema: StorageSchema) {
      return track(async () => {
        checkSchemaNames(schema, tables.keys());
        await engine.init(schema);
        for (const table of schema.tables) tables.set(table.name, table);
      });
    },
    read: (fn) => run("read", fn),
    write: (fn) => run("write", fn),
    close() {
      closing ??= Promise.allSettled([...running]).then(() => engine.close());
      return closing;
    },
  };
}
