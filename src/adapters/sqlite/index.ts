import { resolve } from "node:path";
import Database from "better-sqlite3";
import {
  checkQuery,
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

/** Options of {@link sqliteStorage}: a database file to open, or a connection the caller owns. */
export type SqliteStorageOptions =
  { filename: string; busyTimeoutMs?: number } | { database: Database.Database };

const SCHEMA_VERSION = 1;
const META = "docsbase_meta";
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** One lock per connection and per file, so storages on one file queue here, not in SQLite's busy wait. */
const connectionLocks = new WeakMap<Database.Database, Mutex>();
const fileLocks = new Map<string, Mutex>();

function lockFor(db: Database.Database): Mutex {
  const key = db.memory ? db : resolve(db.name);
  const found = typeof key === "string" ? fileLocks.get(key) : connectionLocks.get(key);
  const lock = found ?? new Mutex();
  if (typeof key === "string") fileLocks.set(key, lock);
  else connectionLocks.set(key, lock);
  return lock;
}

/** Double-quotes a name after checking it is a plain ASCII identifier. */
function quote(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`Invalid identifier "${name}"`);
  return `"${name}"`;
}

const value = (field: string) => `json_extract(doc, '$.${field}')`;
const indexable = (field: string) => `json_type(doc, '$.${field}') IN ('text', 'integer', 'real')`;

/**
 * Binds a JS number the way SQLite's JSON parser reads the same number from `JSON.stringify`
 * output. Integers beyond 2^53 are written in their shortest decimal form (the double
 * 698043479385676032 prints as `698043479385676000`), which SQLite keeps as that exact 64-bit
 * integer; binding the same integer instead of the double keeps `=`, `<` and `>` exact.
 */
function bind(v: IndexValue): string | number | bigint {
  if (typeof v !== "number" || Number.isSafeInteger(v) || !Number.isInteger(v)) return v;
  const text = JSON.stringify(v);
  if (!/^-?\d+$/.test(text)) return v;
  const n = BigInt(text);
  return n >= -(2n ** 63n) && n < 2n ** 63n ? n : v;
}

/** `SELECT` clauses for one query: index filters, equality prefix, resume point, order. */
function plan(table: TableSchema, fields: readonly string[], query: ListQuery) {
  const where = query.where ?? [];
  const rest = fields.slice(where.length);
  const clauses = fields.map(indexable);
  const params: (string | number | bigint)[] = [];
  where.forEach((v, i) => {
    clauses.push(`${value(fields[i] as string)} = ?`);
    params.push(bind(v));
  });
  if (query.after) {
    const columns = [...rest.map(value), "pk"];
    const op = query.reverse ? "<" : ">";
    // SQLite does not seek an expression index by a row value; the redundant `>=` on the first column
    // gives it a range start, and the row value then skips ties.
    clauses.push(
      `${columns[0]} ${op}= ?`,
      `(${columns.join(", ")}) ${op} (${query.after.map(() => "?").join(", ")})`,
    );
    params.push(bind(query.after[0] as IndexValue), ...query.after.map(bind));
  }
  const direction = query.reverse ? " DESC" : "";
  const order = [...rest.map(value), "pk"].map((c) => c + direction).join(", ");
  const filter = clauses.length ? ` WHERE ${clauses.join(" AND ")}` : "";
  return { from: `FROM ${quote(table.name)}${filter}`, order, params };
}

/**
 * Storage in a SQLite database through better-sqlite3 (Node only). Each logical table is one SQL
 * table of `(pk TEXT PRIMARY KEY, doc TEXT)` holding the record as JSON; each declared index is a
 * partial expression index over `json_extract` of its fields and `pk`, limited to records whose
 * index fields are strings or numbers. The file uses WAL with `synchronous=NORMAL`.
 *
 * Transactions run one at a time per connection (bodies are async, the driver is not): `write`
 * holds `BEGIN IMMEDIATE` until its body settles, `read` holds a deferred snapshot. Several
 * storages in one process may open the same file and queue on one lock. Other processes serialize
 * on SQLite's write lock; waiting for it blocks the thread for up to `busyTimeoutMs` (default 5000).
 *
 * `close()` closes the connection when this adapter opened it; a passed-in `database` stays open.
 *
 * @example
 * ```ts
 * import { createDocsbase } from "docsbase";
 * import { sqliteStorage } from "docsbase/adapters/sqlite";
 * const docsbase = createDocsbase({ storage: sqliteStorage({ filename: "./docsbase.db" }) });
 * ```
 */
