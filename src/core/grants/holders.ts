import { type MemberRecord, membersTable } from "../members/tables.js";
import { type Content, contentRole, type Membership } from "../permissions/membership.js";
import { type Page, type PageRequest, paginateSorted } from "../shared/pagination.js";
import { type Role, roleRank } from "../shared/roles.js";
import type { ReadTransaction } from "../storage/port.js";

/** A member of the organization and the role the resolution gives them on one object. */
export interface Holder {
  readonly member: MemberRecord;
  readonly role: Role;
}

/**
 * Every enabled member of the organization holding a role on `content`, as the one resolution
 * (`contentRole`) gives it: non-guests always (their organization role at least), guests only
 * where a grant reaches them. Strongest role first, then by user id.
 *
 * It reads every member of the organization and resolves each: an aggregate is ordered by a role
 * no index holds. `membership` is the caller's, of the same organization.
 */
export async function holdersOf(
  tx: ReadTransaction,
  membership: Membership,
  content: Content,
): Promise<Holder[]> {
  const members = await tx.list(membersTable, {
    index: "byOrganization",
    where: [membership.organization.id],
  });
  const holders: Holder[] = [];
  for (const member of members) {
    if (member.disabled) continue;
    const role = await contentRole(tx, { ...membership, member, role: member.role }, content);
    if (role) holders.push({ member, role });
  }
  return holders.sort(byStrongestRole);
}

/** Strongest role first, then by user id: the order of every permissions aggregate. */
export function byStrongestRole(a: Holder, b: Holder): number {
  return roleRank(b.role) - roleRank(a.role) || (a.member.user < b.member.user ? -1 : 1);
}

/**
 * One page of holders, optionally of one role only, paged by (role, user id) so that a page
 * resumes where the last one ended whatever changed in between.
 */
export function pageOfHolders<H extends Holder>(
  holders: readonly H[],
  request: PageRequest & { readonly role?: Role | undefined },
  scope: string,
): Page<H> {
  const kept = request.role ? holders.filter((holder) => holder.role === request.role) : holders;
  return paginateSorted(kept, request, {
    scope: `${scope}:${request.role ?? ""}`,
    position: (holder) => [-roleRank(holder.role), holder.member.user],
  });
}
