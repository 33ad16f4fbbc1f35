/**
 * `docsbase/adapters/postgres`: {@link postgresStorage}, storage in a PostgreSQL database, by
 * connection string or over a `pg` pool you own. Several docsbase instances can share the
 * database.
 *
 * @module
 */
import { unavailable } from "../../core/shared/errors.js";
import {
  checkName,
  checkSchemaVersion,
  createStorage,
  META_TABLE,
  Mutex,
  SCHEMA_VERSION,
  type DirectTransaction,
  type Storage,
  type StorageSchema,
  type TableSchema,
} from "../../core/storage/index.js";
import {
  addKeyColumns,
  createIndexes,
  createTable,
  keyFields,
  keyValues,
  escapeKey,
  qualified,
  quote,
  remove,
  selectCount,
  selectDoc,
  selectDocs,
  selectList,
  upsert,
} from "./sql.js";

/**
 * The PostgreSQL client the adapter needs, typed by the calls it makes: a `pg` `Pool` fits, and so
 * does any pool whose clients answer `query(text, values)` with `{ rows }`.
 */
export interface PostgresPool {
  /** A client of its own until `release`; the adapter runs one transaction on it at a time. */
  connect(): Promise<PostgresClient>;
  /** Closes the pool's connections. Called by `close()` only for a pool the adapter made. */
  end(): Promise<void>;
}

