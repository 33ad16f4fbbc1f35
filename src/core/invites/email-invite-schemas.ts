import * as z from "zod";
import { memberRoleOrGuest } from "../shared/roles.js";
import { timestamp } from "../shared/schema.js";
import type { EmailInviteRecord } from "./tables.js";

/**
 * Bounds of the invites folder's inputs (docs/api.md, "Email invitations"). They keep one request
 * small and stop an organization from piling up invitations without end.
 */
export const INVITE_LIMITS = {
  /** Longest email address: RFC 5321 allows a 64-character local part, `@` and a 255-character domain. */
  email: 320,
  /** Emails in one `inviteUsersToOrganization` request. */
  emailsPerRequest: 100,
  /** Pending invitations of one organization, expired ones included until revoked. */
  pendingPerOrganization: 1000,
  /** How long a pending invitation can be accepted, in days; inviting again renews it. */
  lifetimeDays: 30,
} as const;

/**
 * An email address as invitations store it: trimmed, lower-cased, one `@` between a non-empty
 * local part and domain, no whitespace, control characters or lone surrogates. Deliverability is
 * not checked: only the user who owns the address can accept.
 */
export const inviteEmail = z
  .string()
  .trim()
  .min(3)
  .max(INVITE_LIMITS.email)
  .regex(/^[^\s@\p{Cc}\p{Cs}]+@[^\s@\p{Cc}\p{Cs}]+$/u, "Expected an email address")
  .transform((email) => email.toLowerCase());

/** The docsbase `OrganizationEmailInvite` (an extension: the reference has no such object). */
export const emailInviteSchema = z.object({
  object: z.literal("organization-email-invite"),
  id: z.string(),
  organization: z.object({ id: z.string(), title: z.string() }),
  email: z.string(),
  role: memberRoleOrGuest,
  sso: z.boolean(),
  state: z.enum(["pending", "accepted"]),
  /** The admin who invited, last; a user id. */
  invitedBy: z.string(),
  createdAt: timestamp(),
  expiresAt: timestamp().optional(),
  acceptedAt: timestamp().optional(),
});
export type EmailInvite = z.infer<typeof emailInviteSchema>;

/** Whether a pending invitation's time has run out at `now`. */
export const isExpired = (invite: EmailInviteRecord, now: Date) =>
  invite.expiresAt !== undefined && Date.parse(invite.expiresAt) <= now.getTime();

/** The instant an invitation made at `now` expires. */
export const expiryFrom = (now: Date) =>
  new Date(now.getTime() + INVITE_LIMITS.lifetimeDays * 86_400_000).toISOString();
