import { z } from "zod";
import { findMember, permissionsOf, requireOrganizationPermission } from "../members/access.js";
import { organizationPermissions } from "../organizations/schemas.js";
import { defineOperation, deleted, Reply } from "../registry.js";
import { badRequest } from "../shared/errors.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import { pathParam } from "../shared/schema.js";
import { nextSequence } from "../shared/sequence.js";
import type { Context } from "../shared/world.js";
import type { WriteTransaction } from "../storage/port.js";
import { tables, type TeamMemberRecord, type TeamRecord } from "../tables.js";
import { presentTeam, requireTeamAccess } from "./access.js";
import { putTeamMember, teamMemberOperations } from "./members.js";
import {
  teamMemberKey,
  teamPermissions,
  teamRoleOf,
  teamSchema,
  teamTitle,
  toTeam,
  type Team,
} from "./schemas.js";

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
  query: z.object({
    ...pageQuery,
    owner: z.string().min(1).optional(),
    title: z.string().max(512).optional(),
  }),
  response: listOf(teamSchema),
  async run(context, { params, query }) {
    return context.storage.read(async (tx) => {
      const membership = await requireOrganizationPermission(tx, context, params.organizationId, "listTeams");
      const organization = await permissionsOf(tx, membership);
      const checks: ((team: TeamRecord) => boolean | Promise<boolean>)[] = [];
      const title = query.title?.trim().toLowerCase();
      if (title) checks.push((team) => team.title.toLowerCase().includes(title));
      if (query.owner !== undefined) {
        const owner = await findMember(tx, params.organizationId, query.owner);
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
        table: tables.teams,
        index: "byOrganization",
        where: [params.organizationId],
        ...(checks.length > 0
          ? {
              filter: async (team: TeamRecord) => {
                for (const check of checks) if (!(await check(team))) return false;
                return true;
              },
            }
          : {}),
        map: (team) => presentTeam(tx, membership, organization, team),
      });
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
  body: z.object({ title: teamTitle, members: z.array(z.string().min(1)).max(1000).optional() }),
  response: teamSchema,
  status: 201,
  async run(context, { params, body }) {
    return context.storage.write(async (tx) => {
      const membership = await requireOrganizationPermission(tx, context, params.organizationId, "admin");
      const members = [...new Set(body.members ?? [])];
      for (const [index, user] of (body.members ?? []).entries()) {
        if (!(await findMember(tx, params.organizationId, user))) {
          throw badRequest(`body.members.${index}: "${user}" is not a member of this organization`);
        }
      }
      const now = context.clock().toISOString();
      const team: TeamRecord = {
        id: context.ids(),
        organization: params.organizationId,
        seq: await nextSequence(tx),
        title: body.title,
        createdAt: now,
      };
      await tx.put(tables.teams.name, team);
      for (const user of members) await putTeamMember(tx, context, team, user, "member");
      const created = await presentTeam(tx, membership, await permissionsOf(tx, membership), team);
      return new Reply(201, created, { location: teamLocation(context, team) });
    });
  },
});

/** Teams have no `urls` in the reference; the Location header of a creation points here. */
const teamLocation = (context: Context, team: TeamRecord) =>
  `${context.baseUrl}/v1/orgs/${team.organization}/teams/${team.id}`;

export const getTeamInOrganizationById = defineOperation({
  id: "getTeamInOrganizationById",
  method: "get",
  path: "/orgs/{organizationId}/teams/{teamId}",
  tag,
  summary: "Get a team (non-guest members)",
  params: teamParams,
  response: teamSchema,
  async run(context, { params }) {
    return context.storage.read(async (tx) => {
      const access = await requireTeamAccess(tx, context, params.organizationId, params.teamId, "view");
      return toTeam(tx, access.team, access.permissions);
    });
  },
});

export const updateTeamInOrganizationById = defineOperation({
  id: "updateTeamInOrganizationById",
  method: "patch",
  path: "/orgs/{organizationId}/teams/{teamId}",
  tag,
  summary: "Rename a team (admins and the team's owners)",
  params: teamParams,
  body: z.object({ title: teamTitle }),
  response: teamSchema,
  async run(context, { params, body }) {
    return context.storage.write(async (tx) => {
      const access = await requireTeamAccess(tx, context, params.organizationId, params.teamId, "admin");
      const team: TeamRecord = { ...access.team, title: body.title };
      await tx.put(tables.teams.name, team);
      return toTeam(tx, team, access.permissions);
    });
  },
});

export const removeTeamFromOrganizationById = defineOperation({
  id: "removeTeamFromOrganizationById",
  method: "delete",
  path: "/orgs/{organizationId}/teams/{teamId}",
  tag,
  summary: "Delete a team and its memberships (admins)",
  params: teamParams,
  emptyStatuses: [204, 205],
  async run(context, { params }) {
    return context.storage.write(async (tx) => {
      await requireOrganizationPermission(tx, context, params.organizationId, "admin");
      const team = await tx.get<TeamRecord>(tables.teams.name, params.teamId);
      if (!team || team.organization !== params.organizationId) return deleted(false);
      await removeTeamMemberships(tx, team);
      await tx.delete(tables.teams.name, team.id);
      return deleted(true);
    });
  },
});

async function removeTeamMemberships(tx: WriteTransaction, team: TeamRecord): Promise<void> {
  const memberships = await tx.list<TeamMemberRecord>(tables.teamMembers.name, {
    index: "byTeam",
    where: [team.id],
  });
  for (const membership of memberships) await tx.delete(tables.teamMembers.name, membership.key);
}

export const teamOperations = {
  listTeamsInOrganizationById,
  createOrganizationTeam,
  getTeamInOrganizationById,
  updateTeamInOrganizationById,
  removeTeamFromOrganizationById,
  ...teamMemberOperations,
};