export interface PostgresClient {
  query(text: string, values?: readonly unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  /** Returns the client to its pool; `true` (or an error) destroys its connection instead. */
  release(destroy?: boolean | Error): void;
}

/** Options of {@link postgresStorage}. */
export type PostgresStorageOptions = (
  | {
      /** `postgres://user:password@host:port/database`; the adapter makes a `pg` pool on it. */
      connectionString: string;
      /** Connections in the pool the adapter makes. Default 10. */
      poolSize?: number;
    }
  | {
      /** A pool the caller made and owns: `close()` leaves it open. */
      pool: PostgresPool;
    }
) & {
  /** The PostgreSQL schema (namespace) holding docsbase's tables, created when missing. Default `public`. */
  schema?: string;
  /**
   * How many times a write transaction runs before a serialization failure or deadlock is given up
   * (answered as 503). Default 30.
   */
  maxAttempts?: number;
};

/** SQLSTATEs after which a transaction may simply run again: serialization failure, deadlock. */
const RETRYABLE = new Set(["40001", "40P01"]);
/** The key of the advisory lock that makes concurrent `init`s from several instances take turns. */
const INIT_LOCK = 0x646f6373; // "docs"

const sqlState = (error: unknown) =>
  typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;

/** Whether the error says the database cannot be reached (not that a statement failed). */
function isConnectionError(error: unknown): boolean {
  const code = sqlState(error);
  if (typeof code !== "string")
    return error instanceof Error && /Connection terminated|connect/i.test(error.message);
  // Node's socket errors, and SQLSTATE classes 08 (connection) and 57P (operator intervention).
  return /^E[A-Z]+$/.test(code) || code.startsWith("08") || code.startsWith("57P");
}

/** A failed attempt that met a serialization failure on the way, whatever it finally threw. */
class Retry extends Error {
  constructor(readonly failure: unknown) {
    super("serialization failure", { cause: failure });
  }
}

/**
 * `get`s of one table that go to the database as one query: keys join while the batch is the last
 * statement asked for (so a get never overtakes a write asked for before it), and the query takes
 * the keys present when its turn comes.
 */
interface GetBatch {
  readonly table: TableSchema;
  readonly keys: Set<string>;
  /** Escaped key to JSON text, for the keys found. */
  docs: Promise<Map<string, string>>;
}

/** One run of a transaction body on one connection. */
interface AttemptState {
  /** A statement was refused for serialization: run the body again. */
  retry: boolean;
  /** The body settled: no further statement reaches the connection. */
  over: boolean;
  /** The last statement queued on the connection, settled either way. */
  previous: Promise<unknown>;
}

/** The statements of one table, made once per storage. */
interface TableSql {
  readonly fields: readonly string[];
  readonly get: string;
  /** `get` of several keys at once (`$1` an array). */
  readonly getMany: string;
  readonly put: string;
  readonly delete: string;
}

/**
 * Storage in PostgreSQL, for one instance or many sharing one server (docs/scaling.md).
 *
 * Each logical table is one SQL table of `(pk, doc, key columns)`: the record's JSON text exactly
 * as written, and per indexed field a `float8` and a `text COLLATE "C"` column, with one partial
 * B-tree per declared index (see `sql.ts`). `init` creates what is missing, under an advisory lock
 * so that instances starting together take turns, and adds key columns (filling them from the
 * stored records) when a new index names a new field.
 *
 * Transactions:
 * - `write` runs `BEGIN ISOLATION LEVEL SERIALIZABLE`. When PostgreSQL refuses to commit it (a
 *   serialization failure or a deadlock with another instance), the adapter rolls back, waits a
 *   short random while and runs the body again, up to `maxAttempts` times; the port requires bodies
 *   to do storage work and pure computation only, so running one again is safe. Within one instance
 *   writes take turns (as on SQLite): retries only arise between instances.
 * - `read` runs `REPEATABLE READ READ ONLY`: one snapshot for its whole duration, concurrently with
 *   every other transaction, never refused for serialization.
 *
 * A database that cannot be reached, or a write still refused after `maxAttempts`, rejects with a
 * `DocsbaseError` whose code is `unavailable` (HTTP 503).
 *
 * @example
 * ```ts
 * import { createDocsbase } from "docsbase";
 * import { postgresStorage } from "docsbase/adapters/postgres";
 * const docsbase = createDocsbase({
 *   storage: postgresStorage({ connectionString: process.env.DOCSBASE_DATABASE_URL!, poolSize: 20 }),
 * });
 * ```
 */
export function postgresStorage(options: PostgresStorageOptions): Storage {
  const dbSchema = options.schema ?? "public";
  checkName(dbSchema, "schema name");
  const maxAttempts = options.maxAttempts ?? 30;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1)
    throw new RangeError("maxAttempts: a positive integer");
  if ("connectionString" in options && options.poolSize !== undefined) {
    if (!Number.isInteger(options.poolSize) || options.poolSize < 1)
      throw new RangeError("poolSize: a positive integer");
  }
  const owned = !("pool" in options);
  let pool: Promise<PostgresPool> | undefined;
  const getPool = () => (pool ??= "pool" in options ? Promise.resolve(options.pool) : makePool(options));
  const statements = new Map<string, TableSql>();
  const writes = new Mutex();

  const sqlOf = (table: TableSchema): TableSql => {
    let sql = statements.get(table.name);
    if (!sql) {
      const fields = keyFields(table);
      sql = {
        fields,
        get: selectDoc(dbSchema, table),
        getMany: selectDocs(dbSchema, table),
        put: upsert(dbSchema, table, fields),
        delete: `${remove(dbSchema, table)} RETURNING 1 AS gone`,
      };
      statements.set(table.name, sql);
    }
    return sql;
  };

