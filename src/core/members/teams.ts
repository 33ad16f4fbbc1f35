import * as z from "zod";
import { inOrganization } from "../permissions/organization.js";
import { defineOperation } from "../registry.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import { pathParam } from "../shared/schema.js";
import { type TeamMemberRecord, teamMembersTable, teamsTable } from "../teams/tables.js";
import { requireTeam } from "../teams/access.js";
import { teamMemberSchema, teamSchema } from "../teams/schemas.js";
import { requireMember } from "./access.js";
import { presentTeam } from "../teams/present.js";

const memberTeamSchema = z.object({ team: teamSchema, member: teamMemberSchema });

export const listTeamsForOrganizationMember = defineOperation({
  id: "listTeamsForOrganizationMember",
  method: "get",
  path: "/orgs/{organizationId}/members/{userId}/teams",
  tag: "members",
  summary: "List the teams a member belongs to, with their role in each (non-guest members)",
  params: z.object({ organizationId: pathParam(), userId: pathParam() }),
  access: inOrganization("listTeams"),
  query: z.object({ ...pageQuery, title: z.string().max(512).optional() }),
  response: listOf(memberTeamSchema),
  async run(scope, { params, query }) {
    const { tx, membership, permissions } = scope;
    const member = await requireMember(tx, membership.organization.id, params.userId);
    const title = query.title?.trim().toLowerCase();
    const teamOf = (record: TeamMemberRecord) => requireTeam(tx, record.organization, record.team);
    return paginate<TeamMemberRecord, z.input<typeof memberTeamSchema>>(tx, query, {
      table: teamMembersTable,
      index: "byMember",
      where: [member.organization, member.user],
      ...(title
        ? {
            filter: async (record: TeamMemberRecord) =>
              (await tx.get(teamsTable, record.team))?.title.toLowerCase().includes(title) ?? false,
          }
        : {}),
      map: async (record) => ({
        team: await presentTeam(tx, membership, permissions, await teamOf(record)),
        member: { role: record.role },
      }),
    });
  },
});
