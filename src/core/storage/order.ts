import type { IndexValue, ListQuery, StoredRecord, TableSchema } from "./port.js";

/**
 * Helpers that give every adapter the same ordering semantics as the port describes. Adapters
 * that order natively (SQL, IndexedDB) do not need them; the memory adapter does, and the
 * contract suite holds the others to the same results.
 */

/** The index tuple of a record (index fields then primary key), or undefined when not indexable. */
export function indexTuple(
  record: StoredRecord,
  fields: readonly string[],
  key: string,
): IndexValue[] | undefined {
  const tuple: IndexValue[] = [];
  for (const field of [...fields, key]) {
    const value = record[field];
    if (typeof value !== "string" && typeof value !== "number") return undefined;
    tuple.push(value);
  }
  return tuple;
}

/** Compares two index tuples lexicographically; a shorter prefix sorts first. */
export function compareTuples(a: readonly IndexValue[], b: readonly IndexValue[]): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a[i] as IndexValue;
    const y = b[i] as IndexValue;
    if (x === y) continue;
    if (typeof x === "number" && typeof y === "number") return x < y ? -1 : 1;
    // Mixed types never happen in core (see TableSchema); order numbers first to stay total.
    if (typeof x !== typeof y) return typeof x === "number" ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/** The fields of an index, or an error naming the unknown index. */
export function indexFields(table: TableSchema, index: string): readonly string[] {
  const fields = table.indexes[index];
  if (!fields) throw new Error(`Unknown index "${index}" on table "${table.name}"`);
  return fields;
}

/** Validates a query against its index, so that every adapter rejects the same mistakes. */
export function checkQuery(table: TableSchema, query: ListQuery): readonly string[] {
  const fields = indexFields(table, query.index);
  const where = query.where ?? [];
  if (where.length > fields.length) {
    throw new Error(`Index "${query.index}" has ${fields.length} fields, got ${where.length} in where`);
  }
  if (query.after && query.after.length !== fields.length - where.length + 1) {
    throw new Error(`"after" must hold the remaining index fields and the primary key`);
  }
  if (query.limit !== undefined && (!Number.isInteger(query.limit) || query.limit < 0)) {
    throw new Error(`"limit" must be a non-negative integer`);
  }
  return fields;
}
