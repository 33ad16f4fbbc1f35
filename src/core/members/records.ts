import { memberKey } from "../permissions/membership.js";
import type { Role } from "../shared/roles.js";
import { nextSequence } from "../shared/sequence.js";
import type { World } from "../shared/world.js";
import type { WriteTransaction } from "../storage/port.js";
import { type MemberRecord, membersTable } from "./tables.js";
import { findMember } from "./access.js";

/**
 * Makes a user a member of an organization with a role, the one way every path (creating an
 * organization, joining by email domain, an invite link, an email invite) adds members. An existing
 * member is left as is; returns whether a member was added.
 */
export async function insertMember(
  tx: WriteTransaction,
  world: World,
  organization: string,
  user: string,
  role: Role | null,
  sso = false,
): Promise<boolean> {
  if (await findMember(tx, organization, user)) return false;
  const now = world.clock().toISOString();
  const member: MemberRecord = {
    key: memberKey(organization, user),
    organization,
    user,
    seq: await nextSequence(tx),
    role,
    joinedAt: now,
    seenAt: now,
    disabled: false,
    sso,
  };
  await tx.put(membersTable, member);
  return true;
}
