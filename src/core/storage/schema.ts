import type { StorageSchema, TableSchema } from "./port.js";

/**
 * What a storage schema may name, and what persistent adapters record about a database: one
 * definition for every adapter, so that a module whose tables work on one adapter works on all.
 *
 * Names. A table name, an index name and each field an index orders by are 1 to
 * {@link MAX_NAME_LENGTH} ASCII letters, digits and `_`, not starting with a digit: what SQL can
 * quote as an identifier without escaping, what IndexedDB can put in a key path, and short enough
 * for PostgreSQL (63 characters, less the `n_`/`s_` of a field's key columns). SQLite compares table
 * and index names ignoring letter case, so no two tables, and no two indexes of one table, may
 * differ in case only. {@link META_TABLE}, and names starting with `sqlite_` or `pg_` (which those
 * databases keep for themselves), are reserved. The kit checks all of this at `init`
 * (`checkSchemaNames`), before the engine sees the schema, so every adapter refuses the same
 * names with the same message, and an engine may quote names without checking them again.
 */

export const MAX_NAME_LENGTH = 61;

/**
 * The adapters' own table (or object store), where a persistent adapter records what it knows
 * about a database: the {@link SCHEMA_VERSION} record, and its own layout (IndexedDB's index
 * fields and commit counter, PostgreSQL's key columns).
 */
export const META_TABLE = "docsbase_meta";

/**
 * The schema-version record: under `key` in {@link META_TABLE}, the version of the stored layout.
 * Each persistent adapter stores it in its own way (SQLite and PostgreSQL as the text of a
 * `value` column, IndexedDB as an entry `{ key, value }`), writes `current` into a database it
 * creates, and refuses at `init` a database of a newer version ({@link checkSchemaVersion}). A
 * database without the record has version 1, the layout written before the record existed.
 */
export const SCHEMA_VERSION = { key: "schema_version", current: 1 } as const;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const RESERVED = /^(?:docsbase_meta$|sqlite_|pg_)/i;
const RULE = `names are 1 to ${MAX_NAME_LENGTH} letters, digits or _, not starting with a digit`;

/**
 * Refuses a name some adapter cannot store as it is; `what` and `where` place it in the message.
 *
 * @example
 * ```ts
 * checkName("bySpace", "index name"); // passes
 * checkName("by-space", "index name", ' on table "notes"');
 * // throws 'Invalid index name "by-space" on table "notes": names are 1 to 61 letters, ...'
 * ```
 */
export function checkName(name: string, what: string, where = ""): void {
  if (!NAME.test(name) || name.length > MAX_NAME_LENGTH) {
    throw new Error(`Invalid ${what} "${name}"${where}: ${RULE}`);
  }
}

/**
 * Refuses a schema whose names some adapter cannot store (see the module comment). `known` holds
 * the tables an earlier `init` of the same storage gave: a new name may not differ from one of
 * them in case only either.
 *
 * @example
 * ```ts
 * checkSchemaNames({ tables: [{ name: "notes", key: "id", indexes: { bySpace: ["space"] } }] });
 * checkSchemaNames({ tables: [{ name: "my$notes", key: "id", indexes: {} }] });
 * // throws 'Invalid table name "my$notes": names are 1 to 61 letters, digits or _, not starting with a digit'
 * ```
 */
export function checkSchemaNames(schema: StorageSchema, known: Iterable<string> = []): void {
  const tables = new Map<string, string>();
  for (const name of known) tables.set(name.toLowerCase(), name);
  for (const table of schema.tables) {
    checkName(table.name, "table name");
    if (RESERVED.test(table.name)) {
      throw new Error(`Table name "${table.name}" is reserved (so are names starting with sqlite_ or pg_)`);
    }
    const same = tables.get(table.name.toLowerCase());
    if (same !== undefined && same !== table.name) {
      throw new Error(
        `Duplicate table name "${table.name}": table names must differ in more than letter case`,
      );
    }
    tables.set(table.name.toLowerCase(), table.name);
    checkIndexes(table);
  }
}

function checkIndexes(table: TableSchema): void {
  const indexes = new Set<string>();
  for (const [index, fields] of Object.entries(table.indexes)) {
    checkName(index, "index name", ` on table "${table.name}"`);
    if (indexes.has(index.toLowerCase())) {
      throw new Error(
        `Duplicate index name "${index}" on table "${table.name}": index names must differ in more than letter case`,
      );
    }
    indexes.add(index.toLowerCase());
    for (const field of fields)
      checkName(field, "field name", ` in index "${index}" of table "${table.name}"`);
  }
}

/**
 * Refuses a database whose recorded schema version is newer than {@link SCHEMA_VERSION}'s
 * `current`; `recorded` is the record's value as the adapter stored it (text or number), or
 * `undefined` when the database has none (version 1).
 */
export function checkSchemaVersion(recorded: unknown): void {
  if (recorded === undefined || recorded === null) return;
  if (!(Number(recorded) <= SCHEMA_VERSION.current)) {
    throw new Error(
      `Unsupported schema version ${String(recorded)}: this docsbase reads version ${SCHEMA_VERSION.current} and older`,
    );
  }
}
