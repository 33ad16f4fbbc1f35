import { permissionsOf } from "../members/access.js";
import type { OrganizationPermissions } from "../organizations/schemas.js";
import { requireMembership, type Membership } from "../shared/access.js";
import { forbidden, notFound } from "../shared/errors.js";
import type { Context } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import { tables, type TeamRecord } from "../tables.js";
import { teamPermissions, teamRoleOf, toTeam, type Team, type TeamPermissions } from "./schemas.js";

/** What a team-level check resolved: the caller, the team and the caller's permissions on it. */
export interface TeamAccess {
  readonly membership: Membership;
  readonly organization: OrganizationPermissions;
  readonly team: TeamRecord;
  readonly permissions: TeamPermissions;
}

const REFUSALS: Record<keyof TeamPermissions, string> = {
  admin: "Managing a team needs the organization admin role or the team's owner role",
  view: "Reading teams needs a non-guest membership of the organization",
};

/** A team of the organization, answering 404 when there is none. */
export async function requireTeam(
  tx: ReadTransaction,
  organizationId: string,
  teamId: string,
): Promise<TeamRecord> {
  const team = await tx.get<TeamRecord>(tables.teams.name, teamId);
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
 * Resolves a team for the caller: 404 for a non-member or an unknown team, 403 unless `flag` is
 * granted. `null` checks no flag, for actions open to any member (leaving a team).
 */
export async function requireTeamAccess(
  tx: ReadTransaction,
  context: Context,
  organizationId: string,
  teamId: string,
  flag: keyof TeamPermissions | null,
): Promise<TeamAccess> {
  const membership = await requireMembership(tx, context, organizationId);
  const team = await requireTeam(tx, organizationId, teamId);
  const organization = await permissionsOf(tx, membership);
  const permissions = await permissionsOnTeam(tx, membership, organization, team);
  if (flag && !permissions[flag]) throw forbidden(REFUSALS[flag]);
  return { membership, organization, team, permissions };
}

/** The team as the caller sees it. */
export async function presentTeam(
  tx: ReadTransaction,
  membership: Membership,
  organization: OrganizationPermissions,
  team: TeamRecord,
): Promise<Team> {
  return toTeam(tx, team, await permissionsOnTeam(tx, membership, organization, team));
}
