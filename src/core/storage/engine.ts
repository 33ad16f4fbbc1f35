import type { IndexValue, StorageSchema, StoredRecord, TableSchema } from "./port.js";

/**
 * The engine interface: what an adapter supplies to `createStorage` (see `kit.ts`). The kit
 * does everything adapters used to repeat (table lookup, the closed and finished checks, the key
 * check, JSON copies, query checks, and for buffered engines the pending-write overlay), so an
 * engine only talks to its database.
 *
 * Two kinds, by how a write transaction reaches the database:
 * - {@link DirectEngine}: writes go through to a real database transaction as the body runs, and
 *   the database answers reads with them (SQLite, PostgreSQL). No overlay.
 * - {@link BufferedEngine}: the kit keeps a write body's puts and deletes, merges them into its
 *   reads, and hands them to the engine once, when the body resolves (memory, IndexedDB).
 *
 * Every table an engine is given is one of the schema's tables, as given to `init`, whose names
 * the kit has checked (`schema.ts`: ASCII identifiers, none reserved, so they can be quoted as they
 * are); every key is a string; every query has been checked against its index.
 */

/** A list query checked against its index: every field filled in, nothing left to validate. */
export interface EngineQuery {
  /** An index declared on the table. */
  readonly index: string;
  /** The fields of that index, in order (`table.indexes[index]`). */
  readonly fields: readonly string[];
  /** Values of the first `where.length` fields, matched by equality; at most `fields.length`. */
  readonly where: readonly IndexValue[];
  /** When set: the remaining fields then the primary key, exactly `fields.length - where.length + 1` values. */
  readonly after: readonly IndexValue[] | undefined;
  /** A positive integer, or `undefined` for no limit. The kit answers `limit: 0` without the engine. */
  readonly limit: number | undefined;
  readonly reverse: boolean;
}

/** The range `count` covers: `after`, `limit` and `reverse` never change a count. */
export type EngineRange = Pick<EngineQuery, "index" | "fields" | "where">;

/** Reads, the same for both kinds of engine. They see the database as this transaction sees it. */
export interface EngineReader {
  /**
   * The record with this primary key, or `undefined`: a fresh object the engine keeps no reference
   * to, or (a buffered engine) the deeply frozen record `apply` handed it, shared by every read.
   * The kit hands it to the caller as it is.
   */
  get(table: TableSchema, key: string): Promise<StoredRecord | undefined>;
  /**
   * The records of the query's range (fresh or frozen, as `get`), in index order: the fields past `where`, then
   * the primary key, descending when `reverse`; strictly after `after` in that order; at most
   * `limit`. A record is in an index only when each of its fields holds a string or a number;
   * numbers sort before strings, strings by UTF-16 code unit (see `compareTuples`).
   */
  list(table: TableSchema, query: EngineQuery): Promise<StoredRecord[]>;
  /** How many records `list` would return for this index and `where`, with no `after` or `limit`. */
  count(table: TableSchema, range: EngineRange): Promise<number>;
}

/** The transaction of a {@link DirectEngine}: reads and writes on one database transaction. */
export interface DirectTransaction extends EngineReader {
  /**
   * Inserts or replaces the record whose primary key is `key`. `json` is the record as
   * `JSON.stringify` wrote it (the kit made it to copy the record); store that text or its parse.
   * Later reads of the same transaction see the new record.
   */
  put(table: TableSchema, key: string, json: string): Promise<void>;
  /** Removes the record; resolves whether it existed (as this transaction saw it). */
  delete(table: TableSchema, key: string): Promise<boolean>;
}

/** The writes of one table in a finished write body, in the order their keys were first written. */
export interface TableWrites {
  readonly table: TableSchema;
  /**
   * Primary key to the new record, or `null` for a delete. Records are deeply frozen JSON copies the
   * engine may keep and hand out to later reads without copying.
   */
  readonly records: ReadonlyMap<string, StoredRecord | null>;
}

/** The transaction of a {@link BufferedEngine}: committed reads, and one `apply` at the end. */
export interface BufferedTransaction extends EngineReader {
  /**
   * Makes every write of a resolved write body visible at once: all of them, or (when it rejects)
   * none. Called at most once per write transaction, after the body resolved, only when it wrote
   * something, and never in a read transaction. Reads answer committed data only: the kit merges
   * its own pending writes into them.
   */
  apply(writes: readonly TableWrites[]): Promise<void>;
}

/** What both kinds of engine do around their transactions. */
interface EngineLifecycle<Tx> {
  /**
   * Creates the missing tables and indexes of `schema`, keeping existing data, and refuses a
   * database of a newer schema version (`checkSchemaVersion`). Idempotent. The kit calls it
   * before any transaction on those tables, never after `close`, and records the tables once it
   * resolves.
   */
  init(schema: StorageSchema): Promise<void>;
  /**
   * Runs `body` in one transaction and resolves with what it resolves; rejects with exactly what it
   * rejects with. `"write"` transactions are atomic and serializable with every other transaction on
   * the same data; a `"read"` sees one committed state throughout. Serializing (a lock, `BEGIN
   * IMMEDIATE`, a Web Lock) is the engine's business. When the body rejects, nothing it wrote stays.
   *
   * The engine may call `body` again after undoing a failed attempt (a PostgreSQL serialization
   * failure, for one); each call gets a new transaction view from the kit.
   */
  transaction<T>(mode: "read" | "write", body: (tx: Tx) => Promise<T>): Promise<T>;
  /** Releases the engine's resources. Called once, after every transaction of this storage settled. */
  close(): Promise<void>;
}

/** An engine whose writes go through to a real database transaction (SQLite, PostgreSQL). */
export interface DirectEngine extends EngineLifecycle<DirectTransaction> {
  readonly writes: "direct";
}

/** An engine that receives a write transaction's changes when its body resolves (memory, IndexedDB). */
export interface BufferedEngine extends EngineLifecycle<BufferedTransaction> {
  readonly writes: "buffered";
}

/** What an adapter hands to `createStorage`. */
export type StorageEngine = DirectEngine | BufferedEngine;
