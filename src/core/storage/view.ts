import type { BufferedTransaction, DirectTransaction, EngineQuery, EngineRange } from "./engine.js";
import { checkQuery } from "./order.js";
import { countPending, existsPending, getPending, listPending, type PendingWrites } from "./overlay.js";
import type { ListQuery, StoredRecord, Table, TableSchema, WriteTransaction } from "./port.js";

/**
 * The transaction a body sees, built by the kit once per transaction. Classes rather than
 * closures: a transaction costs one small object, whatever the number of its methods.
 */

/** A transaction's storage calls once checked: what differs between the two kinds of engine. */
export interface Operations {
  get(table: TableSchema, key: string): Promise<StoredRecord | undefined>;
  list(table: TableSchema, query: EngineQuery): Promise<StoredRecord[]>;
  count(table: TableSchema, range: EngineRange): Promise<number>;
  put(table: TableSchema, key: string, record: object): Promise<void>;
  delete(table: TableSchema, key: string): Promise<boolean>;
}

/** Calls go straight to the database transaction; the JSON text is both the copy and what is stored. */
export class DirectOperations implements Operations {
  constructor(private readonly tx: DirectTransaction) {}

  get(table: TableSchema, key: string) {
    return this.tx.get(table, key);
  }
  list(table: TableSchema, query: EngineQuery) {
    return this.tx.list(table, query);
  }
  count(table: TableSchema, range: EngineRange) {
    return this.tx.count(table, range);
  }
  put(table: TableSchema, key: string, record: object) {
    return this.tx.put(table, key, JSON.stringify(record));
  }
  delete(table: TableSchema, key: string) {
    return this.tx.delete(table, key);
  }
}

/** A deeply frozen JSON copy of `record`: what a JSON store would keep of it, read-only. */
export function frozenCopy(record: object): StoredRecord {
  return deepFreeze(JSON.parse(JSON.stringify(record)) as StoredRecord);
}

/** Freezes `value` and everything it holds. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  for (const member of Object.values(value)) deepFreeze(member);
  return Object.freeze(value);
}

/** Writes go to the overlay; reads of a table with pending writes merge them in. */
export class BufferedOperations implements Operations {
  constructor(
    private readonly tx: BufferedTransaction,
    private readonly pending: PendingWrites,
  ) {}

  get(table: TableSchema, key: string) {
    const overlay = this.pending.of(table);
    return overlay ? getPending(this.tx, overlay, table, key) : this.tx.get(table, key);
  }
  list(table: TableSchema, query: EngineQuery) {
    const overlay = this.pending.of(table);
    return overlay ? listPending(this.tx, overlay, table, query) : this.tx.list(table, query);
  }
  count(table: TableSchema, range: EngineRange) {
    const overlay = this.pending.of(table);
    return overlay ? countPending(this.tx, overlay, table, range) : this.tx.count(table, range);
  }
  async put(table: TableSchema, key: string, record: object) {
    // A JSON round trip both copies the record and keeps only what a JSON store would keep; frozen,
    // the copy can be handed to every later read (and kept by the engine) without copying again.
    this.pending.set(table, key, frozenCopy(record));
  }
  async delete(table: TableSchema, key: string) {
    const existed = await existsPending(this.tx, this.pending.of(table), table, key);
    this.pending.set(table, key, null);
    return existed;
  }
}

/**
 * The port's transaction over {@link Operations}, with the checks every adapter needs: the table
 * is one given to `init`, the body has not settled, writes happen in a write transaction, a record
 * has a string key, a query fits its index. Methods are not `async`: each returns the engine's
 * promise (one promise per call, not two) and turns a failed check into a rejection.
 */
export class TransactionView implements WriteTransaction {
  #active = true;

  constructor(
    private readonly tables: ReadonlyMap<string, TableSchema>,
    private readonly operations: Operations,
    private readonly writable: boolean,
  ) {}

  /** Ends the transaction: every later call fails. */
  end(): void {
    this.#active = false;
  }

  get<R extends object>(handle: Table<R>, key: string): Promise<R | undefined> {
    try {
      return this.operations.get(this.#use(handle), key) as Promise<R | undefined>;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  list<R extends object>(handle: Table<R>, query: ListQuery): Promise<R[]> {
    try {
      const table = this.#use(handle);
      const checked = this.#checked(table, query);
      if (checked.limit === 0) return Promise.resolve([]);
      return this.operations.list(table, checked) as Promise<R[]>;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  count(handle: Table<object>, query: Pick<ListQuery, "index" | "where">): Promise<number> {
    try {
      const table = this.#use(handle);
      // `count` ignores `after`, `limit` and `reverse`, whatever the caller passes.
      const { index, fields, where } = this.#checked(table, { index: query.index, where: query.where });
      return this.operations.count(table, { index, fields, where });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  put<R extends object>(handle: Table<R>, record: R): Promise<void> {
    try {
      const table = this.#writing(handle);
      const key = (record as StoredRecord | undefined)?.[table.key];
      if (typeof key !== "string") {
        throw new Error(`Record of "${table.name}" lacks string key "${table.key}"`);
      }
      return this.operations.put(table, key, record);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  delete(handle: Table<object>, key: string): Promise<boolean> {
    try {
      return this.operations.delete(this.#writing(handle), key);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #use(handle: TableSchema): TableSchema {
    if (!this.#active) throw new Error("The transaction has already finished");
    const table = this.tables.get(handle.name);
    if (!table) throw new Error(`Unknown table "${handle.name}"`);
    return table;
  }

  #writing(handle: TableSchema): TableSchema {
    if (!this.writable) throw new Error("Writes need a write transaction");
    return this.#use(handle);
  }

  #checked(table: TableSchema, query: ListQuery): EngineQuery {
    return {
      index: query.index,
      fields: checkQuery(table, query),
      where: query.where ?? [],
      after: query.after,
      limit: query.limit,
      reverse: !!query.reverse,
    };
  }
}
