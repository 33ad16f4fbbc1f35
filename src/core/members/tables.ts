import * as z from "zod";
import { memberRoleOrGuest } from "../shared/roles.js";
import type { CountedRange } from "../shared/counters.js";
import { defineTable } from "../storage/table.js";

export const memberRecord = z.object({
  /** `${organization}:${user}` */
  key: z.string(),
  organization: z.string(),
  user: z.string(),
  /** Insertion order (see shared/sequence.ts). */
  seq: z.number(),
  role: memberRoleOrGuest,
  joinedAt: z.string(),
  lastSeenAt: z.string().optional(),
  /** `lastSeenAt`, or `joinedAt` before the first visit: the index value of the lastSeenAt sort. */
  seenAt: z.string(),
  disabled: z.boolean(),
  sso: z.boolean(),
});
export type MemberRecord = z.infer<typeof memberRecord>;

export const membersTable = defineTable({
  name: "members",
  key: "key",
  indexes: {
    byOrganization: ["organization", "seq"],
    byOrganizationSeen: ["organization", "seenAt"],
    byUser: ["user", "seq"],
    /** Members holding a role (guests, whose role is null, are not indexed): finds the admins. */
    byRole: ["organization", "role", "seq"],
  },
  record: memberRecord,
});

/** The ranges members are listed and counted by: an organization's, and its members of one role. */
export const memberCounts: readonly CountedRange[] = [
  { table: membersTable, index: "byOrganization", prefix: 1 },
  { table: membersTable, index: "byRole", prefix: 2 },
];
