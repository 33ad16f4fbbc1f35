import { fnv1a } from "../../core/shared/digest.js";
import type { EngineQuery, IndexValue, TableSchema } from "../../core/storage/index.js";

/**
 * The SQL the PostgreSQL adapter runs.
 *
 * Each logical table is one SQL table: `pk` (the primary key), `doc` (the record's JSON text,
 * kept exactly as written), and two key columns per field that any index names: `n_<field>`
 * (`float8`, set when the field holds a number) and `s_<field>` (`text COLLATE "C"`, set when it
 * holds a string). The adapter fills the key columns from the record on every put; a field of
 * any other type leaves both `NULL`, which keeps the record out of every index that names it.
 *
 * Each declared index is a B-tree over `(n_f1, s_f1, n_f2, s_f2, ..., pk)`, partial on "every
 * field is a string or a number". In ascending order numbers (a non-null `n`) come first and
 * strings after them, which is the port's order (`compareTuples`); a reverse scan of the same
 * index gives the reverse order. Strings compare by byte (`COLLATE "C"`, the same order as
 * SQLite's and, for the ASCII that core orders by, the same as every other adapter's), so a cursor
 * issued by one instance resumes on another whatever the database's default collation.
 *
 * PostgreSQL's `text` cannot hold U+0000. Key strings go through an order-preserving escape
 * (`\0` → `\x01\x01`, `\x01` → `\x01\x02`): the escape of a string containing them still sorts
 * where the string did, and equality is unchanged. `doc` never needs it (JSON text escapes U+0000).
 */

/** PostgreSQL truncates longer identifiers (NAMEDATALEN - 1). */
const MAX_IDENTIFIER = 63;

/**
 * Double-quotes a name. The kit let through only names that need no escaping and that
 * PostgreSQL keeps whole, key columns (`n_<field>`) included (`storage/schema.ts`); the schema
 * name is checked by the same rule when the adapter is created.
 */
export const quote = (name: string): string => `"${name}"`;

/** Every field that an index of the table names, each once, in declaration order. */
export function keyFields(table: TableSchema): string[] {
  return [...new Set(Object.values(table.indexes).flat())];
}

const n = (field: string) => `"n_${field}"`;
const s = (field: string) => `"s_${field}"`;

/** `"schema"."table"`. */
export const qualified = (dbSchema: string, table: string) => `${quote(dbSchema)}.${quote(table)}`;

/** The index's SQL name: `table.index`, shortened with a hash when too long. Unique per schema. */
export function indexName(table: string, index: string): string {
  const name = `${table}.${index}`;
  return name.length <= MAX_IDENTIFIER
    ? name
    : `${name.slice(0, MAX_IDENTIFIER - 8)}~${fnv1a(name).padStart(7, "0")}`;
}

/** `CREATE TABLE` of a table with its `pk` and `doc` columns. */
export function createTable(dbSchema: string, table: TableSchema): string {
  return `CREATE TABLE IF NOT EXISTS ${qualified(dbSchema, table.name)} (pk text COLLATE "C" PRIMARY KEY, doc text NOT NULL)`;
}

/** The statement adding the key columns of `field`. */
export function addKeyColumns(dbSchema: string, table: TableSchema, field: string): string {
  return (
    `ALTER TABLE ${qualified(dbSchema, table.name)} ADD COLUMN IF NOT EXISTS ${n(field)} float8, ` +
    `ADD COLUMN IF NOT EXISTS ${s(field)} text COLLATE "C"`
  );
}

/** The statements creating the table's declared indexes when missing. */
export function createIndexes(dbSchema: string, table: TableSchema): string[] {
  return Object.entries(table.indexes).map(([index, fields]) => {
    const columns = [...fields.flatMap((f) => [n(f), s(f)]), "pk"].join(", ");
    const filter = fields.length ? ` WHERE ${fields.map(indexable).join(" AND ")}` : "";
    return `CREATE INDEX IF NOT EXISTS ${quoteLoose(indexName(table.name, index))} ON ${qualified(dbSchema, table.name)} (${columns})${filter}`;
  });
}

/** Quotes an index name (it holds a dot, and perhaps a `~`). */
const quoteLoose = (name: string) => `"${name.replace(/"/g, '""')}"`;

const indexable = (field: string) => `(${n(field)} IS NOT NULL OR ${s(field)} IS NOT NULL)`;

/** Escapes U+0000 (and the escape character) in a key string, preserving order; see the module comment. */
export function escapeKey(value: string): string {
  // The escape character first, so that the escapes of U+0000 are not escaped again.
  return value.includes("\u0000") || value.includes("\u0001")
    ? value.replaceAll("\u0001", "\u0001\u0002").replaceAll("\u0000", "\u0001\u0001")
    : value;
}

/** A key column value as bound: a number, an escaped string. */
const bind = (v: IndexValue) => (typeof v === "number" ? v : escapeKey(v));

/** The key column values of a record: per field of `fields`, its number and its string, or nulls. */
export function keyValues(
  record: Record<string, unknown>,
  fields: readonly string[],
): (number | string | null)[] {
  const values: (number | string | null)[] = [];
  for (const field of fields) {
    const value = record[field];
    values.push(
      typeof value === "number" ? value : null,
      typeof value === "string" ? escapeKey(value) : null,
    );
  }
  return values;
}

