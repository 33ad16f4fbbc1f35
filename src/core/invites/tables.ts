import { z } from "zod";
import { memberRoleOrGuest } from "../shared/roles.js";
import { defineTable } from "../storage/table.js";

export const inviteRecord = z.object({
  id: z.string(),
  organization: z.string(),
  /** Insertion order (see shared/sequence.ts). */
  seq: z.number(),
  createdAt: z.string(),
  target: z.discriminatedUnion("type", [
    z.object({ type: z.literal("organization"), role: memberRoleOrGuest }),
    z.object({ type: z.literal("space"), space: z.string(), level: memberRoleOrGuest }),
    z.object({ type: z.literal("collection"), collection: z.string(), level: memberRoleOrGuest }),
  ]),
});
export type InviteRecord = z.infer<typeof inviteRecord>;

export const invitesTable = defineTable({
  name: "invites",
  key: "id",
  indexes: { byOrganization: ["organization", "seq"] },
  record: inviteRecord,
});
