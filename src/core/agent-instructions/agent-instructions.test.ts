import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { answerOf, expectRefusedUnchanged } from "../../../test/support/limits.js";
import { MAX_INSTRUCTIONS_JSON_LENGTH } from "./schemas.js";

const paragraph = (text: string) => ({
  object: "block",
  type: "paragraph",
  nodes: [{ object: "text", leaves: [{ object: "leaf", text, marks: [] }] }],
});
const document = (...texts: string[]) => ({ object: "document", data: {}, nodes: texts.map(paragraph) });

describe("agent instructions", () => {
  it("is an empty document before the first put, then what the last put wrote, by whom and when", async () => {
    const { client, org, owner, member, advance, test } = await createWorkspace();
    const organizationId = org;
    const location = `${test.endpoint}/v1/orgs/${org}/agent-instructions`;
    const created = (await client.getOrganizationById({ organizationId })).createdAt;
    const initial = await client.getOrganizationAgentInstructions({ organizationId });
    expect(initial).toEqual({
      object: "agent-instructions",
      instructions: { object: "document", data: {}, nodes: [] },
      updatedAt: created,
      updatedBy: "",
      urls: { location },
    });

    advance(60_000);
    const put = await client.updateOrganizationAgentInstructions({
      organizationId,
      body: { instructions: document("Answer in English.", "Link to the API reference.") },
    });
    expect(put).toEqual({
      object: "agent-instructions",
      instructions: document("Answer in English.", "Link to the API reference."),
      updatedAt: "2025-01-01T00:01:00.000Z",
      updatedBy: owner.id,
      urls: { location },
    });
    expect(await client.getOrganizationAgentInstructions({ organizationId })).toEqual(put);

    // Another admin replaces them.
    const admin = await member("admin");
    advance(60_000);
    const replaced = await admin.client.updateOrganizationAgentInstructions({
      organizationId,
      body: { instructions: document("Be brief.") },
    });
    expect(replaced).toMatchObject({
      instructions: document("Be brief."),
      updatedAt: "2025-01-01T00:02:00.000Z",
      updatedBy: admin.userId,
    });
    // A document without `data` gets the empty one.
    const bare = await client.updateOrganizationAgentInstructions({
      organizationId,
      body: { instructions: { object: "document", nodes: [] } },
    });
    expect(bare.instructions).toEqual({ object: "document", data: {}, nodes: [] });
  });

  it("lets members read and admins write; non-members see nothing", async () => {
    const { client, org, member, outsider, test } = await createWorkspace();
    const organizationId = org;
    await client.updateOrganizationAgentInstructions({
      organizationId,
      body: { instructions: document("Be kind.") },
    });
    const observe = () => client.getOrganizationAgentInstructions({ organizationId });
    const before = await observe();
    const body = { instructions: document("Mine.") };
    for (const role of ["create", "read", null] as const) {
      const caller = (await member(role)).client;
      expect(await caller.getOrganizationAgentInstructions({ organizationId })).toEqual(before);
      await expect(
        caller.updateOrganizationAgentInstructions({ organizationId, body }),
      ).rejects.toMatchObject({
        code: "forbidden",
        message: expect.stringContaining('"admin" permission'),
      });
    }
    await expect(outsider.client.getOrganizationAgentInstructions({ organizationId })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(
      outsider.client.updateOrganizationAgentInstructions({ organizationId, body }),
    ).rejects.toMatchObject({ code: "not_found" });
    // Anonymous, over HTTP for its 401.
    expect((await test.request("GET", `/orgs/${org}/agent-instructions`, { token: null })).status).toBe(401);
    expect(await observe()).toEqual(before);
  });

  it("takes only a document of bounded size", async () => {
    const { api, client, org } = await createWorkspace();
    const organizationId = org;
    const observe = () => client.getOrganizationAgentInstructions({ organizationId });
    // `instructions` is typed `unknown` (its schema checks the structure): these documents compile.
    const put = (instructions: unknown) => () =>
      answerOf(client.updateOrganizationAgentInstructions({ organizationId, body: { instructions } }));
    const huge = document("x".repeat(MAX_INSTRUCTIONS_JSON_LENGTH));
    await expectRefusedUnchanged(observe, [
      // A body no client type allows, as JSON sent over HTTP.
      [() => api("PUT", `/orgs/${org}/agent-instructions`, {}), "body.instructions"],
      [put("Be kind."), "body.instructions"],
      [put({ object: "block", nodes: [] }), "body.instructions.object"],
      [put({ object: "document", nodes: [{ object: "leaf" }] }), "body.instructions.nodes.0.object"],
      [put(huge), "body.instructions"],
    ]);
    // Just under the bound is accepted.
    const overhead = JSON.stringify(document("")).length;
    const largest = document("x".repeat(MAX_INSTRUCTIONS_JSON_LENGTH - overhead));
    expect(JSON.stringify(largest).length).toBe(MAX_INSTRUCTIONS_JSON_LENGTH);
    await client.updateOrganizationAgentInstructions({ organizationId, body: { instructions: largest } });
  });
});
