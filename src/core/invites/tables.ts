import * as z from "zod";
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

/**
 * A pending or accepted invitation of one email address to an organization, made by an admin
 * through `inviteUsersToOrganization`. It is recorded whether or not a user has that email, and
 * grants nothing until the user whose email it is accepts it (docs/api.md, "Email invitations").
 * Declined and revoked invitations are deleted. At most one pending invitation exists per
 * organization and email: inviting again updates it.
 */
export const emailInviteRecord = z.object({
  id: z.string(),
  organization: z.string(),
  /** Trimmed and lower-cased, as the users table's `emailKey`. */
  email: z.string(),
  /** The organization role accepting grants, null for a guest. */
  role: memberRoleOrGuest,
  /** Accepting makes an SSO member. */
  sso: z.boolean(),
  /** The admin who invited, last. */
  invitedBy: z.string(),
  /** Insertion order (see shared/sequence.ts). */
  seq: z.number(),
  createdAt: z.string(),
  /** After this instant a pending invitation can no longer be accepted. */
  expiresAt: z.string().optional(),
  state: z.enum(["pending", "accepted"]),
  acceptedAt: z.string().optional(),
  /** The user who accepted. */
  acceptedBy: z.string().optional(),
});
export type EmailInviteRecord = z.infer<typeof emailInviteRecord>;

export const emailInvitesTable = defineTable({
  name: "emailInvites",
  key: "id",
  indexes: {
    /** The organization's pending invitations, for admins; one per email. */
    byOrganization: ["organization", "state", "email"],
    /** An invitee's invitations, by their email. */
    byEmail: ["email", "state", "seq"],
  },
  record: emailInviteRecord,
});
