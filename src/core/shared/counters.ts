import * as z from "zod";
import { indexTuple } from "../storage/order.js";
import type {
  IndexValue,
  ListQuery,
  ReadTransaction,
  Storage,
  StorageSchema,
  StoredRecord,
  Table,
  WriteTransaction,
} from "../storage/port.js";
import { defineTable } from "../storage/table.js";

/**
 * Maintained counts (docs/api.md, "Lists"): the `count` of a list is read from one counter record
 * instead of counting its index range, which costs a scan of the range on SQL engines (SQLite and
 * PostgreSQL count an index range row by row) and so grows with the organization.
 *
 * A module declares the ranges it lists ({@link CountedRange}: an index and how many of its leading
 * fields a list fixes). {@link countedStorage} wraps the storage core uses, so that every write
 * transaction, whoever runs it, keeps those counters in the same transaction as the put or delete
 * that changes them, and `tx.count` on a declared range answers from its counter. A write cannot
 * forget a counter, because no write bypasses the wrapper.
 *
 * A missing counter means "not known": `count` then counts the range itself (exact, and cheap for
 * the empty ranges that a counter at zero leaves behind), and the first write to the range starts
 * the counter from that count. Databases written before counters existed get theirs once, on open,
 * from one scan of each declared index ({@link CountedStorage.init}).
 */

/** A family of ranges whose count is kept: `index` of `table` with its first `prefix` fields fixed. */
export interface CountedRange {
  readonly table: Table<object>;
  readonly index: string;
  readonly prefix: number;
}

export const countersTable = defineTable({
  name: "counters",
  key: "key",
  indexes: {},
  record: z.object({ key: z.string(), count: z.number() }),
});

/** The key of one range's counter. Markers (an index's counters are all written) end in a number. */
const counterKey = (range: CountedRange, where: readonly IndexValue[]) =>
  JSON.stringify([range.table.name, range.index, where]);
const markerKey = (range: CountedRange) => JSON.stringify([range.table.name, range.index, range.prefix]);

/**
 * Storage whose write transactions keep the counters of `ranges` and whose `count` answers from
 * them; `storage` itself when there is nothing to count.
 *
 * @example
 * ```ts
 * const spaces: CountedRange = { table: spacesTable, index: "byOrganization", prefix: 2 };
 * const storage = countedStorage(sqliteStorage({ path }), [spaces]);
 * await storage.init({ tables: [spacesTable, countersTable] });
 * // One record read, however many spaces the organization holds:
 * await storage.read((tx) => tx.count(spacesTable, { index: "byOrganization", where: [org, "live"] }));
 * ```
 */
export function countedStorage(storage: Storage, ranges: readonly CountedRange[]): Storage {
  if (ranges.length === 0) return storage;
  const counted = new Counted(ranges);
  return {
    async init(schema: StorageSchema) {
      const tables = schema.tables.some((table) => table.name === countersTable.name)
        ? schema.tables
        : [...schema.tables, countersTable];
      await storage.init({ tables });
      await storage.write((tx) => counted.initialise(tx));
    },
    read: (fn) => storage.read((tx) => fn(counted.reading(tx))),
    write: (fn) => storage.write((tx) => fn(counted.writing(tx))),
    close: () => storage.close(),
  };
}

class Counted {
  readonly #byTable = new Map<string, CountedRange[]>();

  constructor(readonly ranges: readonly CountedRange[]) {
    for (const range of ranges) {
      const fields = range.table.indexes[range.index];
      if (!fields || range.prefix < 0 || range.prefix > fields.length) {
        throw new Error(`Cannot count ${range.table.name}.${range.index} by ${range.prefix} fields`);
      }
      this.#byTable.set(range.table.name, [...(this.#byTable.get(range.table.name) ?? []), range]);
    }
  }

  /** Writes the counters of every index whose marker is missing, from one scan of the index. */
  async initialise(tx: WriteTransaction): Promise<void> {
    for (const range of this.ranges) {
      if (await tx.get(countersTable, markerKey(range))) continue;
      const tally = new Map<string, number>();
      for (const record of await tx.list(range.table, { index: range.index })) {
        const key = this.#keyOf(range, record);
        if (key !== undefined) tally.set(key, (tally.get(key) ?? 0) + 1);
      }
      for (const [key, count] of tally) await tx.put(countersTable, { key, count });
      await tx.put(countersTable, { key: markerKey(range), count: tally.size });
    }
  }

