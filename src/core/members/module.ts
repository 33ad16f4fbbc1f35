import { defineModule } from "../module.js";
import { memberOperations } from "./operations.js";
import { memberCounts, membersTable } from "./tables.js";

/** Members of organizations. Removing one runs every module's `memberRemoved` hook. */
export const membersModule = defineModule({
  name: "members",
  tables: [membersTable],
  operations: memberOperations,
  counts: memberCounts,
});
