/**
 * `docsbase/adapters/sqlite`: {@link sqliteStorage}, storage in one SQLite file, over
 * better-sqlite3 (Node, by `filename`) or any driver of the same shape you pass as `database`
 * (`bun:sqlite`, `node:sqlite`). Several processes can share the file.
 *
 * @module
 */
import {
  checkSchemaVersion,
  createStorage,
  META_TABLE,
  SCHEMA_VERSION,
  type DirectTransaction,
  type Storage,
} from "../../core/storage/index.js";
import {
  openBetterSqlite3,
  type OwnedSqliteDatabase,
  type SqliteDatabase,
  type SqliteStatement,
} from "./driver.js";
import { createTable, quote, remove, selectCount, selectDoc, selectList, upsert } from "./sql.js";
import { startCheckpointer, type Checkpointer } from "./checkpointer.js";
import { type Snapshot, TransactionQueue } from "./queue.js";
import { ABSENT, RecordCache } from "./record-cache.js";

export type { OwnedSqliteDatabase, SqliteDatabase, SqliteStatement, SqliteValue } from "./driver.js";

/**
 * Options of {@link sqliteStorage}: a database file to open with better-sqlite3 (Node), or an
 * open connection of any driver that fits {@link SqliteDatabase}, which the caller owns.
 */
export type SqliteStorageOptions = (
  | {
      filename: string;
      busyTimeoutMs?: number;
      /**
       * How often a worker thread checkpoints the write-ahead log into the database file, in ms
       * (default {@link DEFAULT_CHECKPOINT_INTERVAL_MS}); 0 leaves checkpoints to SQLite, which
       * runs them inside the commit that grows the log past 1,000 pages, holding the event loop
       * for that commit. The worker starts at the storage's
       * {@link CHECKPOINTER_AFTER_WRITES}th write transaction, so a storage that writes little
       * starts none. See `checkpointer.ts`.
       */
      checkpointIntervalMs?: number;
    }
  | { database: SqliteDatabase }
) & {
  /**
   * Bytes of records (counted as JSON text) kept parsed between transactions, so that point reads
   * need no statement (see `record-cache.ts`); 0 keeps none. Default {@link DEFAULT_RECORD_CACHE_BYTES}.
   */
  recordCacheBytes?: number;
};

/** The default of `recordCacheBytes` in {@link SqliteStorageOptions}: 16 MiB. */
export const DEFAULT_RECORD_CACHE_BYTES = 16 * 1024 * 1024;

/** The default of `checkpointIntervalMs`. */
export const DEFAULT_CHECKPOINT_INTERVAL_MS = 250;
/** The write transaction of a storage at which its background checkpointer starts. */
export const CHECKPOINTER_AFTER_WRITES = 100;

/** One lock per connection and per file, so storages on one file queue here, not in SQLite's busy wait. */
const connectionLocks = new WeakMap<SqliteDatabase, TransactionQueue>();
const fileLocks = new Map<string, TransactionQueue>();
/**
 * One record cache per connection: storages sharing a passed-in connection share it, since their
 * writes to each other do not move `data_version` (only other connections' do).
 */
const connectionRecords = new WeakMap<SqliteDatabase, RecordCache>();

/** An open connection with what the adapter keeps beside it. */
interface Connection {
  readonly db: SqliteDatabase;
  readonly lock: TransactionQueue;
  readonly statements: Map<string, Prepared>;
  /** Records read by key, kept between transactions; none when the budget is 0. */
  readonly records: RecordCache | undefined;
  /** The database file's full path; "" for an in-memory or temporary database. */
  readonly file: string;
  readonly close?: () => unknown;
}

/** A prepared statement, and how to read the first column of one of its rows. */
interface Prepared {
  readonly statement: SqliteStatement;
  readonly first: (row: unknown) => unknown;
}

/**
 * Runs `fn` between `begin` and `COMMIT`, rolling back when it rejects. Only ever called under the
 * lock. `run` runs a transaction statement: `exec`, or a statement prepared once (every request
 * runs two of them, and `exec` compiles its SQL each time).
 */
async function transact<T>(
  db: SqliteDatabase,
  begin: string,
  fn: () => Promise<T> | T,
  run: (sql: string) => unknown = (sql) => db.exec(sql),
): Promise<T> {
  run(begin);
  try {
    const result = await fn();
    run("COMMIT");
    return result;
  } catch (error) {
    try {
      db.exec("ROLLBACK");
    } catch {
      // No transaction is left (SQLite rolled it back itself); the original error matters more.
    }
    throw error;
  }
}

