/**
 * The storage port: the only way core reaches persistent data.
 *
 * It is deliberately small so that it can be served by a JavaScript `Map`, one SQL table per
 * logical table (SQLite, PostgreSQL) and IndexedDB object stores with compound indexes alike.
 * Everything above it (cursor encoding, id generation, validation, permissions) lives in core.
 *
 * Records are plain JSON values (objects of strings, numbers, booleans, null, arrays and nested
 * objects). Adapters store a copy: mutating a record after `put` never changes what is stored.
 *
 * A record a read (`get`, `list`) returns is read-only, so that a read costs no copy: the memory
 * adapter, and a write transaction reading its own pending writes on any buffered engine, hand out
 * the one deeply frozen object they keep, so that mutating it throws a `TypeError` (modules are
 * strict code); SQLite, PostgreSQL and IndexedDB hand out a fresh object per read. Either way a
 * mutation never changes what is stored, and core never mutates what it read: it writes a changed
 * copy (`tx.put(table, { ...record, title })`).
 *
 * Adapters implement it through the kit (`createStorage` in `kit.ts`): they supply an engine
 * (`engine.ts`), and the kit adds what the port requires of all of them (table lookup, the closed
 * and finished checks, key checks, JSON copies, frozen pending records, query checks,
 * read-your-writes for engines that buffer writes).
 */

/** A value that an index can order and compare. Strings compare by code unit, numbers numerically. */
export type IndexValue = string | number;

/** One JSON record. Its primary key is the string field named by {@link TableSchema.key}. */
export type StoredRecord = Record<string, unknown>;

/**
 * A logical table. `indexes` maps an index name to the record fields it orders by.
 *
 * Invariants every adapter keeps:
 * - A record appears in an index only when every field of that index holds a string or a number
 *   (IndexedDB cannot index booleans, `null` or missing keys, so no adapter does).
 * - A query on an index returns records ordered by the index fields, then by primary key, which
 *   makes every order total and every cursor unambiguous.
 * - Within one field position, core stores values of a single type (all strings or all numbers).
 *   Core keeps ordered string values ASCII (ids, timestamps, position keys), so byte order, UTF-16
 *   order and SQL BINARY collation agree.
 */
export interface TableSchema {
  readonly name: string;
  readonly key: string;
  readonly indexes: Readonly<Record<string, readonly string[]>>;
}

declare const RECORD: unique symbol;

/**
 * A table handle: its schema, carrying the type of its records so that `tx.get(spaces, id)` is a
 * `SpaceRecord` without a type argument. The record type is a phantom: it exists for the compiler
 * only. Core declares handles with `defineTable` (see `src/core/storage/table.ts`), whose record
 * type comes from a zod schema.
 */
export interface Table<R extends object = StoredRecord> extends TableSchema {
  readonly [RECORD]?: R;
}

/**
 * The whole schema an adapter is initialised with. Table names, index names and index fields are
 * ASCII identifiers of at most 61 characters, and a few names are reserved (`schema.ts`).
 */
export interface StorageSchema {
  readonly tables: readonly TableSchema[];
}

/**
 * A range query on one index.
 *
 * `where` fixes the first `where.length` fields of the index by equality. The result is ordered by
 * the remaining index fields then the primary key (descending when `reverse`). `after` resumes a
 * listing: it holds the values of those remaining fields followed by the primary key of the last
 * record already seen, and the result starts strictly after (or, when `reverse`, strictly before)
 * that position. Records written between two calls are therefore neither skipped nor repeated
 * unless they sort before the resume point.
 */
export interface ListQuery {
  readonly index: string;
  readonly where?: readonly IndexValue[];
  readonly after?: readonly IndexValue[];
  /** Maximum number of records to return; omitted means all. */
  readonly limit?: number;
  readonly reverse?: boolean;
}

/**
 * Reads inside a transaction. Every read sees the transaction's own earlier writes. A transaction
 * object is valid only while its body runs: a call after the body settled fails.
 */
export interface ReadTransaction {
  /** The record with this primary key, or `undefined`. Read-only (see the module comment). */
  get<R extends object>(table: Table<R>, key: string): Promise<R | undefined>;
  /** Records of one index range, ordered as {@link ListQuery} describes; each read-only. */
  list<R extends object>(table: Table<R>, query: ListQuery): Promise<R[]>;
  /** How many records `list` would return for the same `index` and `where` without a limit. */
  count(table: Table<object>, query: Pick<ListQuery, "index" | "where">): Promise<number>;
}

/** Reads and writes inside a write transaction. */
export interface WriteTransaction extends ReadTransaction {
  /** Inserts or replaces the record whose primary key is `record[table.key]`. */
  put<R extends object>(table: Table<R>, record: R): Promise<void>;
  /** Removes the record; returns whether it existed. */
  delete(table: Table<object>, key: string): Promise<boolean>;
}

/**
 * A storage adapter.
 *
 * Transactions:
 * - `write(fn)` is atomic: when `fn` resolves, all its writes become visible together; when it
 *   throws or rejects, none of them ever becomes visible and the error is rethrown unchanged.
 * - Write transactions are serializable: two concurrent `write` calls behave as if one ran entirely
 *   before the other.
 * - `read(fn)` sees one consistent committed state for its whole duration.
 * - Transaction bodies do storage work and pure computation only. They must not call `read` or
 *   `write` again (adapters may serialize transactions, so nesting would wait forever) and must not
 *   await network I/O (IndexedDB commits a transaction that is left idle).
 * - A write body may run more than once: an adapter whose database refuses a commit for
 *   serialization (PostgreSQL) rolls back and calls it again. Only the run that commits counts,
 *   so a body must not act outside its transaction in a way a second run would repeat.
 */
export interface Storage {
  /** Creates missing tables and indexes. Idempotent; called once by core before any transaction. */
  init(schema: StorageSchema): Promise<void>;
  read<T>(fn: (tx: ReadTransaction) => Promise<T>): Promise<T>;
  write<T>(fn: (tx: WriteTransaction) => Promise<T>): Promise<T>;
  /**
   * Releases resources once the transactions already started have settled. Further calls fail
   * ("Storage is closed"); calling `close` again returns the same promise.
   */
  close(): Promise<void>;
}
