import { z } from "zod";
import { contentRole, type Membership } from "../permissions/membership.js";
import { notFound } from "../shared/errors.js";
import { memberRoleOrGuest } from "../shared/roles.js";
import { timestamp } from "../shared/schema.js";
import type { World } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import type { MemberRecord } from "./tables.js";
import { type SpaceRecord, spacesTable } from "../spaces/tables.js";
import { teamMembersTable } from "../teams/tables.js";
import { usersTable } from "../users/tables.js";
import { toUser, userSchema } from "../users/schemas.js";

/** The reference `OrganizationMember`. A member's id is their user id. */
export const memberSchema = z.object({
  object: z.literal("member"),
  id: z.string(),
  role: memberRoleOrGuest,
  user: userSchema,
  disabled: z.boolean(),
  joinedAt: timestamp(),
  lastSeenAt: timestamp().optional(),
  sso: z.boolean(),
  /** Live spaces of the organization this member can access. */
  spaces: z.number(),
  /** Teams of the organization this member belongs to. */
  teams: z.number(),
});
export type Member = z.infer<typeof memberSchema>;

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

  async present(record: MemberRecord): Promise<Member> {
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
      user: toUser(this.world, user),
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
    if (record.role === null) return 0; // Guests see no content unless granted explicitly.
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