async function connect(options: SqliteStorageOptions): Promise<Connection> {
  const owned = "database" in options ? undefined : await openBetterSqlite3(options.filename);
  const db = "database" in options ? options.database : (owned as OwnedSqliteDatabase);
  try {
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = NORMAL");
    if (!("database" in options)) {
      db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    }
    // The main database's full path, or "" for an in-memory or temporary one: every driver has it.
    const [main] = db.prepare("SELECT file FROM pragma_database_list WHERE name = 'main'").all() as {
      file: string;
    }[];
    const file = main?.file ?? "";
    const lock = (file ? fileLocks.get(file) : connectionLocks.get(db)) ?? new TransactionQueue();
    if (file) fileLocks.set(file, lock);
    else connectionLocks.set(db, lock);
    const budget = options.recordCacheBytes ?? DEFAULT_RECORD_CACHE_BYTES;
    let records = connectionRecords.get(db);
    if (!records && budget > 0) connectionRecords.set(db, (records = new RecordCache(budget)));
    return {
      db,
      lock,
      statements: new Map(),
      records,
      file,
      ...(owned ? { close: () => owned.close() } : {}),
    };
  } catch (error) {
    owned?.close();
    throw error;
  }
}

/**
 * The statement of `sql`, prepared once per connection; a reading one has its rows read as their
 * one column `name` (plucked when the driver can).
 */
function prepared({ db, statements }: Connection, sql: string, name?: string): Prepared {
  let found = statements.get(sql);
  if (!found) {
    const statement = db.prepare(sql);
    // Only statements that return rows may be plucked.
    found =
      name && statement.pluck
        ? { statement: statement.pluck(), first: (row) => row }
        : { statement, first: (row) => (row as Record<string, unknown>)[name as string] };
    statements.set(sql, found);
  }
  return found;
}

/** `PRAGMA data_version`: changes whenever another connection commits to the file. */
function dataVersion(connection: Connection): unknown {
  const { statement, first } = prepared(connection, "PRAGMA data_version", "data_version");
  return first(statement.get());
}

/** Reads and writes on the connection; the SQL transaction around them is `transaction`'s. */
function operations(connection: Connection): DirectTransaction {
  const { records } = connection;
  const column = (sql: string, name = "doc") => prepared(connection, sql, name);
  const write = (sql: string) => prepared(connection, sql).statement;
  return {
    async get(table, key) {
      const kept = records?.get(table.name, key);
      if (kept) return kept === ABSENT ? undefined : kept;
      const { statement, first } = column(selectDoc(table));
      const row = statement.get(key);
      if (row == null) {
        records?.setAbsent(table.name, key);
        return undefined;
      }
      const text = first(row) as string;
      const record = JSON.parse(text);
      records?.set(table.name, key, record, text);
      return record;
    },
    async list(table, query) {
      const { sql, params } = selectList(table, query);
      const { statement, first } = column(sql);
      return statement.all(...params).map((row) => JSON.parse(first(row) as string));
    },
    async count(table, range) {
      const { sql, params } = selectCount(table, range);
      const { statement, first } = column(sql, "n");
      return Number(first(statement.get(...params)));
    },
    async put(table, key, json) {
      records?.forget(table.name, key);
      write(upsert(table)).run(key, json);
    },
    async delete(table, key) {
      records?.forget(table.name, key);
      return Number(write(remove(table)).run(key).changes) > 0;
    },
  };
}

/**
 * Storage in a SQLite database, on any driver that fits {@link SqliteDatabase}: better-sqlite3
 * (Node; `{ filename }` loads it), `bun:sqlite` (Bun) or `node:sqlite` (Deno, Node ≥ 22.5). Each
 * logical table is one SQL table of `(pk TEXT PRIMARY KEY, doc TEXT)` holding the record as JSON;
 * each declared index is a partial expression index over `json_extract` of its fields and `pk`,
 * limited to records whose index fields are strings or numbers. The file uses WAL with
 * `synchronous=NORMAL`.
 *
 * Transactions run one at a time per connection (bodies are async, the drivers are not): `write`
 * holds `BEGIN IMMEDIATE` until its body settles, `read` a deferred snapshot, which the reads
 * waiting beside it when it starts share (see `queue.ts`). Several storages in one process may
 * open the same file and queue on one lock. Other processes serialize on SQLite's write lock;
 * waiting for it blocks the thread for up to `busyTimeoutMs` (default 5000, with `filename`; set
 * your own driver's `busy_timeout` otherwise).
 *
 * The connection opens on `init`. `close()` closes it when this adapter opened it; a passed-in
 * `database` stays open.
 *
 * @example
 * ```ts
 * import { createDocsbase } from "docsbase";
 * import { sqliteStorage } from "docsbase/adapters/sqlite";
 * // Node, with better-sqlite3 installed:
 * const docsbase = createDocsbase({ storage: sqliteStorage({ filename: "./docsbase.db" }) });
 * // Bun:
 * import { Database } from "bun:sqlite";
 * const onBun = sqliteStorage({ database: new Database("./docsbase.db") });
 * // Deno:
 * import { DatabaseSync } from "node:sqlite";
 * const onDeno = sqliteStorage({ database: new DatabaseSync("./docsbase.db") });
 * ```
 */
