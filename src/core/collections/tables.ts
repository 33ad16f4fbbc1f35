import * as z from "zod";
import { defaultLevel } from "../shared/roles.js";
import type { CountedRange } from "../shared/counters.js";
import { defineTable } from "../storage/table.js";

export const collectionRecord = z.object({
  id: z.string(),
  organization: z.string(),
  /** Parent collection id, or "" at the organization root. */
  parent: z.string(),
  title: z.string(),
  description: z.string().optional(),
  defaultLevel,
  /** Fractional-index key ordering siblings (shared by collections and spaces of an org). */
  position: z.string(),
  createdAt: z.string(),
});
export type CollectionRecord = z.infer<typeof collectionRecord>;

export const collectionsTable = defineTable({
  name: "collections",
  key: "id",
  indexes: {
    byOrganization: ["organization", "position"],
    byParent: ["organization", "parent", "position"],
  },
  record: collectionRecord,
});

/** The ranges collections are listed and counted by: an organization's, a parent's. */
export const collectionCounts: readonly CountedRange[] = [
  { table: collectionsTable, index: "byOrganization", prefix: 1 },
  { table: collectionsTable, index: "byParent", prefix: 2 },
];
