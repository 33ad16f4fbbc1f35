import * as z from "zod";
import type { CountedRange } from "../shared/counters.js";
import { defineTable } from "../storage/table.js";

export const teamRecord = z.object({
  id: z.string(),
  organization: z.string(),
  /** Insertion order (see shared/sequence.ts). */
  seq: z.number(),
  title: z.string(),
  createdAt: z.string(),
});
export type TeamRecord = z.infer<typeof teamRecord>;

export const teamsTable = defineTable({
  name: "teams",
  key: "id",
  indexes: { byOrganization: ["organization", "seq"] },
  record: teamRecord,
});

export const teamMemberRole = z.enum(["owner", "member"]);

export const teamMemberRecord = z.object({
  /** `${team}:${user}` */
  key: z.string(),
  team: z.string(),
  organization: z.string(),
  user: z.string(),
  /** Insertion order (see shared/sequence.ts). */
  seq: z.number(),
  role: teamMemberRole,
  addedAt: z.string(),
});
export type TeamMemberRecord = z.infer<typeof teamMemberRecord>;

export const teamMembersTable = defineTable({
  name: "teamMembers",
  key: "key",
  indexes: { byTeam: ["team", "seq"], byMember: ["organization", "user"] },
  record: teamMemberRecord,
});

/** The ranges teams and team members are listed and counted by (a team's size, a member's teams). */
export const teamCounts: readonly CountedRange[] = [
  { table: teamsTable, index: "byOrganization", prefix: 1 },
  { table: teamMembersTable, index: "byTeam", prefix: 1 },
  { table: teamMembersTable, index: "byMember", prefix: 2 },
];
