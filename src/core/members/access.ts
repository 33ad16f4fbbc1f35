import { ownsTeam } from "../organizations/operations.js";
import { organizationPermissions, type OrganizationPermissions } from "../organizations/schemas.js";
import { memberKey, requireMembership, type Membership } from "../shared/access.js";
import { conflict, forbidden, notFound } from "../shared/errors.js";
import type { Context } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import { tables, type MemberRecord, type UserRecord } from "../tables.js";

/**
 * Organization-level rules for members, invites and teams. Each check reads the very flag that
 * `organizationPermissions()` reports to the caller, so a flag never promises what a call refuses:
 * `listMembers` and `listTeams` (non-guest members) to read members and teams, `admin` to manage
 * members, invites, invite links and teams.
 */

type Flag = "listMembers" | "listTeams" | "admin";

const REFUSALS: Record<Flag, string> = {
  listMembers: "Listing and reading members needs a non-guest membership of the organization",
  listTeams: "Listing and reading teams needs a non-guest membership of the organization",
  admin: 'This needs the "admin" role in the organization',
};

/** The caller's organization permissions. */
export async function permissionsOf(
  tx: ReadTransaction,
  membership: Membership,
): Promise<OrganizationPermissions> {
  return organizationPermissions(
    membership,
    await ownsTeam(tx, membership.organization.id, membership.member.user),
  );
}

/** The caller's membership (404 for a non-member), failing with 403 unless `flag` is granted. */
export async function requireOrganizationPermission(
  tx: ReadTransaction,
  context: Context,
  organizationId: string,
  flag: Flag,
): Promise<Membership> {
  const membership = await requireMembership(tx, context, organizationId);
  if (!(await permissionsOf(tx, membership))[flag]) throw forbidden(REFUSALS[flag]);
  return membership;
}

/** Whether the membership grants the organization `admin` flag. */
export async function isOrganizationAdmin(tx: ReadTransaction, membership: Membership): Promise<boolean> {
  return (await permissionsOf(tx, membership)).admin;
}

/** A member of the organization by user id, or undefined. */
export function findMember(
  tx: ReadTransaction,
  organizationId: string,
  userId: string,
): Promise<MemberRecord | undefined> {
  return tx.get<MemberRecord>(tables.members.name, memberKey(organizationId, userId));
}

/** A member of the organization by user id, answering 404 when there is none. */
export async function requireMember(
  tx: ReadTransaction,
  organizationId: string,
  userId: string,
): Promise<MemberRecord> {
  const member = await findMember(tx, organizationId, userId);
  if (!member) throw notFound(`Member "${userId}" not found in this organization`);
  return member;
}

/** The user with this email (case-insensitive), or undefined. */
export async function findUserByEmail(tx: ReadTransaction, email: string): Promise<UserRecord | undefined> {
  const [user] = await tx.list<UserRecord>(tables.users.name, {
    index: "byEmail",
    where: [email.trim().toLowerCase()],
    limit: 1,
  });
  return user;
}

/**
 * An organization always keeps at least one active admin: fails with 409 when `member` is the
 * last one and is about to lose the role or leave.
 */
export async function keepAnAdmin(tx: ReadTransaction, member: MemberRecord): Promise<void> {
  if (member.role !== "admin" || member.disabled) return;
  const admins = await tx.list<MemberRecord>(tables.members.name, {
    index: "byRole",
    where: [member.organization, "admin"],
  });
  const others = admins.filter((admin) => !admin.disabled && admin.user !== member.user);
  if (others.length === 0) {
    throw conflict("An organization must keep at least one admin: make another member admin first");
  }
}
