import * as z from "zod";
import { findMember } from "../members/access.js";
import { organizationPermissions } from "../organizations/schemas.js";
import { inOrganization } from "../permissions/organization.js";
import { defineOperation, deleted, Reply } from "../registry.js";
import { badRequest } from "../shared/errors.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import { boundedId, pathParam } from "../shared/schema.js";
import { nextSequence } from "../shared/sequence.js";
import type { World } from "../shared/world.js";
import type { WriteTransaction } from "../storage/port.js";
import { type TeamRecord, teamMembersTable, teamsTable } from "./tables.js";
import { onTeam } from "./access.js";
import { putTeamMember, teamMemberOperations } from "./members.js";
import {
  MAX_TEAM_CHANGES,
  teamPermissions,
  teamRoleOf,
  teamSchema,
  teamTitle,
  type Team,
} from "./schemas.js";
import { presentTeam, presentTeamWith } from "./present.js";

const tag = "teams";
const organizationParams = z.object({ organizationId: pathParam() });
const teamParams = z.object({ organizationId: pathParam(), teamId: pathParam() });

export const listTeamsInOrganizationById = defineOperation({
  id: "listTeamsInOrganizationById",
  method: "get",
  path: "/orgs/{organizationId}/teams",
  tag,
  summary:
    "List the teams of an organization, oldest first (non-guest members). `owner` keeps the teams " +
    "that member can manage (all of them for an organization admin); `title` filters by substring.",
  params: organizationParams,
  access: inOrganization("listTeams"),
  query: z.object({
    ...pageQuery,
    owner: boundedId().optional(),
    title: z.string().max(512).optional(),
  }),
  response: listOf(teamSchema),
  async run(scope, { query }) {
    const { tx, membership, permissions } = scope;
    const organizationId = membership.organization.id;
    const checks: ((team: TeamRecord) => boolean | Promise<boolean>)[] = [];
    const title = query.title?.trim().toLowerCase();
    if (title) checks.push((team) => team.title.toLowerCase().includes(title));
    if (query.owner !== undefined) {
      const owner = await findMember(tx, organizationId, query.owner);
      if (!owner) throw badRequest(`query.owner: "${query.owner}" is not a member of this organization`);
      // The same rule as Team.permissions.admin, evaluated for that member instead of the caller.
      const ownerPermissions = organizationPermissions(
        { ...membership, member: owner, role: owner.disabled ? null : owner.role },
        false,
      );
      const user = owner.user;
      checks.push(
        async (team) => teamPermissions(ownerPermissions, await teamRoleOf(tx, team.id, user)).admin,
      );
    }
    return paginate<TeamRecord, Team>(tx, query, {
      table: teamsTable,
      index: "byOrganization",
      where: [organizationId],
      ...(checks.length > 0
        ? {
            filter: async (team: TeamRecord) => {
              for (const check of checks) if (!(await check(team))) return false;
              return true;
            },
          }
        : {}),
      map: (team) => presentTeam(tx, membership, permissions, team),
    });
  },
});

export const createOrganizationTeam = defineOperation({
  id: "createOrganizationTeam",
  method: "put",
  path: "/orgs/{organizationId}/teams",
  tag,
  summary: "Create a team (admins), optionally with members (user ids of organization members)",
  params: organizationParams,
  access: inOrganization("admin"),
  body: z.object({ title: teamTitle, members: z.array(boundedId()).max(MAX_TEAM_CHANGES).optional() }),
  response: teamSchema,
  status: 201,
  async run(scope, { body }) {
    const { tx, membership, permissions } = scope;
    const organizationId = membership.organization.id;
    const members = [...new Set(body.members ?? [])];
    for (const [index, user] of (body.members ?? []).entries()) {
      if (!(await findMember(tx, organizationId, user))) {
        throw badRequest(`body.members.${index}: "${user}" is not a member of this organization`);
      }
    }
    const now = scope.clock().toISOString();
    const team: TeamRecord = {
      id: scope.ids(),
      organization: organizationId,
      seq: await nextSequence(tx, organizationId),
      title: body.title,
      createdAt: now,
    };
    await tx.put(teamsTable, team);
    for (const user of members) await putTeamMember(tx, scope, team, user, "member");
    const created = await presentTeam(tx, membership, permissions, team);
    return new Reply(201, created, { location: teamLocation(scope, team) });
  },
});

/** Teams have no `urls` in the reference; the Location header of a creation points here. */
const teamLocation = (world: World, team: TeamRecord) =>
  `${world.baseUrl}/v1/orgs/${team.organization}/teams/${team.id}`;

export const getTeamInOrganizationById = defineOperation({
  id: "getTeamInOrganizationById",
  method: "get",
  path: "/orgs/{organizationId}/teams/{teamId}",
  tag,
  summary: "Get a team (non-guest members)",
  params: teamParams,
  access: onTeam("view"),
  response: teamSchema,
  async run({ tx, team, permissions }) {
    return presentTeamWith(tx, team, permissions);
  },
});

export const updateTeamInOrganizationById = defineOperation({
  id: "updateTeamInOrganizationById",
  method: "patch",
  path: "/orgs/{organizationId}/teams/{teamId}",
  tag,
  summary: "Rename a team (admins and the team's owners)",
  params: teamParams,
  access: onTeam("admin"),
  body: z.object({ title: teamTitle }),
  response: teamSchema,
  async run({ tx, team, permissions }, { body }) {
    const renamed: TeamRecord = { ...team, title: body.title };
    await tx.put(teamsTable, renamed);
    return presentTeamWith(tx, renamed, permissions);
  },
});

export const removeTeamFromOrganizationById = defineOperation({
  id: "removeTeamFromOrganizationById",
  method: "delete",
  path: "/orgs/{organizationId}/teams/{teamId}",
  tag,
  summary: "Delete a team and its memberships (admins)",
  params: teamParams,
  // Not `onTeam`: deleting a team that does not exist answers 204, not 404.
  access: inOrganization("admin"),
  emptyStatuses: [204, 205],
  async run({ tx, membership, lifecycle }, { params }) {
    const team = await tx.get(teamsTable, params.teamId);
    if (!team || team.organization !== membership.organization.id) return deleted(false);
    await lifecycle.teamRemoved(tx, team);
    await removeTeamMemberships(tx, team);
    await tx.delete(teamsTable, team.id);
    return deleted(true);
  },
});

async function removeTeamMemberships(tx: WriteTransaction, team: TeamRecord): Promise<void> {
  const memberships = await tx.list(teamMembersTable, {
    index: "byTeam",
    where: [team.id],
  });
  for (const membership of memberships) await tx.delete(teamMembersTable, membership.key);
}

export const teamOperations = {
  listTeamsInOrganizationById,
  createOrganizationTeam,
  getTeamInOrganizationById,
  updateTeamInOrganizationById,
  removeTeamFromOrganizationById,
  ...teamMemberOperations,
};
