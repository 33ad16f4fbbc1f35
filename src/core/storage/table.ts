import type { z } from "zod";
import type { Table } from "./port.js";

/** What `defineTable` takes: the schema of one logical table, typed by its record schema. */
export interface TableDefinition<S extends z.ZodType<object>> {
  readonly name: string;
  /** The field holding the primary key: a string field of the record. */
  readonly key: keyof z.output<S> & string;
  /** Index name to the record fields it orders by (see `TableSchema`). */
  readonly indexes: Readonly<Record<string, readonly (keyof z.output<S> & string)[]>>;
  /** The record schema: the one declaration of the record's type (`z.infer`). */
  readonly record: S;
}

/** A table handle with its record schema at hand. */
export type DefinedTable<S extends z.ZodType<object>> = Table<z.output<S>> & { readonly record: S };

/**
 * Declares a table from its record schema. Index fields and the key are checked against the
 * record's fields at compile time, and every transaction call on the handle is typed by it.
 *
 * @example
 * ```ts
 * const notes = defineTable({
 *   name: "notes",
 *   key: "id",
 *   indexes: { bySpace: ["space", "createdAt"] },
 *   record: z.object({ id: z.string(), space: z.string(), createdAt: z.string(), text: z.string() }),
 * });
 * const note = await tx.get(notes, id); // { id, space, createdAt, text } | undefined
 * ```
 */
export function defineTable<const S extends z.ZodType<object>>(
  definition: TableDefinition<S>,
): DefinedTable<S> {
  return definition as DefinedTable<S>;
}

/** The record type of a table handle. */
export type RecordOf<T> = T extends Table<infer R> ? R : never;
