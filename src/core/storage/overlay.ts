import type { EngineQuery, EngineRange, EngineReader, TableWrites } from "./engine.js";
import { compareTuples, indexTuple } from "./order.js";
import type { IndexValue, StoredRecord, TableSchema } from "./port.js";

/**
 * The pending writes of one write body on a buffered engine, and the reads that merge them over
 * the engine's committed data, so that a body reads its own writes (read-your-writes). The engine
 * never sees a pending write before `apply`.
 */
export class PendingWrites {
  readonly #tables = new Map<string, { table: TableSchema; records: Map<string, StoredRecord | null> }>();

  /** The pending writes of one table: key to record, `null` for a delete. */
  of(table: TableSchema): ReadonlyMap<string, StoredRecord | null> | undefined {
    return this.#tables.get(table.name)?.records;
  }

  /** Records a put (`record`, a frozen JSON copy this overlay now owns) or a delete (`null`). */
  set(table: TableSchema, key: string, record: StoredRecord | null): void {
    const found = this.#tables.get(table.name);
    if (found) found.records.set(key, record);
    else this.#tables.set(table.name, { table, records: new Map([[key, record]]) });
  }

  /** Every table's writes, for `apply`; empty when the body wrote nothing. */
  writes(): TableWrites[] {
    return [...this.#tables.values()];
  }
}

/** One row of an ordered result: the record's whole index tuple (fields, then primary key). */
interface Row {
  readonly tuple: readonly IndexValue[];
  readonly record: StoredRecord;
}

const hasPrefix = (tuple: readonly IndexValue[] | undefined, where: readonly IndexValue[]) =>
  tuple !== undefined && where.every((value, i) => tuple[i] === value);

/** Whether a record belongs to the range of `count` (an index and an equality prefix). */
function inRange(record: StoredRecord | null | undefined, table: TableSchema, range: EngineRange): boolean {
  return !!record && hasPrefix(indexTuple(record, range.fields, table.key), range.where);
}

/** The pending records that fall in the query's range (frozen, shared), in the query's order. */
function pendingRows(
  overlay: ReadonlyMap<string, StoredRecord | null>,
  table: TableSchema,
  query: EngineQuery,
): Row[] {
  const after = query.after ? [...query.where, ...query.after] : undefined;
  const direction = query.reverse ? -1 : 1;
  const rows: Row[] = [];
  for (const record of overlay.values()) {
    const tuple = record && indexTuple(record, query.fields, table.key);
    if (!tuple || !hasPrefix(tuple, query.where)) continue;
    if (after && compareTuples(tuple, after) * direction <= 0) continue;
    rows.push({ tuple, record });
  }
  return rows.sort((a, b) => compareTuples(a.tuple, b.tuple) * direction);
}

/** Merges two lists that are each already in the query's order. */
function merge(a: readonly Row[], b: readonly Row[], reverse: boolean): Row[] {
  const direction = reverse ? -1 : 1;
  const merged: Row[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as Row;
    const y = b[j] as Row;
    if (compareTuples(x.tuple, y.tuple) * direction <= 0) {
      merged.push(x);
      i++;
    } else {
      merged.push(y);
      j++;
    }
  }
  return merged.concat(a.slice(i), b.slice(j));
}

/** `get` through the overlay: the pending record (frozen, shared), or else the committed one. */
export async function getPending(
  reader: EngineReader,
  overlay: ReadonlyMap<string, StoredRecord | null>,
  table: TableSchema,
  key: string,
): Promise<StoredRecord | undefined> {
  if (!overlay.has(key)) return reader.get(table, key);
  const record = overlay.get(key);
  return record ?? undefined;
}

/**
 * `list` through the overlay: the committed range without the keys written since, merged with the
 * pending records in range. At most one committed row per pending key drops out, so asking the
 * engine for `limit` plus the number of pending keys always leaves enough rows.
 */
export async function listPending(
  reader: EngineReader,
  overlay: ReadonlyMap<string, StoredRecord | null>,
  table: TableSchema,
  query: EngineQuery,
): Promise<StoredRecord[]> {
  const limit = query.limit === undefined ? undefined : query.limit + overlay.size;
  const committed: Row[] = [];
  for (const record of await reader.list(table, { ...query, limit })) {
    if (overlay.has(record[table.key] as string)) continue;
    committed.push({ tuple: indexTuple(record, query.fields, table.key) ?? [], record });
  }
  const rows = merge(committed, pendingRows(overlay, table, query), query.reverse);
  return (query.limit === undefined ? rows : rows.slice(0, query.limit)).map((row) => row.record);
}

/** `count` through the overlay: the committed count, less the replaced records in range, plus the pending ones. */
export async function countPending(
  reader: EngineReader,
  overlay: ReadonlyMap<string, StoredRecord | null>,
  table: TableSchema,
  range: EngineRange,
): Promise<number> {
  const keys = [...overlay.keys()];
  const [count, replaced] = await Promise.all([
    reader.count(table, range),
    Promise.all(keys.map((key) => reader.get(table, key))),
  ]);
  let total = count;
  keys.forEach((key, i) => {
    if (inRange(replaced[i], table, range)) total--;
    if (inRange(overlay.get(key), table, range)) total++;
  });
  return total;
}

/** `delete`'s answer through the overlay: whether the record exists as this body sees it. */
export async function existsPending(
  reader: EngineReader,
  overlay: ReadonlyMap<string, StoredRecord | null> | undefined,
  table: TableSchema,
  key: string,
): Promise<boolean> {
  if (overlay?.has(key)) return overlay.get(key) !== null;
  return (await reader.get(table, key)) !== undefined;
}
