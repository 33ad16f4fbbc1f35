import { anyCallerOnOrganization, type OrganizationForCaller } from "../organizations/access.js";
import { defineAccess, type AccessRule } from "../permissions/rule.js";
import { requireInvite, requireInviteLinks, type OrganizationInviteRecord } from "./schemas.js";

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
