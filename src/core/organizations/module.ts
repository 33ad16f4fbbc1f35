import { defineModule } from "../module.js";
import { organizationOperations } from "./operations.js";
import { organizationsTable } from "./tables.js";

/** Organizations. */
export const organizationsModule = defineModule({
  name: "organizations",
  tables: [organizationsTable],
  operations: organizationOperations,
});
