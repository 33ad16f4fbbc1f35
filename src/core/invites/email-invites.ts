import * as z from "zod";
import { insertMember } from "../members/records.js";
import { inOrganization } from "../permissions/organization.js";
import { anyCaller } from "../permissions/rules.js";
import { defineOperation, deleted, noContent } from "../registry.js";
import { conflict, notFound } from "../shared/errors.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import { memberRoleOrGuest, type Role } from "../shared/roles.js";
import { pathParam } from "../shared/schema.js";
import { nextSequence } from "../shared/sequence.js";
import { usersTable } from "../users/tables.js";
import { invitee } from "./access.js";
import {
  type EmailInvite,
  emailInviteSchema,
  expiryFrom,
  INVITE_LIMITS,
  inviteEmail,
  isExpired,
} from "./email-invite-schemas.js";
import { type EmailInviteRecord, emailInvitesTable } from "./tables.js";
import { presentEmailInvite } from "./present.js";

/**
 * Invitations by email (docs/api.md, "Email invitations"). Inviting records a pending invitation
 * and grants nothing: only the user who owns the address joins, by accepting. The answer to an
 * invitation is the same whether or not the address has an account, so it cannot be used to
 * find out which addresses do.
 */

const tag = "invites";
const organizationParams = z.object({ organizationId: pathParam() });
const invitationParams = z.object({ invitationId: pathParam() });

export const inviteUsersToOrganization = defineOperation({
  id: "inviteUsersToOrganization",
  method: "post",
  path: "/orgs/{organizationId}/invites",
  tag,
  summary:
    "Invite people to the organization by email (admins). Each email gets a pending invitation " +
    "with the role given with it, else `role`, else the organization's defaultRole; nobody joins " +
    "until the owner of the address accepts (`acceptUserInvite`). The answer is the same whether " +
    "or not an address has an account: `users` is always empty and `invited` counts the distinct " +
    "emails now invited.",
  params: organizationParams,
  access: inOrganization("admin"),
  body: z.object({
    emails: z
      .array(z.union([inviteEmail, z.object({ email: inviteEmail, role: memberRoleOrGuest })]))
      .min(1)
      .max(INVITE_LIMITS.emailsPerRequest),
    role: memberRoleOrGuest.optional(),
    sso: z.boolean().optional(),
  }),
  response: z.object({ users: z.array(z.string()), invited: z.number() }),
  async run(scope, { body }) {
    const { tx, membership } = scope;
    const organization = membership.organization;
    const fallback = body.role !== undefined ? body.role : organization.defaultRole;
    // An email listed twice keeps the first role given.
    const roles = new Map<string, Role | null>();
    for (const entry of body.emails) {
      const email = typeof entry === "string" ? entry : entry.email;
      if (!roles.has(email)) roles.set(email, typeof entry === "string" ? fallback : entry.role);
    }
    const existing = new Map<string, EmailInviteRecord>();
    for (const email of roles.keys()) {
      const [pending] = await tx.list(emailInvitesTable, {
        index: "byOrganization",
        where: [organization.id, "pending", email],
        limit: 1,
      });
      if (pending) existing.set(email, pending);
    }
    const pending = await tx.count(emailInvitesTable, {
      index: "byOrganization",
      where: [organization.id, "pending"],
    });
    if (pending + roles.size - existing.size > INVITE_LIMITS.pendingPerOrganization) {
      throw conflict(
        `The organization may hold at most ${INVITE_LIMITS.pendingPerOrganization} pending invitations: ` +
          "revoke some first",
      );
    }
    const now = scope.clock();
    for (const [email, role] of roles) {
      // Inviting again updates the pending invitation and renews its expiry.
      const previous = existing.get(email);
      await tx.put(emailInvitesTable, {
        id: previous?.id ?? scope.ids(),
        organization: organization.id,
        email,
        role,
        sso: body.sso ?? false,
        invitedBy: membership.member.user,
        seq: previous?.seq ?? (await nextSequence(tx)),
        createdAt: previous?.createdAt ?? now.toISOString(),
        expiresAt: expiryFrom(now),
        state: "pending",
      });
    }
    // Nothing here may depend on whether an address has an account (issue 9, defect 4).
    return { users: [], invited: roles.size };
  },
});

