import type { OrganizationPermissions } from "../organizations/schemas.js";
import type { Membership } from "../permissions/membership.js";
import { contentReachedBy } from "../permissions/visible.js";
import type { ReadTransaction } from "../storage/port.js";
import { permissionsOnTeam } from "./access.js";
import type { Team, TeamPermissions } from "./schemas.js";
import { type TeamRecord, teamMembersTable } from "./tables.js";

/** The team as this member sees it: their permissions on it, then {@link presentTeamWith}. */
export async function presentTeam(
  tx: ReadTransaction,
  membership: Membership,
  organization: OrganizationPermissions,
  team: TeamRecord,
): Promise<Team> {
  return presentTeamWith(tx, team, await permissionsOnTeam(tx, membership, organization, team));
}

/** The team as a caller holding `permissions` sees it (an access rule computed them already). */
export async function presentTeamWith(
  tx: ReadTransaction,
  record: TeamRecord,
  permissions: TeamPermissions,
): Promise<Team> {
  return {
    object: "team",
    id: record.id,
    title: record.title,
    members: await tx.count(teamMembersTable, { index: "byTeam", where: [record.id] }),
    // The live spaces a grant to the team reaches, on them or a collection above them.
    spaces: (await contentReachedBy(tx, record.organization, [["team", record.id]])).spaces.length,
    createdAt: record.createdAt,
    permissions,
  };
}
