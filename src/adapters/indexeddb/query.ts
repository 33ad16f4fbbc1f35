import {
  compareTuples,
  indexTuple,
  type IndexValue,
  type ListQuery,
  type StoredRecord,
  type TableSchema,
} from "../../core/storage/index.js";

/** Pending writes of one write transaction: table, then key, then the record or `null` for a delete. */
export type Pending = Map<string, Map<string, StoredRecord | null>>;

/** One ordered result row: the record's index tuple (where prefix included) and the record. */
export interface Row {
  readonly tuple: readonly IndexValue[];
  readonly record: StoredRecord;
}

/**
 * The key range of a query on an index whose keys are `[...fields, primaryKey]`. An array sorts
 * after every string and number, so `[...where, []]` bounds the keys starting with `where`.
 */
export function keyRange(query: Pick<ListQuery, "where" | "after" | "reverse">): IDBKeyRange {
  const where = [...(query.where ?? [])];
  const end = [...where, []];
  if (!query.after) return IDBKeyRange.bound(where, end);
  const resume = [...where, ...query.after];
  return query.reverse ? IDBKeyRange.bound(where, resume, false, true) : IDBKeyRange.bound(resume, end, true);
}

export const hasPrefix = (tuple: readonly IndexValue[] | undefined, where: readonly IndexValue[]) =>
  tuple !== undefined && where.every((value, i) => tuple[i] === value);

/** The pending records of one table that fall in the queried range, copied, in the query's order. */
export function pendingRows(
  overlay: ReadonlyMap<string, StoredRecord | null>,
  table: TableSchema,
  fields: readonly string[],
  query: ListQuery,
): Row[] {
  const where = query.where ?? [];
  const after = query.after ? [...where, ...query.after] : undefined;
  const direction = query.reverse ? -1 : 1;
  const rows: Row[] = [];
  for (const record of overlay.values()) {
    const tuple = record && indexTuple(record, fields, table.key);
    if (!tuple || !hasPrefix(tuple, where)) continue;
    if (after && compareTuples(tuple, after) * direction <= 0) continue;
    rows.push({ tuple, record: structuredClone(record) });
  }
  return rows.sort((a, b) => compareTuples(a.tuple, b.tuple) * direction);
}

/** Merges two lists that are each already in the query's order. */
export function merge(a: Row[], b: Row[], reverse: boolean): Row[] {
  const direction = reverse ? -1 : 1;
  const merged: Row[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as Row;
    const y = b[j] as Row;
    if (compareTuples(x.tuple, y.tuple) * direction <= 0) (merged.push(x), i++);
    else (merged.push(y), j++);
  }
  return merged.concat(a.slice(i), b.slice(j));
}
