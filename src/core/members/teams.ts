import { z } from "zod";
import { defineOperation } from "../registry.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import { pathParam } from "../shared/schema.js";
import { tables, type TeamMemberRecord, type TeamRecord } from "../tables.js";
import { presentTeam, requireTeam } from "../teams/access.js";
import { teamMemberSchema, teamSchema } from "../teams/schemas.js";
import { permissionsOf, requireMember, requireOrganizationPermission } from "./access.js";

const memberTeamSchema = z.object({ team: teamSchema, member: teamMemberSchema });

export const listTeamsForOrganizationMember = defineOperation({
  id: "listTeamsForOrganizationMember",
  method: "get",
  path: "/orgs/{organizationId}/members/{userId}/teams",
  tag: "members",
  summary: "List the teams a member belongs to, with their role in each (non-guest members)",
  params: z.object({ organizationId: pathParam(), userId: pathParam() }),
  query: z.object({ ...pageQuery, title: z.string().max(512).optional() }),
  response: listOf(memberTeamSchema),
  async run(context, { params, query }) {
    return context.storage.read(async (tx) => {
      const membership = await requireOrganizationPermission(tx, context, params.organizationId, "listTeams");
      const organization = await permissionsOf(tx, membership);
      const member = await requireMember(tx, params.organizationId, params.userId);
      const title = query.title?.trim().toLowerCase();
      const teamOf = (record: TeamMemberRecord) => requireTeam(tx, record.organization, record.team);
      return paginate<TeamMemberRecord, z.input<typeof memberTeamSchema>>(tx, query, {
        table: tables.teamMembers,
        index: "byMember",
        where: [member.organization, member.user],
        ...(title
          ? {
              filter: async (record: TeamMemberRecord) =>
                (await tx.get<TeamRecord>(tables.teams.name, record.team))?.title
                  .toLowerCase()
                  .includes(title) ?? false,
            }
          : {}),
        map: async (record) => ({
          team: await presentTeam(tx, membership, organization, await teamOf(record)),
          member: { role: record.role },
        }),
      });
    });
  },
});
