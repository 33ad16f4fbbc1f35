import { anyCallerOnOrganization, type OrganizationForCaller } from "../organizations/access.js";
import { defineAccess, type AccessRule } from "../permissions/rule.js";
import { notFound, unauthorized } from "../shared/errors.js";
import type { Caller } from "../shared/world.js";
import { usersTable } from "../users/tables.js";
import { requireInvite, requireInviteLinks, type OrganizationInviteRecord } from "./schemas.js";
import { type EmailInviteRecord, emailInvitesTable } from "./tables.js";

/** What {@link inviteLinkHolder} hands `run`. */
export interface InviteLinkAccess extends OrganizationForCaller {
  readonly invite: OrganizationInviteRecord;
}

const onOrganization = anyCallerOnOrganization();

/**
 * Whoever holds the invite link in `params.inviteId` of the organization in
 * `params.organizationId`, member or not: 404 for an unknown organization or invite, 403 while the
 * organization disables invite links. To read a link, its admins still get through then (to see
 * and clean up links); to join through it (`join`), nobody does.
 */
export function inviteLinkHolder(use: "read" | "join"): AccessRule<InviteLinkAccess> {
  return defineAccess({
    summary:
      "any authenticated caller holding the invite link in path.inviteId, while invite links are enabled" +
      (use === "read" ? " (organization admins at any time)" : ""),
    authenticated: true,
    async resolve(tx, context, params) {
      const loaded = await onOrganization.resolve(tx, context, params);
      const invite = await requireInvite(tx, loaded.organization.id, String(params.inviteId));
      if (use === "join" || !loaded.permissions?.admin) requireInviteLinks(loaded.organization);
      return { ...loaded, invite };
    },
  });
}

/** What {@link invitee} hands `run`. */
export interface InviteeAccess {
  readonly caller: Caller;
  readonly invite: EmailInviteRecord;
}

/**
 * The user whose email the email invitation in `params.invitationId` is addressed to (matched on
 * the user's current email, so an address that gets an account after the invitation can accept
 * it). Anyone else, its organization's admins included, gets 404, as for an unknown invitation.
 */
export const invitee = defineAccess<InviteeAccess>({
  summary: "the user whose email the invitation in path.invitationId is addressed to",
  authenticated: true,
  async resolve(tx, context, params) {
    if (!context.caller) throw unauthorized();
    const id = String(params.invitationId);
    const user = await tx.get(usersTable, context.caller.userId);
    const invite = await tx.get(emailInvitesTable, id);
    if (!user || !invite || invite.email !== user.emailKey) {
      throw notFound(`Invitation "${id}" not found`);
    }
    return { caller: context.caller, invite };
  },
});