export function sqliteStorage(options: SqliteStorageOptions): Storage {
  const checkpointInterval =
    "filename" in options ? (options.checkpointIntervalMs ?? DEFAULT_CHECKPOINT_INTERVAL_MS) : 0;
  let writes = 0;
  let closed = false;
  let checkpointer: Promise<Checkpointer | undefined> | undefined;
  /** Hands checkpoints to a worker thread; while it does not run, SQLite's own go on. */
  const checkpointInBackground = ({ db, file }: Connection) => {
    const setAutomatic = (pages: number) => {
      if (!closed) db.exec(`PRAGMA wal_autocheckpoint = ${pages}`);
    };
    checkpointer = startCheckpointer(file, checkpointInterval, () => setAutomatic(1000)).then(
      (running) => {
        setAutomatic(0);
        return running;
      },
      () => undefined,
    );
    return checkpointer;
  };
  let opening: Promise<Connection> | undefined;
  let open:
    | {
        connection: Connection;
        tx: DirectTransaction;
        run: (sql: string) => unknown;
        checkKept: () => void;
        snapshot: Snapshot;
      }
    | undefined;
  const ready = async () => {
    if (open) return open;
    const connection = await (opening ??= connect(options));
    const run = (sql: string) => prepared(connection, sql).statement.run();
    const { db, records } = connection;
    // The first read of a transaction, which also opens its snapshot: what is kept is checked
    // against the state every later read of the transaction sees.
    const checkKept = () => records?.validate(dataVersion(connection));
    const snapshot: Snapshot = {
      db,
      open() {
        run("BEGIN");
        checkKept();
      },
      close() {
        run("COMMIT");
      },
      abandon() {
        db.exec("ROLLBACK");
      },
    };
    return (open ??= { connection, tx: operations(connection), run, checkKept, snapshot });
  };

  return createStorage({
    writes: "direct",
    async init(schema) {
      const { connection } = await ready();
      const { db, lock } = connection;
      const meta = quote(META_TABLE);
      await lock.exclusive(() =>
        transact(db, "BEGIN IMMEDIATE", () => {
          // The schema-version record (storage/schema.ts) as a row of text.
          db.exec(`CREATE TABLE IF NOT EXISTS ${meta} (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
          const { key, current } = SCHEMA_VERSION;
          db.prepare(`INSERT OR IGNORE INTO ${meta} (key, value) VALUES (?, ?)`).run(key, String(current));
          const [row] = db.prepare(`SELECT value FROM ${meta} WHERE key = ?`).all(key) as { value: string }[];
          checkSchemaVersion(row?.value);
          for (const table of schema.tables) for (const sql of createTable(table)) db.exec(sql);
        }),
      );
    },
    async transaction(mode, body) {
      const { connection, tx, run, checkKept, snapshot } = open ?? (await ready());
      if (mode === "read") return connection.lock.read(snapshot, () => body(tx));
      const result = await connection.lock.exclusive(async () => {
        try {
          return await transact(
            connection.db,
            "BEGIN IMMEDIATE",
            () => {
              checkKept();
              return body(tx);
            },
            run,
          );
        } finally {
          connection.records?.settle();
        }
      });
      // Only a connection this storage opened on a file (better-sqlite3, on Node). The write that
      // starts the worker answers once it runs (tens of ms, once), the lock already released.
      if (
        ++writes === CHECKPOINTER_AFTER_WRITES &&
        checkpointInterval > 0 &&
        connection.file &&
        connection.close
      ) {
        await checkpointInBackground(connection);
      }
      return result;
    },
    async close() {
      const connection = open?.connection ?? (await opening?.catch(() => undefined));
      if (!connection) return;
      await (await checkpointer)?.stop();
      // Under the lock: another storage on the same passed-in connection may be mid-transaction.
      await connection.lock.exclusive(async () => {
        closed = true;
        connection.statements.clear();
        connection.close?.();
      });
    },
  });
}