/** The upsert of a table whose key columns are `fields`: `$1` pk, `$2` doc, then {@link keyValues}. */
export function upsert(dbSchema: string, table: TableSchema, fields: readonly string[]): string {
  const columns = ["pk", "doc", ...fields.flatMap((f) => [n(f), s(f)])];
  const values = columns.map((_, i) => `$${i + 1}`).join(", ");
  const updates = columns
    .slice(1)
    .map((c) => `${c} = EXCLUDED.${c}`)
    .join(", ");
  return (
    `INSERT INTO ${qualified(dbSchema, table.name)} (${columns.join(", ")}) VALUES (${values}) ` +
    `ON CONFLICT (pk) DO UPDATE SET ${updates}`
  );
}

export const selectDoc = (dbSchema: string, table: TableSchema) =>
  `SELECT doc FROM ${qualified(dbSchema, table.name)} WHERE pk = $1`;
export const selectDocs = (dbSchema: string, table: TableSchema) =>
  `SELECT pk, doc FROM ${qualified(dbSchema, table.name)} WHERE pk = ANY($1::text[])`;
export const remove = (dbSchema: string, table: TableSchema) =>
  `DELETE FROM ${qualified(dbSchema, table.name)} WHERE pk = $1`;

/**
 * `FROM ... WHERE ...` of one query, and its `ORDER BY`. Equality on a field fixes both of its key
 * columns (`n = $ AND s IS NULL`, or the reverse), so the index's prefix is fixed and its order
 * serves the `ORDER BY` directly.
 */
function plan(
  dbSchema: string,
  table: TableSchema,
  query: Pick<EngineQuery, "fields" | "where"> & Partial<EngineQuery>,
) {
  const { fields, where } = query;
  const params: unknown[] = [];
  const param = (v: unknown) => (params.push(v), `$${params.length}`);
  const clauses = fields.map(indexable);
  where.forEach((v, i) => {
    const field = fields[i] as string;
    clauses.push(
      typeof v === "number"
        ? `${n(field)} = ${param(v)} AND ${s(field)} IS NULL`
        : `${n(field)} IS NULL AND ${s(field)} = ${param(bind(v))}`,
    );
  });
  const rest = fields.slice(where.length);
  if (query.after) clauses.push(resumeAfter(rest, query.after, !!query.reverse, param));
  const direction = query.reverse ? " DESC" : "";
  const order = [...fields.flatMap((f) => [n(f), s(f)]), "pk"].map((c) => c + direction).join(", ");
  const filter = clauses.length ? ` WHERE ${clauses.join(" AND ")}` : "";
  return { from: `FROM ${qualified(dbSchema, table.name)}${filter}`, order, params };
}

/**
 * "Strictly after `after`" (before, when `reverse`) in the index order of `rest` then `pk`, as
 * `k1 > a1 OR (k1 = a1 AND (k2 > a2 OR (... pk > p)))`, where a field's typed comparisons place
 * every number before every string. A redundant bound on the first column lets the scan start at
 * the cursor rather than filter from the beginning of the range.
 */
function resumeAfter(
  rest: readonly string[],
  after: readonly IndexValue[],
  reverse: boolean,
  param: (v: unknown) => string,
): string {
  const beyond = (field: string, v: IndexValue, p: string) => {
    if (typeof v === "number")
      return reverse ? `${n(field)} < ${p}` : `(${n(field)} > ${p} OR ${n(field)} IS NULL)`;
    return reverse ? `(${s(field)} < ${p} OR ${s(field)} IS NULL)` : `${s(field)} > ${p}`;
  };
  const equal = (field: string, v: IndexValue, p: string) =>
    `${typeof v === "number" ? n(field) : s(field)} = ${p}`;
  const pk = after[after.length - 1] as string;
  let condition = `pk ${reverse ? "<" : ">"} ${param(escapeKey(pk))}`;
  for (let i = rest.length - 1; i >= 0; i--) {
    const field = rest[i] as string;
    const v = after[i] as IndexValue;
    const p = param(bind(v));
    condition = `(${beyond(field, v, p)} OR (${equal(field, v, p)} AND ${condition}))`;
  }
  const first = rest[0];
  const firstValue = after[0] as IndexValue;
  if (first !== undefined && typeof firstValue === "string") {
    const p = param(bind(firstValue));
    condition = `${reverse ? `(${s(first)} <= ${p} OR ${s(first)} IS NULL)` : `${s(first)} >= ${p}`} AND ${condition}`;
  } else if (first !== undefined && reverse) {
    condition = `${n(first)} <= ${param(firstValue)} AND ${condition}`;
  }
  return condition;
}

/** The `SELECT` of a list query and its parameters. */
export function selectList(
  dbSchema: string,
  table: TableSchema,
  query: EngineQuery,
): { sql: string; params: unknown[] } {
  const { from, order, params } = plan(dbSchema, table, query);
  const limit = query.limit === undefined ? "" : ` LIMIT ${query.limit}`;
  return { sql: `SELECT doc ${from} ORDER BY ${order}${limit}`, params };
}

/** The `SELECT count(*)` of a range and its parameters. */
export function selectCount(
  dbSchema: string,
  table: TableSchema,
  range: Pick<EngineQuery, "fields" | "where">,
): { sql: string; params: unknown[] } {
  const { from, params } = plan(dbSchema, table, range);
  return { sql: `SELECT count(*) AS n ${from}`, params };
}