  reading(tx: ReadTransaction): ReadTransaction {
    return new CountedRead(tx, this);
  }

  /** `count`, from the counter of its range when there is one. */
  async count(tx: ReadTransaction, table: Table<object>, query: Pick<ListQuery, "index" | "where">) {
    const where = query.where ?? [];
    const range = this.#byTable
      .get(table.name)
      ?.find((candidate) => candidate.index === query.index && candidate.prefix === where.length);
    if (!range) return tx.count(table, query);
    const counter = await tx.get(countersTable, counterKey(range, where));
    return counter ? counter.count : tx.count(table, query);
  }

  writing(tx: WriteTransaction): WriteTransaction {
    return {
      get: (table, key) => tx.get(table, key),
      list: (table, query) => tx.list(table, query),
      count: (table, query) => this.count(tx, table, query),
      put: async (table, record) => {
        const ranges = this.#byTable.get(table.name);
        if (!ranges) return tx.put(table, record);
        const key = (record as StoredRecord)[table.key];
        const before = typeof key === "string" ? await tx.get(table, key) : undefined;
        const counters = await this.#changes(tx, ranges, before, record);
        await tx.put(table, record);
        await this.#store(tx, counters);
      },
      delete: async (table, key) => {
        const ranges = this.#byTable.get(table.name);
        if (!ranges) return tx.delete(table, key);
        const before = await tx.get(table, key);
        const counters = before ? await this.#changes(tx, ranges, before, undefined) : new Map();
        const existed = await tx.delete(table, key);
        await this.#store(tx, counters);
        return existed;
      },
    };
  }

  /** The counters a write from `before` to `after` changes, with their new values. */
  async #changes(
    tx: ReadTransaction,
    ranges: readonly CountedRange[],
    before: object | undefined,
    after: object | undefined,
  ): Promise<Map<string, number>> {
    const next = new Map<string, number>();
    for (const range of ranges) {
      const from = before && this.#where(range, before);
      const to = after && this.#where(range, after);
      if (from && to && JSON.stringify(from) === JSON.stringify(to)) continue;
      for (const [where, delta] of [
        [from, -1],
        [to, 1],
      ] as const) {
        if (!where) continue;
        const key = counterKey(range, where);
        // Counted before the write, so a missing counter starts from the range as it was.
        const current = next.get(key) ?? (await tx.get(countersTable, key))?.count;
        const base = current ?? (await tx.count(range.table, { index: range.index, where }));
        next.set(key, base + delta);
      }
    }
    return next;
  }

  async #store(tx: WriteTransaction, counters: ReadonlyMap<string, number>): Promise<void> {
    for (const [key, count] of counters) {
      // A counter at zero goes: counting its empty range is cheap, and no record is left behind.
      if (count > 0) await tx.put(countersTable, { key, count });
      else await tx.delete(countersTable, key);
    }
  }

  /** The fixed fields of the range holding `record`, or undefined when the index leaves it out. */
  #where(range: CountedRange, record: object): IndexValue[] | undefined {
    const fields = range.table.indexes[range.index]!;
    return indexTuple(record as StoredRecord, fields, range.table.key)?.slice(0, range.prefix);
  }

  #keyOf(range: CountedRange, record: object): string | undefined {
    const where = this.#where(range, record);
    return where && counterKey(range, where);
  }
}

/**
 * A read transaction whose `count` answers from the counters. A class, not an object of closures:
 * every request's read transaction builds one, and this costs one small object.
 */
class CountedRead implements ReadTransaction {
  constructor(
    private readonly tx: ReadTransaction,
    private readonly counted: Counted,
  ) {}

  get<R extends object>(table: Table<R>, key: string): Promise<R | undefined> {
    return this.tx.get(table, key);
  }
  list<R extends object>(table: Table<R>, query: ListQuery): Promise<R[]> {
    return this.tx.list(table, query);
  }
  count(table: Table<object>, query: Pick<ListQuery, "index" | "where">): Promise<number> {
    return this.counted.count(this.tx, table, query);
  }
}
