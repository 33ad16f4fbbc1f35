import type { EngineQuery, IndexValue, TableSchema } from "../../core/storage/index.js";
import type { SqliteValue } from "./driver.js";

/**
 * The SQL the SQLite adapter runs. Each logical table is one SQL table of `(pk TEXT PRIMARY KEY,
 * doc TEXT)` holding the record as JSON; each declared index is a partial expression index over
 * `json_extract` of its fields and `pk`, limited to records whose index fields are strings or
 * numbers. Every statement is plain SQLite, so it runs the same on every driver.
 */

/** Double-quotes a name. The kit let through only names that need no escaping (`storage/schema.ts`). */
export const quote = (name: string): string => `"${name}"`;

const value = (field: string) => `json_extract(doc, '$.${field}')`;
const indexable = (field: string) => `json_type(doc, '$.${field}') IN ('text', 'integer', 'real')`;

/** The statements that create a table and its indexes when missing. */
export function createTable(table: TableSchema): string[] {
  const name = quote(table.name);
  const statements = [`CREATE TABLE IF NOT EXISTS ${name} (pk TEXT PRIMARY KEY, doc TEXT NOT NULL)`];
  for (const [index, fields] of Object.entries(table.indexes)) {
    const columns = [...fields.map(value), "pk"].join(", ");
    const filter = fields.length ? ` WHERE ${fields.map(indexable).join(" AND ")}` : "";
    // Index names are global in SQLite; a dot cannot occur in either part, so this is unique.
    statements.push(`CREATE INDEX IF NOT EXISTS "${table.name}.${index}" ON ${name} (${columns})${filter}`);
  }
  return statements;
}

export const selectDoc = (table: TableSchema) => `SELECT doc FROM ${quote(table.name)} WHERE pk = ?`;
export const upsert = (table: TableSchema) =>
  `INSERT OR REPLACE INTO ${quote(table.name)} (pk, doc) VALUES (?, ?)`;
export const remove = (table: TableSchema) => `DELETE FROM ${quote(table.name)} WHERE pk = ?`;

/**
 * Binds a JS number the way SQLite's JSON parser reads the same number from `JSON.stringify`
 * output. Integers beyond 2^53 are written in their shortest decimal form (the double
 * 698043479385676032 prints as `698043479385676000`), which SQLite keeps as that exact 64-bit
 * integer; binding the same integer instead of the double keeps `=`, `<` and `>` exact. Every
 * driver binds a bigint as a 64-bit integer.
 */
function bind(v: IndexValue): SqliteValue {
  if (typeof v !== "number" || Number.isSafeInteger(v) || !Number.isInteger(v)) return v;
  const text = JSON.stringify(v);
  if (!/^-?\d+$/.test(text)) return v;
  const n = BigInt(text);
  return n >= -(2n ** 63n) && n < 2n ** 63n ? n : v;
}

/** `FROM ... WHERE ...` of one query: index filters, equality prefix, resume point; and its order. */
function plan(table: TableSchema, query: Pick<EngineQuery, "fields" | "where"> & Partial<EngineQuery>) {
  const { fields, where } = query;
  const rest = fields.slice(where.length);
  const clauses = fields.map(indexable);
  const params: SqliteValue[] = [];
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

/** The `SELECT` of a list query and its parameters. */
export function selectList(table: TableSchema, query: EngineQuery): { sql: string; params: SqliteValue[] } {
  const { from, order, params } = plan(table, query);
  return { sql: `SELECT doc ${from} ORDER BY ${order} LIMIT ?`, params: [...params, query.limit ?? -1] };
}

/** The `SELECT count(*)` of a range and its parameters. */
export function selectCount(
  table: TableSchema,
  range: Pick<EngineQuery, "fields" | "where">,
): { sql: string; params: SqliteValue[] } {
  const { from, params } = plan(table, range);
  return { sql: `SELECT count(*) AS n ${from}`, params };
}
