import { z } from "zod";
import { documentInput } from "../content/document/schema.js";
import type { OrganizationRecord } from "../organizations/tables.js";
import { timestamp, url } from "../shared/schema.js";
import type { World } from "../shared/world.js";
import type { AgentInstructionsRecord } from "./tables.js";

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

/**
 * The instructions of an organization. Before the first put they are an empty document, with the
 * organization's creation time as `updatedAt` and an empty `updatedBy` (nobody wrote them).
 */
export function presentAgentInstructions(
  world: World,
  organization: OrganizationRecord,
  record: AgentInstructionsRecord | undefined,
): AgentInstructions {
  return {
    object: "agent-instructions",
    instructions: record?.instructions ?? { object: "document", data: {}, nodes: [] },
    updatedAt: record?.updatedAt ?? organization.createdAt,
    updatedBy: record?.updatedBy ?? "",
    urls: { location: `${world.baseUrl}/v1/orgs/${organization.id}/agent-instructions` },
  };
}
