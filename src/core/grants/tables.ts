import * as z from "zod";
import type { CountedRange } from "../shared/counters.js";
import { memberRole } from "../shared/roles.js";
import { defineTable } from "../storage/table.js";

/** Who a grant is given to: one member of the organization, or one of its teams. */
export const grantee = z.enum(["user", "team"]);
export type Grantee = z.infer<typeof grantee>;

/** What a grant is on: one space or one collection. */
export const grantTarget = z.enum(["space", "collection"]);
export type GrantTarget = z.infer<typeof grantTarget>;

export const grantRecord = z.object({
  /** {@link grantKey}: one grant per (object, grantee), found by a point read. */
  key: z.string(),
  organization: z.string(),
  /** Whether `object` is a space or a collection. */
  target: grantTarget,
  /** The space or collection id. */
  object: z.string(),
  granteeKind: grantee,
  /** The user or team id. */
  grantee: z.string(),
  role: memberRole,
  /** Insertion order (see shared/sequence.ts): the order of the object's permission lists. */
  seq: z.number(),
  createdAt: z.string(),
});
export type GrantRecord = z.infer<typeof grantRecord>;

/**
 * The grants of roles on spaces and collections. Resolving a role reads them by key, one per
 * (object above the content, the caller or one of their teams), never a range; lists of an
 * object's grants page `byObject`; what a grantee holds (to drop it, or to build a guest's visible
 * set) is `byGrantee`.
 */
export const grantsTable = defineTable({
  name: "grants",
  key: "key",
  indexes: {
    byObject: ["object", "granteeKind", "seq"],
    byGrantee: ["organization", "granteeKind", "grantee"],
  },
  record: grantRecord,
});

/** The key of the grant to `granteeId` (a user or team id) on `object` (a space or collection id). */
export const grantKey = (object: string, kind: Grantee, granteeId: string) =>
  `${object}:${kind}:${granteeId}`;

/** The ranges grants are listed and counted by: an object's users, an object's teams. */
export const grantCounts: readonly CountedRange[] = [{ table: grantsTable, index: "byObject", prefix: 2 }];