export const listOrganizationEmailInvites = defineOperation({
  id: "listOrganizationEmailInvites",
  method: "get",
  path: "/orgs/{organizationId}/email-invites",
  tag,
  summary:
    "List the organization's pending email invitations, expired ones included, by email (admins). " +
    "A docsbase extension.",
  params: organizationParams,
  access: inOrganization("admin"),
  query: z.object({ ...pageQuery }),
  response: listOf(emailInviteSchema),
  async run({ tx, membership }, { query }) {
    return paginate<EmailInviteRecord, EmailInvite>(tx, query, {
      table: emailInvitesTable,
      index: "byOrganization",
      where: [membership.organization.id, "pending"],
      map: (record) => presentEmailInvite(tx, record),
    });
  },
});

export const revokeOrganizationEmailInvite = defineOperation({
  id: "revokeOrganizationEmailInvite",
  method: "delete",
  path: "/orgs/{organizationId}/email-invites/{invitationId}",
  tag,
  summary:
    "Revoke a pending email invitation (admins): 205 when one was revoked, 204 when the " +
    "organization has no pending invitation with this id. A docsbase extension.",
  params: organizationParams.extend(invitationParams.shape),
  access: inOrganization("admin"),
  emptyStatuses: [204, 205],
  async run({ tx, membership }, { params }) {
    const invite = await tx.get(emailInvitesTable, params.invitationId);
    const revocable = invite?.organization === membership.organization.id && invite.state === "pending";
    return deleted(revocable && (await tx.delete(emailInvitesTable, invite.id)));
  },
});

export const listUserInvites = defineOperation({
  id: "listUserInvites",
  method: "get",
  path: "/user/invites",
  tag,
  summary:
    "List the pending, unexpired invitations addressed to the authenticated user's email, oldest " +
    "first. A docsbase extension.",
  access: anyCaller,
  query: z.object({ ...pageQuery }),
  response: listOf(emailInviteSchema),
  async run({ tx, caller, clock }, { query }) {
    const user = await tx.get(usersTable, caller.userId);
    if (!user) throw notFound("User not found");
    const now = clock();
    return paginate<EmailInviteRecord, EmailInvite>(tx, query, {
      table: emailInvitesTable,
      index: "byEmail",
      where: [user.emailKey, "pending"],
      filter: (record) => !isExpired(record, now),
      map: (record) => presentEmailInvite(tx, record),
    });
  },
});

export const acceptUserInvite = defineOperation({
  id: "acceptUserInvite",
  method: "post",
  path: "/user/invites/{invitationId}/accept",
  tag,
  summary:
    "Accept an invitation addressed to the authenticated user's email: join the organization with " +
    "its role (a member keeps their role). Accepting again answers the same and changes nothing; " +
    "an expired invitation answers 404. A docsbase extension.",
  params: invitationParams,
  access: invitee,
  response: emailInviteSchema,
  async run(scope) {
    const { tx, caller, invite } = scope;
    if (invite.state === "accepted") return presentEmailInvite(tx, invite);
    const now = scope.clock();
    if (isExpired(invite, now)) throw notFound(`Invitation "${invite.id}" has expired`);
    await insertMember(tx, scope, invite.organization, caller.userId, invite.role, invite.sso);
    const accepted: EmailInviteRecord = {
      ...invite,
      state: "accepted",
      acceptedAt: now.toISOString(),
      acceptedBy: caller.userId,
    };
    await tx.put(emailInvitesTable, accepted);
    return presentEmailInvite(tx, accepted);
  },
});

export const declineUserInvite = defineOperation({
  id: "declineUserInvite",
  method: "post",
  path: "/user/invites/{invitationId}/decline",
  tag,
  summary:
    "Decline a pending invitation addressed to the authenticated user's email (204); it is " +
    "deleted. An accepted one answers 409: leave the organization instead. A docsbase extension.",
  params: invitationParams,
  access: invitee,
  emptyStatuses: [204],
  async run({ tx, invite }) {
    if (invite.state === "accepted") {
      throw conflict("This invitation was accepted: leave the organization to undo it");
    }
    await tx.delete(emailInvitesTable, invite.id);
    return noContent();
  },
});

export const emailInviteOperations = {
  inviteUsersToOrganization,
  listOrganizationEmailInvites,
  revokeOrganizationEmailInvite,
  listUserInvites,
  acceptUserInvite,
  declineUserInvite,
};
