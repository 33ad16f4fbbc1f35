import * as z from "zod";
import type { WriteTransaction } from "../storage/port.js";
import { defineTable } from "../storage/table.js";

/**
 * Insertion order. Lists "in creation order" cannot sort by timestamps: records made in the same
 * millisecond tie (and would then fall back to random ids), and an injected or corrected clock can
 * go backwards. Instead each such record takes the next value of a counter stored beside the
 * data. It is read and written inside the caller's write transaction, which every adapter
 * serializes, so values are unique and increasing even across processes sharing one database.
 *
 * A counter serves one scope: the records of one list share one (the comments of a space, the
 * change requests of an organization). One counter for everything would make every write of every
 * space touch one row, and instances sharing a PostgreSQL database would refuse each other's
 * writes on it. A scope's counter starts from the global one the first time it is used, so it
 * continues above every value given out before scoped counters existed.
 */
export const sequencesTable = defineTable({
  name: "sequences",
  key: "name",
  indexes: {},
  record: z.object({ name: z.string(), value: z.number() }),
});

const GLOBAL = "insertion";

/**
 * The next value of the counter of `scope`: the narrowest parent that covers every list ordering
 * the record by `seq` (a space for its comments, an organization for its change requests). Without
 * a scope, the global counter, for records whose lists cross organizations (memberships of a user).
 */
export async function nextSequence(tx: WriteTransaction, scope?: string): Promise<number> {
  const name = scope === undefined ? GLOBAL : `${GLOBAL}:${scope}`;
  const current =
    (await tx.get(sequencesTable, name)) ??
    (scope === undefined ? undefined : await tx.get(sequencesTable, GLOBAL));
  const value = (current?.value ?? 0) + 1;
  await tx.put(sequencesTable, { name, value });
  return value;
}
