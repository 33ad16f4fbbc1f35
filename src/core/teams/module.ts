import { defineModule } from "../module.js";
import { teamOperations } from "./operations.js";
import { teamCounts, teamMembersTable, teamsTable } from "./tables.js";

/** Teams of an organization and their members. A member who leaves the organization leaves its teams. */
export const teamsModule = defineModule({
  name: "teams",
  tables: [teamsTable, teamMembersTable],
  operations: teamOperations,
  counts: teamCounts,
  hooks: {
    async memberRemoved(tx, _world, member) {
      const memberships = await tx.list(teamMembersTable, {
        index: "byMember",
        where: [member.organization, member.user],
      });
      for (const teamMember of memberships) await tx.delete(teamMembersTable, teamMember.key);
    },
  },
});