  /**
   * Reads and writes on one client, inside the transaction `attempt` opened. A statement refused
   * for serialization marks the attempt as one to run again, even if the body then throws
   * something else (a body that caught the failure, or PostgreSQL's "transaction is aborted").
   */
  const operations = (client: PostgresClient, state: AttemptState): DirectTransaction => {
    // One statement at a time on the connection, in the order the body asked for them: bodies may
    // start several reads at once (`Promise.all`), and a client must not be handed a query while
    // another is running. `statement` is called when its turn comes.
    // The `get`s asked for since the last other statement, on one table: they go as one query.
    let batch: GetBatch | undefined;
    const run = (statement: () => readonly [string, readonly unknown[]]) => {
      batch = undefined;
      return enqueue(statement);
    };
    const enqueue = (statement: () => readonly [string, readonly unknown[]]) => {
      const result = state.previous.then(() => {
        // The body settled while statements it started were still queued (a `Promise.all` that
        // rejected early): they must not reach the connection, which goes back to the pool.
        if (state.over) throw new Error("The transaction is over");
        const [text, values] = statement();
        return client.query(text, values).catch((error: unknown) => {
          if (RETRYABLE.has(sqlState(error) as string)) state.retry = true;
          throw error;
        });
      });
      state.previous = result.catch(() => undefined);
      return result;
    };
    return {
      async get(table, key) {
        const escaped = escapeKey(key);
        if (batch?.table !== table) {
          const open: GetBatch = { table, keys: new Set(), docs: undefined as never };
          open.docs = enqueue(() => {
            if (batch === open) batch = undefined;
            const keys = [...open.keys];
            return keys.length === 1 ? [sqlOf(table).get, keys] : [sqlOf(table).getMany, [keys]];
          }).then(({ rows }) => {
            if (open.keys.size === 1)
              return new Map(rows.map((row) => [[...open.keys][0]!, row["doc"] as string]));
            return new Map(rows.map((row) => [row["pk"] as string, row["doc"] as string]));
          });
          batch = open;
        }
        const current = batch;
        current.keys.add(escaped);
        const doc = (await current.docs).get(escaped);
        return doc === undefined ? undefined : JSON.parse(doc);
      },
      async list(table, query) {
        const { sql, params } = selectList(dbSchema, table, query);
        const { rows } = await run(() => [sql, params]);
        return rows.map((row) => JSON.parse(row["doc"] as string));
      },
      async count(table, range) {
        const { sql, params } = selectCount(dbSchema, table, range);
        const { rows } = await run(() => [sql, params]);
        return Number(rows[0]!["n"]);
      },
      async put(table, key, json) {
        const { fields, put } = sqlOf(table);
        const keys = fields.length ? keyValues(JSON.parse(json) as Record<string, unknown>, fields) : [];
        await run(() => [put, [escapeKey(key), json, ...keys]]);
      },
      async delete(table, key) {
        const { rows } = await run(() => [sqlOf(table).delete, [escapeKey(key)]]);
        return rows.length > 0;
      },
    };
  };

  async function connect(): Promise<PostgresClient> {
    try {
      return await (await getPool()).connect();
    } catch (error) {
      throw unavailable(`The database cannot be reached: ${(error as Error).message}`, error);
    }
  }

  /** One run of `body` in one database transaction; rolled back unless it resolves and commits. */
  async function attempt<T>(begin: string, body: (tx: DirectTransaction) => Promise<T>): Promise<T> {
    const client = await connect();
    const state: AttemptState = { retry: false, over: false, previous: Promise.resolve() };
    /** Ends the body's access: waits for its statements still running, refuses those queued. */
    const settle = () => {
      state.over = true;
      return state.previous;
    };
    let destroy = false;
    try {
      await client.query(begin);
      try {
        const result = await body(operations(client, state));
        await settle();
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await settle();
        // A failed ROLLBACK leaves the connection in an unknown state: it is not reused.
        await client.query("ROLLBACK").catch(() => (destroy = true));
        if (state.retry && !RETRYABLE.has(sqlState(error) as string)) throw new Retry(error);
        throw error;
      }
    } catch (error) {
      if (isConnectionError(error)) {
        destroy = true;
        throw unavailable(`The database connection failed: ${(error as Error).message}`, error);
      }
      throw error;
    } finally {
      client.release(destroy);
    }
  }

  async function write<T>(body: (tx: DirectTransaction) => Promise<T>): Promise<T> {
    for (let attempts = 1; ; attempts++) {
      try {
        return await attempt("BEGIN ISOLATION LEVEL SERIALIZABLE", body);
      } catch (error) {
        if (!(error instanceof Retry) && !RETRYABLE.has(sqlState(error) as string)) throw error;
        if (attempts >= maxAttempts) {
          throw unavailable(
            `The write conflicted with concurrent writes ${attempts} times; retry later`,
            error,
          );
        }
        // Random backoff, growing with the attempts: instances that collided do not collide again.
        const ceiling = Math.min(100, 2 ** attempts);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
      }
    }
  }

