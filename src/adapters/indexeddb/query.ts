import type { EngineQuery } from "../../core/storage/index.js";

/**
 * The key range of a query on an index whose keys are `[...fields, primaryKey]`. An array sorts
 * after every string and number, so `[...where, []]` bounds the keys starting with `where`.
 */
export function keyRange(
  query: Pick<EngineQuery, "where"> & Partial<Pick<EngineQuery, "after" | "reverse">>,
): IDBKeyRange {
  const where = [...query.where];
  const end = [...where, []];
  if (!query.after) return IDBKeyRange.bound(where, end);
  const resume = [...where, ...query.after];
  return query.reverse ? IDBKeyRange.bound(where, resume, false, true) : IDBKeyRange.bound(resume, end, true);
}
