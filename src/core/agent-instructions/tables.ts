import * as z from "zod";
import { defineTable } from "../storage/table.js";

/** An organization's Docs agent instructions, once written; one record per organization. */
export const agentInstructionsRecord = z.object({
  organization: z.string(),
  /** A document (the reference `JSONDocument`), checked by `documentInput` when written. */
  instructions: z.record(z.string(), z.unknown()),
  updatedAt: z.string(),
  /** The user id of the member who last wrote them. */
  updatedBy: z.string(),
});
export type AgentInstructionsRecord = z.infer<typeof agentInstructionsRecord>;

export const agentInstructionsTable = defineTable({
  name: "agentInstructions",
  key: "organization",
  indexes: {},
  record: agentInstructionsRecord,
});