  return createStorage({
    writes: "direct",
    async init(schema) {
      const client = await connect();
      try {
        await client.query("BEGIN");
        try {
          await client.query(`SELECT pg_advisory_xact_lock(${INIT_LOCK})`);
          await createSchema(client, dbSchema, schema);
          await client.query("COMMIT");
        } catch (error) {
          await client.query("ROLLBACK").catch(() => undefined);
          throw error;
        }
      } finally {
        client.release();
      }
    },
    transaction(mode, body) {
      return mode === "write"
        ? writes.run(() => write(body))
        : attempt("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body);
    },
    async close() {
      if (!owned || !pool) return;
      const made = await pool.catch(() => undefined);
      await made?.end();
    },
  });
}

async function makePool(options: { connectionString: string; poolSize?: number }): Promise<PostgresPool> {
  // Loaded on first use: a caller passing its own pool needs no `pg`.
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({ connectionString: options.connectionString, max: options.poolSize ?? 10 });
  // An idle client whose connection drops emits "error" on the pool; without a listener that
  // would crash the process. The next `connect` opens a new connection.
  pool.on("error", () => {});
  return pool as unknown as PostgresPool;
}

/** Creates what `schema` needs and is missing; fills new key columns from the stored records. */
async function createSchema(client: PostgresClient, dbSchema: string, schema: StorageSchema): Promise<void> {
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${quote(dbSchema)}`);
  const meta = qualified(dbSchema, META_TABLE);
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${meta} (key text COLLATE "C" PRIMARY KEY, value text NOT NULL)`,
  );
  // The schema-version record (storage/schema.ts) as a row of text.
  const { key, current } = SCHEMA_VERSION;
  await client.query(`INSERT INTO ${meta} (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`, [
    key,
    String(current),
  ]);
  const { rows } = await client.query(`SELECT value FROM ${meta} WHERE key = $1`, [key]);
  checkSchemaVersion(rows[0]?.["value"]);

  for (const table of schema.tables) {
    await client.query(createTable(dbSchema, table));
    const known = await client.query(`SELECT value FROM ${meta} WHERE key = $1`, [`fields:${table.name}`]);
    const had = new Set<string>(
      known.rows.length ? (JSON.parse(known.rows[0]!["value"] as string) as string[]) : [],
    );
    const fields = keyFields(table);
    const added = fields.filter((field) => !had.has(field));
    for (const field of added) await client.query(addKeyColumns(dbSchema, table, field));
    if (added.length) await backfill(client, dbSchema, table, added);
    for (const sql of createIndexes(dbSchema, table)) await client.query(sql);
    await client.query(
      `INSERT INTO ${meta} (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
      [`fields:${table.name}`, JSON.stringify([...new Set([...had, ...fields])])],
    );
  }
}

/** Sets the key columns of `fields` on every stored record of the table, a batch at a time. */
async function backfill(client: PostgresClient, dbSchema: string, table: TableSchema, fields: string[]) {
  const name = qualified(dbSchema, table.name);
  const sets = fields.flatMap((field, i) => [`"n_${field}" = $${2 * i + 2}`, `"s_${field}" = $${2 * i + 3}`]);
  const update = `UPDATE ${name} SET ${sets.join(", ")} WHERE pk = $1`;
  let after: string | undefined;
  for (;;) {
    const { rows } = await client.query(
      `SELECT pk, doc FROM ${name}${after === undefined ? "" : " WHERE pk > $1"} ORDER BY pk LIMIT 500`,
      after === undefined ? [] : [after],
    );
    if (!rows.length) return;
    for (const row of rows) {
      const values = keyValues(JSON.parse(row["doc"] as string) as Record<string, unknown>, fields);
      await client.query(update, [row["pk"], ...values]);
    }
    after = rows[rows.length - 1]!["pk"] as string;
  }
}
