import * as z from "zod";
import { badRequest, forbidden, notFound } from "../shared/errors.js";
import { memberRoleOrGuest, type Role } from "../shared/roles.js";
import { boundedId } from "../shared/schema.js";
import type { ReadTransaction } from "../storage/port.js";
import { type InviteRecord, invitesTable } from "./tables.js";
import type { OrganizationRecord } from "../organizations/tables.js";

/** The reference `InviteLinkToOrganization`. */
export const inviteSchema = z.object({
  object: z.literal("invite"),
  id: z.string(),
  role: memberRoleOrGuest,
  redundant: z.boolean(),
});
export type Invite = z.infer<typeof inviteSchema>;

/** An organization invite link as stored. */
export type OrganizationInviteRecord = InviteRecord & {
  target: Extract<InviteRecord["target"], { type: "organization" }>;
};

export const isOrganizationInvite = (record: InviteRecord): record is OrganizationInviteRecord =>
  record.target.type === "organization";

/** An organization invite link of the organization, answering 404 when there is none. */
export async function requireInvite(
  tx: ReadTransaction,
  organizationId: string,
  inviteId: string,
): Promise<OrganizationInviteRecord> {
  const invite = await tx.get(invitesTable, inviteId);
  if (!invite || invite.organization !== organizationId || !isOrganizationInvite(invite)) {
    throw notFound(`Invite "${inviteId}" not found`);
  }
  return invite;
}

/** Fails with 403 when the organization has turned invite links off. */
export function requireInviteLinks(organization: OrganizationRecord): void {
  if (!organization.inviteLinks) {
    throw forbidden("Invite links are disabled in this organization (see its inviteLinks setting)");
  }
}

/**
 * Body of the invite-link writes. The reference has three variants (organization `{role}`, space
 * `{level, space}`, collection `{level, collection}`); they are one object here so that each
 * refusal names its field rather than "no variant matched".
 */
export const createInviteBody = z.object({
  role: memberRoleOrGuest.optional(),
  level: memberRoleOrGuest.optional(),
  space: boundedId().optional(),
  collection: boundedId().optional(),
});

/** The role of an organization invite link to create; refuses the content variants. */
export function organizationInviteRole(body: z.output<typeof createInviteBody>): Role | null {
  // Per-content permissions are not modelled yet, so there is nothing a content invite could grant.
  if (body.space !== undefined || body.collection !== undefined || body.level !== undefined) {
    throw badRequest("body: space and collection invite links are not supported yet");
  }
  if (body.role === undefined) throw badRequest("body.role: Required (a role, or null for guests)");
  return body.role;
}
