import { contentRole, type Membership } from "../permissions/membership.js";
import { contentReachedBy, granteesOf } from "../permissions/visible.js";
import { notFound } from "../shared/errors.js";
import type { World } from "../shared/world.js";
import { type SpaceRecord, spacesTable } from "../spaces/tables.js";
import type { ReadTransaction } from "../storage/port.js";
import { teamMembersTable } from "../teams/tables.js";
import { presentUser } from "../users/present.js";
import { usersTable } from "../users/tables.js";
import type { Member } from "./schemas.js";
import type { MemberRecord } from "./tables.js";

/**
 * Turns member records into `Member` objects within one transaction. The organization's live
 * spaces are read once and shared by every member presented, so a page of members costs one
 * space listing rather than one per member.
 */
export class MemberPresenter {
  private spaces: Promise<SpaceRecord[]> | undefined;

  constructor(
    private readonly tx: ReadTransaction,
    private readonly world: World,
    /** The caller's membership; only its organization is used, to compute other members' roles. */
    private readonly membership: Membership,
  ) {}

  async presentMember(record: MemberRecord): Promise<Member> {
    const user = await this.tx.get(usersTable, record.user);
    if (!user) throw notFound(`User "${record.user}" not found`);
    const teams = await this.tx.count(teamMembersTable, {
      index: "byMember",
      where: [record.organization, record.user],
    });
    return {
      object: "member",
      id: record.user,
      role: record.role,
      user: presentUser(this.world, user),
      disabled: record.disabled,
      joinedAt: record.joinedAt,
      ...(record.lastSeenAt ? { lastSeenAt: record.lastSeenAt } : {}),
      sso: record.sso,
      spaces: await this.countSpaces(record),
      teams,
    };
  }

  /** Live spaces of the organization on which `record` has a role (permissions/membership.ts rules). */
  private async countSpaces(record: MemberRecord): Promise<number> {
    // A guest has a role exactly where a grant to them or their teams reaches.
    if (record.role === null) {
      const grantees = await granteesOf(this.tx, record.organization, record.user);
      return (await contentReachedBy(this.tx, record.organization, grantees)).spaces.length;
    }
    this.spaces ??= this.tx.list(spacesTable, {
      index: "byOrganization",
      where: [record.organization, "live"],
    });
    const target: Membership = { ...this.membership, member: record, role: record.role };
    let count = 0;
    for (const space of await this.spaces) if ((await contentRole(this.tx, target, space)) !== null) count++;
    return count;
  }
}