export function sqliteStorage(options: SqliteStorageOptions): Storage {
  const owned = !("database" in options);
  const db = "database" in options ? options.database : new Database(options.filename);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  const timeout = "filename" in options ? Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000)) : undefined;
  if (timeout !== undefined) db.pragma(`busy_timeout = ${timeout}`);
  const lock = lockFor(db);

  const tables = new Map<string, TableSchema>();
  const cache = new Map<string, Database.Statement>();
  let closed = false;

  const statement = (sql: string, pluck = true) => {
    const found = cache.get(sql) ?? db.prepare(sql);
    if (!cache.has(sql)) cache.set(sql, pluck ? found.pluck() : found);
    return found;
  };
  const table = (name: string) => {
    const found = tables.get(name);
    if (!found) throw new Error(`Unknown table "${name}"`);
    return found;
  };
  const ensureOpen = () => {
    if (closed) throw new Error("Storage is closed");
  };

  function transaction(writable: boolean, state: { active: boolean }): WriteTransaction {
    const use = (name: string) => {
      if (!state.active) throw new Error("The transaction has already finished");
      return table(name);
    };
    const writeable = (name: string) => {
      if (!writable) throw new Error("Writes need a write transaction");
      return use(name);
    };
    return {
      async get<T extends StoredRecord>(name: string, key: string) {
        const sql = `SELECT doc FROM ${quote(use(name).name)} WHERE pk = ?`;
        const doc = statement(sql).get(key) as string | undefined;
        return doc === undefined ? undefined : (JSON.parse(doc) as T);
      },
      async list<T extends StoredRecord>(name: string, query: ListQuery) {
        const schema = use(name);
        const { from, order, params } = plan(schema, checkQuery(schema, query), query);
        const sql = `SELECT doc ${from} ORDER BY ${order} LIMIT ?`;
        const docs = statement(sql).all(...params, query.limit ?? -1) as string[];
        return docs.map((doc) => JSON.parse(doc) as T);
      },
      async count(name, query) {
        const schema = use(name);
        const range = { index: query.index, where: query.where }; // count ignores any after or limit
        const { from, params } = plan(schema, checkQuery(schema, range), range);
        return statement(`SELECT count(*) ${from}`).get(...params) as number;
      },
      async put(name, record) {
        const schema = writeable(name);
        const key = record?.[schema.key];
        if (typeof key !== "string") throw new Error(`Record of "${name}" lacks string key "${schema.key}"`);
        const sql = `INSERT OR REPLACE INTO ${quote(schema.name)} (pk, doc) VALUES (?, ?)`;
        statement(sql, false).run(key, JSON.stringify(record));
      },
      async delete(name, key) {
        const sql = `DELETE FROM ${quote(writeable(name).name)} WHERE pk = ?`;
        return statement(sql, false).run(key).changes > 0;
      },
    };
  }

  /** Runs `fn` inside one SQL transaction, alone on the connection. */
  function run<T>(writable: boolean, fn: (tx: WriteTransaction) => Promise<T>): Promise<T> {
    return lock.run(async () => {
      ensureOpen();
      db.exec(writable ? "BEGIN IMMEDIATE" : "BEGIN");
      const state = { active: true };
      try {
        const result = await fn(transaction(writable, state));
        state.active = false;
        db.exec("COMMIT");
        return result;
      } catch (error) {
        state.active = false;
        if (db.inTransaction) {
          try {
            db.exec("ROLLBACK");
          } catch {
            // The original error matters more than a failed rollback.
          }
        }
        throw error;
      }
    });
  }

  /** Creates the metadata table, the tables and their indexes. */
  function create(schema: StorageSchema) {
    db.exec(`CREATE TABLE IF NOT EXISTS ${META} (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    db.exec(`INSERT OR IGNORE INTO ${META} (key, value) VALUES ('schema_version', '${SCHEMA_VERSION}')`);
    const version = db.prepare(`SELECT value FROM ${META} WHERE key = 'schema_version'`).pluck().get();
    if (Number(version) > SCHEMA_VERSION) throw new Error(`Unsupported schema version ${String(version)}`);
    for (const definition of schema.tables) {
      const name = quote(definition.name);
      db.exec(`CREATE TABLE IF NOT EXISTS ${name} (pk TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
      for (const [index, fields] of Object.entries(definition.indexes)) {
        const columns = [...fields.map(value), "pk"].join(", ");
        const filter = fields.length ? ` WHERE ${fields.map(indexable).join(" AND ")}` : "";
        // Index names are global in SQLite; a dot cannot occur in either part, so this is unique.
        db.exec(`CREATE INDEX IF NOT EXISTS "${definition.name}.${index}" ON ${name} (${columns})${filter}`);
      }
    }
  }

  return {
    async init(schema: StorageSchema) {
      for (const { name, indexes } of schema.tables) {
        quote(name);
        if (name === META || /^sqlite_/i.test(name)) throw new Error(`Table name "${name}" is reserved`);
        for (const [index, fields] of Object.entries(indexes)) [index, ...fields].forEach(quote);
      }
      return lock.run(async () => {
        ensureOpen();
        db.transaction(create).immediate(schema);
        for (const definition of schema.tables) tables.set(definition.name, definition);
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
        if (closed) return;
        closed = true;
        cache.clear();
        if (owned) db.close();
      });
    },
  };
}
