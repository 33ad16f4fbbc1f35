import { defineModule } from "../module.js";
import { contributionsTable } from "./contributions.js";
import { changeRequestOperations } from "./operations.js";
import { changeRequestsTable } from "./tables.js";

/**
 * Change requests: review, update from the space, merge. Purging a space removes its change
 * requests and their contributions.
 */
export const changeRequestsModule = defineModule({
  name: "change-requests",
  tables: [changeRequestsTable, contributionsTable],
  operations: changeRequestOperations,
  hooks: {
    async purgeSpace(tx, _world, space) {
      const all = await tx.list(changeRequestsTable, { index: "bySpaceNumber", where: [space.id] });
      for (const changeRequest of all) {
        const contributions = await tx.list(contributionsTable, {
          index: "byChangeRequest",
          where: [changeRequest.id],
        });
        for (const contribution of contributions) await tx.delete(contributionsTable, contribution.key);
        await tx.delete(changeRequestsTable, changeRequest.id);
      }
    },
  },
});
