import * as z from "zod";
import type { OrganizationPermissions } from "../organizations/schemas.js";
import { timestamp, wellFormed } from "../shared/schema.js";
import type { ReadTransaction } from "../storage/port.js";
import { teamMemberRole, teamMembersTable } from "./tables.js";

/** Team title: 1 to 64 characters, the API's limit. */
export const teamTitle = z.string().trim().min(1).max(64).check(wellFormed());
/** Most users named by one list of a team write (`members`, `add`, `remove`, `memberships`). */
export const MAX_TEAM_CHANGES = 1000;
/** A role in a team, as stored (declared once, in tables.ts). */
export const teamRole = teamMemberRole;
export type TeamRole = z.infer<typeof teamMemberRole>;

export const teamPermissionsSchema = z.object({ admin: z.boolean(), view: z.boolean() });
export type TeamPermissions = z.infer<typeof teamPermissionsSchema>;

/** The reference `OrganizationTeam`. */
export const teamSchema = z.object({
  object: z.literal("team"),
  id: z.string(),
  title: z.string(),
  members: z.number().int(),
  spaces: z.number(),
  createdAt: timestamp(),
  permissions: teamPermissionsSchema,
});
export type Team = z.infer<typeof teamSchema>;

/** A team membership as the reference `TeamMember`. */
export const teamMemberSchema = z.object({ role: teamRole });

export const teamMemberKey = (team: string, user: string) => `${team}:${user}`;

/**
 * What a member may do with a team, from their organization permissions and their role in the
 * team (undefined when not in it). Operations enforce exactly these flags:
 * - `admin` (rename the team, add, remove and re-role its members): organization admins, and the
 *   team's owners;
 * - `view` (read the team and list its members): every non-guest member (the organization
 *   `listTeams` flag), and whoever may manage the team.
 * Deleting a team stays with organization admins.
 */
export function teamPermissions(
  organization: OrganizationPermissions,
  role: TeamRole | undefined,
): TeamPermissions {
  const admin = organization.admin || role === "owner";
  return { admin, view: organization.listTeams || admin };
}

/** The role of a user in a team, or undefined when they are not in it. */
export async function teamRoleOf(
  tx: ReadTransaction,
  team: string,
  user: string,
): Promise<TeamRole | undefined> {
  const record = await tx.get(teamMembersTable, teamMemberKey(team, user));
  return record?.role;
}
