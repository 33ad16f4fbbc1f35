import { defineModule } from "../module.js";
import { agentInstructionsOperations } from "./operations.js";
import { agentInstructionsTable } from "./tables.js";

/** The Docs agent instructions of an organization (docs/api.md, "Agent instructions"). */
export const agentInstructionsModule = defineModule({
  name: "agent-instructions",
  tables: [agentInstructionsTable],
  operations: agentInstructionsOperations,
});
