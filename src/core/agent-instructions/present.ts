import type { OrganizationRecord } from "../organizations/tables.js";
import type { World } from "../shared/world.js";
import type { AgentInstructions } from "./schemas.js";
import type { AgentInstructionsRecord } from "./tables.js";

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
