import * as z from "zod";
import { findMember, requireMember } from "../members/access.js";
import { permissionsOf } from "../permissions/organization.js";
import type { Membership } from "../permissions/membership.js";
import { badRequest } from "../shared/errors.js";
import { listOf, paginate, type PageRequest } from "../shared/pagination.js";
import { memberRole, memberRoleOrGuest, type Role } from "../shared/roles.js";
import { boundedId } from "../shared/schema.js";
import { nextSequence } from "../shared/sequence.js";
import type { World } from "../shared/world.js";
import type { ReadTransaction, WriteTransaction } from "../storage/port.js";
import { requireTeam } from "../teams/access.js";
import { presentTeam } from "../teams/present.js";
import { teamSchema } from "../teams/schemas.js";
import { teamsTable } from "../teams/tables.js";
import { UserPresenter } from "../users/present.js";
import { userSchema } from "../users/schemas.js";
import { type Grantee, type GrantRecord, type GrantTarget, grantKey, grantsTable } from "./tables.js";

/** Most users and teams one invite names. */
export const MAX_INVITED = 100;

/** A space or collection that grants are given on. */
export interface Granted {
  readonly target: GrantTarget;
  readonly id: string;
  readonly organization: string;
}

/** The body of `inviteToSpace` and `inviteToCollection` (the reference's `InviteUsersAndTeams`). */
export const inviteBody = z.object({
  role: memberRoleOrGuest,
  users: z.array(boundedId()).min(1).max(MAX_INVITED).optional(),
  teams: z.array(boundedId()).min(1).max(MAX_INVITED).optional(),
});

/** The body of the updates of one grant: `null` removes it. */
export const updateBody = z.object({ role: memberRoleOrGuest });

export const userPermissionSchema = z.object({ permission: memberRole, user: userSchema });
export const teamPermissionSchema = z.object({ permission: memberRole, team: teamSchema });
export const userPermissionList = listOf(userPermissionSchema);
export const teamPermissionList = listOf(teamPermissionSchema);

/**
 * Gives `role` to `grantee` on `object`, replacing what they held there; `null` removes their
 * grant. Whether the grantee may hold one (a member, a team of the organization) is the caller's.
 */
export async function setGrant(
  tx: WriteTransaction,
  world: World,
  object: Granted,
  kind: Grantee,
  grantee: string,
  role: Role | null,
): Promise<boolean> {
  if (role === null) return removeGrant(tx, object, kind, grantee);
  const key = grantKey(object.id, kind, grantee);
  const existing = await tx.get(grantsTable, key);
  const grant: GrantRecord = existing
    ? { ...existing, role }
    : {
        key,
        organization: object.organization,
        target: object.target,
        object: object.id,
        granteeKind: kind,
        grantee,
        role,
        seq: await nextSequence(tx, object.id),
        createdAt: world.clock().toISOString(),
      };
  await tx.put(grantsTable, grant);
  return true;
}

/**
 * Grants `body.role` to every user and team of an invite. Each must be a member (guests included:
 * that is how a guest gets access) or a team of the object's organization, else 400 naming it,
 * checked before anything is written.
 */
export async function invite(
  tx: WriteTransaction,
  world: World,
  object: Granted,
  body: z.output<typeof inviteBody>,
): Promise<void> {
  if (!body.users && !body.teams) throw badRequest("body: name at least one of users or teams");
  const users = body.users ?? [];
  const teams = body.teams ?? [];
  for (const [index, user] of users.entries()) {
    if (!(await findMember(tx, object.organization, user))) {
      throw badRequest(`body.users.${index}: "${user}" is not a member of this organization`);
    }
  }
  for (const [index, team] of teams.entries()) {
    const record = await tx.get(teamsTable, team);
    if (record?.organization !== object.organization) {
      throw badRequest(`body.teams.${index}: "${team}" is not a team of this organization`);
    }
  }
  for (const user of users) await setGrant(tx, world, object, "user", user, body.role);
  for (const team of teams) await setGrant(tx, world, object, "team", team, body.role);
}

/** The grantee in the path of an update or a remove: 404 unless a member or team of the organization. */
export async function requireGrantee(
  tx: ReadTransaction,
  object: Granted,
  kind: Grantee,
  id: string,
): Promise<void> {
  if (kind === "user") await requireMember(tx, object.organization, id);
  else await requireTeam(tx, object.organization, id);
}

/** Removes a grant: 205 when there was one, 204 when there was none. */
export async function removeGrant(
  tx: WriteTransaction,
  object: Granted,
  kind: Grantee,
  id: string,
): Promise<boolean> {
  const key = grantKey(object.id, kind, id);
  const existing = await tx.get(grantsTable, key);
  if (existing) await tx.delete(grantsTable, key);
  return existing !== undefined;
}

/** One page of the users granted a role on the object itself (not inherited), oldest first. */
export function listUserGrants(tx: ReadTransaction, world: World, object: Granted, query: PageRequest) {
  const users = new UserPresenter(tx, world);
  return paginate(tx, query, {
    table: grantsTable,
    index: "byObject",
    where: [object.id, "user"],
    map: async (grant: GrantRecord) => ({
      permission: grant.role,
      user: await users.presentUser(grant.grantee),
    }),
  });
}

/** One page of the teams granted a role on the object itself, oldest first, as `membership` sees them. */
export async function listTeamGrants(
  tx: ReadTransaction,
  membership: Membership,
  object: Granted,
  query: PageRequest,
) {
  const organization = await permissionsOf(tx, membership);
  return paginate(tx, query, {
    table: grantsTable,
    index: "byObject",
    where: [object.id, "team"],
    map: async (grant: GrantRecord) => {
      const team = await tx.get(teamsTable, grant.grantee);
      return { permission: grant.role, team: await presentTeam(tx, membership, organization, team!) };
    },
  });
}
