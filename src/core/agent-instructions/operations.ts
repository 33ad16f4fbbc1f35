import * as z from "zod";
import { inOrganization } from "../permissions/organization.js";
import { defineOperation } from "../registry.js";
import { pathParam } from "../shared/schema.js";
import { agentInstructionsSchema, instructionsInput } from "./schemas.js";
import { type AgentInstructionsRecord, agentInstructionsTable } from "./tables.js";
import { presentAgentInstructions } from "./present.js";

/** The Docs agent instructions of an organization: members read them, admins write them. */

const tag = "organizations";
const params = z.object({ organizationId: pathParam() });

export const getOrganizationAgentInstructions = defineOperation({
  id: "getOrganizationAgentInstructions",
  method: "get",
  path: "/orgs/{organizationId}/agent-instructions",
  tag,
  summary:
    "Get the Docs agent instructions of an organization (members, guests included); an empty " +
    "document before the first update",
  params,
  access: inOrganization("member"),
  response: agentInstructionsSchema,
  async run(scope) {
    const organization = scope.membership.organization;
    const record = await scope.tx.get(agentInstructionsTable, organization.id);
    return presentAgentInstructions(scope, organization, record);
  },
});

export const updateOrganizationAgentInstructions = defineOperation({
  id: "updateOrganizationAgentInstructions",
  method: "put",
  path: "/orgs/{organizationId}/agent-instructions",
  tag,
  summary: "Replace the Docs agent instructions of an organization (admins); records who and when",
  params,
  access: inOrganization("admin"),
  body: z.object({ instructions: instructionsInput }),
  response: agentInstructionsSchema,
  async run(scope, { body }) {
    const { tx, membership } = scope;
    const record: AgentInstructionsRecord = {
      organization: membership.organization.id,
      instructions: body.instructions,
      updatedAt: scope.clock().toISOString(),
      updatedBy: membership.member.user,
    };
    await tx.put(agentInstructionsTable, record);
    return presentAgentInstructions(scope, membership.organization, record);
  },
});

export const agentInstructionsOperations = {
  getOrganizationAgentInstructions,
  updateOrganizationAgentInstructions,
};
