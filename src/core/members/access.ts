import { memberKey } from "../permissions/membership.js";
import { conflict, notFound } from "../shared/errors.js";
import type { ReadTransaction } from "../storage/port.js";
import { type MemberRecord, membersTable } from "./tables.js";
import { emailKeyOf, type UserRecord, usersTable } from "../users/tables.js";

/**
 * Lookups of members and users shared by members, invites and teams. Who may call what is declared
 * with each operation (`inOrganization` in src/core/permissions/organization.ts).
 */

/** A member of the organization by user id, or undefined. */
export function findMember(
  tx: ReadTransaction,
  organizationId: string,
  userId: string,
): Promise<MemberRecord | undefined> {
  return tx.get(membersTable, memberKey(organizationId, userId));
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
  const [user] = await tx.list(usersTable, {
    index: "byEmail",
    where: [emailKeyOf(email.trim())],
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
  const admins = await tx.list(membersTable, {
    index: "byRole",
    where: [member.organization, "admin"],
  });
  const others = admins.filter((admin) => !admin.disabled && admin.user !== member.user);
  if (others.length === 0) {
    throw conflict("An organization must keep at least one admin: make another member admin first");
  }
}
