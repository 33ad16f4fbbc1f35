/**
 * The SQLite driver, typed by the calls the adapter makes (as Kysely's `SqliteDialect` types its
 * database), so that the adapter imports no driver and each runtime passes its own:
 *
 * | runtime           | driver                                     |
 * | ----------------- | ------------------------------------------ |
 * | Node              | `new Database(file)` from `better-sqlite3` |
 * | Bun               | `new Database(file)` from `bun:sqlite`     |
 * | Deno, Node ≥ 22.5 | `new DatabaseSync(file)` from `node:sqlite` |
 *
 * The required calls are those all three share: no `pragma()` (better-sqlite3 only), no
 * `inTransaction`, no named parameters; `changes` may be a bigint, and `get` may answer `null`
 * (bun:sqlite) or `undefined` for no row. `pluck()` is optional: better-sqlite3 has it.
 */

/** What the adapter binds: text and numbers (a bigint for integers beyond 2^53). */
export type SqliteValue = string | number | bigint | null;

/** A prepared statement. Parameters are positional (`?`). */
export interface SqliteStatement {
  /** Runs it; returns every row, as an object keyed by column name (as its first column's value once plucked). */
  all(...params: SqliteValue[]): unknown[];
  /** Runs it; returns its first row like `all`, or `undefined` or `null` when there is none. */
  get(...params: SqliteValue[]): unknown;
  /** Runs a statement that returns no rows; `changes` counts the rows it inserted, replaced or deleted. */
  run(...params: SqliteValue[]): { changes: number | bigint };
  /**
   * Optional (better-sqlite3): makes `all` and `get` return each row's first column instead of an
   * object. The adapter uses it when present: reading records then takes about a third less time.
   */
  pluck?(): SqliteStatement;
}

/**
 * An open SQLite connection. Calls are synchronous, as in the three drivers above; the adapter
 * prepares each distinct statement once and keeps it.
 */
export interface SqliteDatabase {
  /** Compiles one SQL statement. */
  prepare(sql: string): SqliteStatement;
  /** Runs SQL that returns nothing the adapter reads: `BEGIN`, `COMMIT`, `PRAGMA`, `CREATE`. */
  exec(sql: string): unknown;
}

/** A connection the adapter opened itself, and therefore closes. */
export interface OwnedSqliteDatabase extends SqliteDatabase {
  close(): unknown;
}

type BetterSqlite3 = new (filename: string) => OwnedSqliteDatabase;

/**
 * The specifier sits in a variable so that bundlers leave this import alone: bundling the adapter
 * for Bun, Deno or a worker, with a driver passed in, neither pulls in nor fails on a native module.
 */
const BETTER_SQLITE3 = "better-sqlite3";

const INSTALL =
  "(docsbase lists it as an optional dependency, which npm skips when its native build fails). " +
  "On Bun or Deno, pass a connection instead: sqliteStorage({ database }) with a bun:sqlite " +
  "Database or a node:sqlite DatabaseSync.";

const firstLine = (error: unknown) => String((error as Error)?.message ?? error).split("\n")[0];

/** A failure to load better-sqlite3's compiled module, as opposed to a failure to open the file. */
const brokenBinding = (error: unknown) =>
  (error as { code?: unknown })?.code === "ERR_DLOPEN_FAILED" ||
  /bindings file|NODE_MODULE_VERSION|better_sqlite3\.node/.test(String((error as Error)?.message));

/**
 * Opens `filename` with better-sqlite3, loaded only now: nothing else in the adapter needs it. When
 * it is missing or its native module does not load, the error says what to install.
 */
export async function openBetterSqlite3(
  filename: string,
  load: (specifier: string) => Promise<unknown> = (specifier) => import(specifier),
): Promise<OwnedSqliteDatabase> {
  let Database: BetterSqlite3;
  try {
    Database = ((await load(BETTER_SQLITE3)) as { default: BetterSqlite3 }).default;
  } catch (error) {
    const code = (error as { code?: unknown })?.code;
    const problem =
      code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND"
        ? "is not installed"
        : `did not load (${firstLine(error)})`;
    throw new Error(`better-sqlite3 ${problem}: run "npm install better-sqlite3" ${INSTALL}`, {
      cause: error,
    });
  }
  try {
    return new Database(filename);
  } catch (error) {
    if (!brokenBinding(error)) throw error;
    throw new Error(
      `better-sqlite3 is installed but its native module does not load ` +
        `(${firstLine(error)}): run "npm rebuild better-sqlite3" ${INSTALL}`,
      { cause: error },
    );
  }
}
