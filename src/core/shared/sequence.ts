import { z } from "zod";
import type { WriteTransaction } from "../storage/port.js";
import { defineTable } from "../storage/table.js";

/**
 * Insertion order. Lists "in creation order" cannot sort by timestamps: records made in the same
 * millisecond tie (and would then fall back to random ids), and an injected or corrected clock can
 * go backwards. Instead each such record takes the next value of one counter stored beside the
 * data. It is read and written inside the caller's write transaction, which every adapter
 * serializes, so values are unique and increasing even across processes sharing one database.
 */
export const sequencesTable = defineTable({
  name: "sequences",
  key: "name",
  indexes: {},
  record: z.object({ name: z.string(), value: z.number() }),
});

export async function nextSequence(tx: WriteTransaction): Promise<number> {
  const current = await tx.get(sequencesTable, "insertion");
  const value = (current?.value ?? 0) + 1;
  await tx.put(sequencesTable, { name: "insertion", value });
  return value;
}
