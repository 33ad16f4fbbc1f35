import type { OrganizationPermissions } from "../organizations/schemas.js";
import { requireMembership, type Membership } from "../permissions/membership.js";
import { permissionsOf } from "../permissions/organization.js";
import { requirePermission, type PermissionFlag } from "../permissions/refuse.js";
import { defineAccess, type AccessRule } from "../permissions/rule.js";
import { notFound } from "../shared/errors.js";
import type { ReadTransaction } from "../storage/port.js";
import { type TeamRecord, teamsTable } from "./tables.js";
import { teamPermissions, teamRoleOf, type TeamPermissions } from "./schemas.js";

/** What a team rule hands `run`: the caller's membership, the team and the caller's permissions. */
export interface TeamAccess {
  readonly membership: Membership;
  /** The caller's organization permissions. */
  readonly organization: OrganizationPermissions;
  readonly team: TeamRecord;
  /** The caller's permissions on the team, as `team.permissions` reports them. */
  readonly permissions: TeamPermissions;
}

const ACTIONS: Record<PermissionFlag<TeamPermissions>, string> = {
  admin: "Managing a team",
  view: "Reading a team",
};

/** A team of the organization, answering 404 when there is none. */
export async function requireTeam(
  tx: ReadTransaction,
  organizationId: string,
  teamId: string,
): Promise<TeamRecord> {
  const team = await tx.get(teamsTable, teamId);
  if (!team || team.organization !== organizationId) throw notFound(`Team "${teamId}" not found`);
  return team;
}

/** The caller's permissions on a team of their organization. */
export async function permissionsOnTeam(
  tx: ReadTransaction,
  membership: Membership,
  organization: OrganizationPermissions,
  team: TeamRecord,
): Promise<TeamPermissions> {
  return teamPermissions(organization, await teamRoleOf(tx, team.id, membership.member.user));
}

/**
 * The team in `params.teamId` of the organization in `params.organizationId`: 404 for a
 * non-member of the organization or an unknown team, 403 unless the caller holds `flag` of their
 * team permissions. `null` checks no flag, for actions open to any member (leaving a team).
 */
export function onTeam(flag: PermissionFlag<TeamPermissions> | null): AccessRule<TeamAccess> {
  return defineAccess({
    summary:
      flag === null
        ? "membership of the organization in path.organizationId (team in path.teamId)"
        : `the "${flag}" permission on the team in path.teamId`,
    authenticated: true,
    async resolve(tx, context, params) {
      const membership = await requireMembership(tx, context, String(params.organizationId));
      const team = await requireTeam(tx, membership.organization.id, String(params.teamId));
      const organization = await permissionsOf(tx, membership);
      const permissions = await permissionsOnTeam(tx, membership, organization, team);
      if (flag !== null) requirePermission(permissions, flag, ACTIONS[flag]);
      return { membership, organization, team, permissions };
    },
  });
}
