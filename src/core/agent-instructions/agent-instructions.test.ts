import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { expectRefusedUnchanged } from "../../../test/support/limits.js";
import { MAX_INSTRUCTIONS_JSON_LENGTH } from "./schemas.js";

const paragraph = (text: string) => ({
  object: "block",
  type: "paragraph",
  nodes: [{ object: "text", leaves: [{ object: "leaf", text, marks: [] }] }],
});
const document = (...texts: string[]) => ({ object: "document", data: {}, nodes: texts.map(paragraph) });

describe("agent instructions", () => {
  it("is an empty document before the first put, then what the last put wrote, by whom and when", async () => {
    const { api, org, owner, member, advance, test } = await createWorkspace();
    const location = `${test.endpoint}/v1/orgs/${org}/agent-instructions`;
    const created = (await api("GET", `/orgs/${org}`)).body.createdAt as string;
    const initial = await api("GET", `/orgs/${org}/agent-instructions`);
    expect(initial.status).toBe(200);
    expect(initial.body).toEqual({
      object: "agent-instructions",
      instructions: { object: "document", data: {}, nodes: [] },
      updatedAt: created,
      updatedBy: "",
      urls: { location },
    });

    advance(60_000);
    const put = await api("PUT", `/orgs/${org}/agent-instructions`, {
      instructions: document("Answer in English.", "Link to the API reference."),
    });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      object: "agent-instructions",
      instructions: document("Answer in English.", "Link to the API reference."),
      updatedAt: "2025-01-01T00:01:00.000Z",
      updatedBy: owner.id,
      urls: { location },
    });
    expect((await api("GET", `/orgs/${org}/agent-instructions`)).body).toEqual(put.body);

    // Another admin replaces them.
    const admin = await member("admin");
    advance(60_000);
    const replaced = await admin("PUT", `/orgs/${org}/agent-instructions`, {
      instructions: document("Be brief."),
    });
    expect(replaced.body).toMatchObject({
      instructions: document("Be brief."),
      updatedAt: "2025-01-01T00:02:00.000Z",
      updatedBy: admin.userId,
    });
    // A document without `data` gets the empty one.
    const bare = await api("PUT", `/orgs/${org}/agent-instructions`, {
      instructions: { object: "document", nodes: [] },
    });
    expect(bare.body.instructions).toEqual({ object: "document", data: {}, nodes: [] });
  });

  it("lets members read and admins write; non-members see nothing", async () => {
    const { api, org, member, outsider, test } = await createWorkspace();
    await api("PUT", `/orgs/${org}/agent-instructions`, { instructions: document("Be kind.") });
    const observe = async () => (await api("GET", `/orgs/${org}/agent-instructions`)).body;
    const before = await observe();
    const body = { instructions: document("Mine.") };
    for (const role of ["create", "read", null] as const) {
      const caller = await member(role);
      expect((await caller("GET", `/orgs/${org}/agent-instructions`)).body).toEqual(before);
      const refused = await caller("PUT", `/orgs/${org}/agent-instructions`, body);
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toContain('"admin" permission');
    }
    expect((await outsider("GET", `/orgs/${org}/agent-instructions`)).status).toBe(404);
    expect((await outsider("PUT", `/orgs/${org}/agent-instructions`, body)).status).toBe(404);
    expect((await test.request("GET", `/orgs/${org}/agent-instructions`, { token: null })).status).toBe(401);
    expect(await observe()).toEqual(before);
  });

  it("takes only a document of bounded size", async () => {
    const { api, org } = await createWorkspace();
    const observe = async () => (await api("GET", `/orgs/${org}/agent-instructions`)).body;
    const put = (body: unknown) => () => api("PUT", `/orgs/${org}/agent-instructions`, body);
    const huge = document("x".repeat(MAX_INSTRUCTIONS_JSON_LENGTH));
    await expectRefusedUnchanged(observe, [
      [put({}), "body.instructions"],
      [put({ instructions: "Be kind." }), "body.instructions"],
      [put({ instructions: { object: "block", nodes: [] } }), "body.instructions.object"],
      [
        put({ instructions: { object: "document", nodes: [{ object: "leaf" }] } }),
        "body.instructions.nodes.0.object",
      ],
      [put({ instructions: huge }), "body.instructions"],
    ]);
    // Just under the bound is accepted.
    const overhead = JSON.stringify(document("")).length;
    const largest = document("x".repeat(MAX_INSTRUCTIONS_JSON_LENGTH - overhead));
    expect(JSON.stringify(largest).length).toBe(MAX_INSTRUCTIONS_JSON_LENGTH);
    expect((await put({ instructions: largest })()).status).toBe(200);
  });
});
