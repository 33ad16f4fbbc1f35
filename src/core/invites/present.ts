import { organizationsTable } from "../organizations/tables.js";
import { atLeast, type Role } from "../shared/roles.js";
import type { ReadTransaction } from "../storage/port.js";
import type { EmailInvite } from "./email-invite-schemas.js";
import type { Invite, OrganizationInviteRecord } from "./schemas.js";
import type { EmailInviteRecord } from "./tables.js";

/**
 * The invite link as `viewer` sees it. The reference calls an invite redundant when "the
 * requesting user already has all necessary permissions": the viewer is a member (`viewer` is their
 * organization role, null for a guest; `undefined` for a non-member) whose role reaches the role
 * the invite grants. Joining through a redundant invite changes nothing.
 */
export function presentInvite(record: OrganizationInviteRecord, viewer: Role | null | undefined): Invite {
  const { role } = record.target;
  const redundant = viewer !== undefined && (role === null || atLeast(viewer, role));
  return { object: "invite", id: record.id, role, redundant };
}

/** The invitation as its invitee and the organization's admins see it. */
export async function presentEmailInvite(
  tx: ReadTransaction,
  record: EmailInviteRecord,
): Promise<EmailInvite> {
  const organization = await tx.get(organizationsTable, record.organization);
  return {
    object: "organization-email-invite",
    id: record.id,
    organization: { id: record.organization, title: organization?.title ?? "" },
    email: record.email,
    role: record.role,
    sso: record.sso,
    state: record.state,
    invitedBy: record.invitedBy,
    createdAt: record.createdAt,
    ...(record.expiresAt ? { expiresAt: record.expiresAt } : {}),
    ...(record.acceptedAt ? { acceptedAt: record.acceptedAt } : {}),
  };
}
