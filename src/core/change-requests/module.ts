import { defineModule } from "../module.js";
import { changeRequestOperations } from "./operations.js";
import { changeRequestsTable } from "./tables.js";

/** Change requests: review, update from the space, merge. Purging a space removes its change requests. */
export const changeRequestsModule = defineModule({
  name: "change-requests",
  tables: [changeRequestsTable],
  operations: changeRequestOperations,
  hooks: {
    async purgeSpace(tx, _world, space) {
      const all = await tx.list(changeRequestsTable, { index: "bySpaceNumber", where: [space.id] });
      for (const changeRequest of all) await tx.delete(changeRequestsTable, changeRequest.id);
    },
  },
});
