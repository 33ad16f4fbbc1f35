import * as z from "zod";
import { documentInput } from "../document/schema.js";
import { timestamp, url } from "../shared/schema.js";

/** Longest `instructions` document, in characters of its JSON (docs/api.md, "Agent instructions"). */
export const MAX_INSTRUCTIONS_JSON_LENGTH = 500_000;

/** The `instructions` of a put: a document whose JSON fits `MAX_INSTRUCTIONS_JSON_LENGTH`. */
export const instructionsInput = documentInput.refine(
  (document) => JSON.stringify(document).length <= MAX_INSTRUCTIONS_JSON_LENGTH,
  { error: `Too big: expected a document of at most ${MAX_INSTRUCTIONS_JSON_LENGTH} characters of JSON` },
);

/** The reference `OrganizationAgentInstructions`. */
export const agentInstructionsSchema = z.object({
  object: z.literal("agent-instructions"),
  instructions: z.record(z.string(), z.unknown()),
  updatedAt: timestamp(),
  updatedBy: z.string(),
  urls: z.object({ location: url() }),
});
export type AgentInstructions = z.infer<typeof agentInstructionsSchema>;
