import { MemberRole, type JSONDocument } from "@gitbook/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COVERAGE } from "./coverage.js";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";

/** The agent-instructions operations of the reference (docs/api.md, "Agent instructions"). */

const instructions = {
  object: "document",
  data: {},
  nodes: [
    {
      object: "block",
      type: "paragraph",
      nodes: [{ object: "text", leaves: [{ object: "leaf", text: "Answer in English.", marks: [] }] }],
    },
  ],
} as unknown as JSONDocument;

describe.each(STORAGE_KINDS)("conformance: agent instructions (%s)", (kind) => {
  let h: Harness;
  beforeAll(async () => {
    let now = Date.parse("2025-01-01T00:00:00Z");
    h = await createHarness(kind, { clock: () => new Date((now += 1000)) });
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.agent_instructions);
    h.expectConformant();
    await h.close();
  });

  it("reads an empty document, then what an admin wrote; members read, only admins write", async () => {
    const admin = await h.test.createUser("Admin", `agent-admin-${kind}@acme.test`);
    const reader = await h.test.createUser("Reader", `agent-reader-${kind}@acme.test`);
    const outsider = await h.test.createUser("Outsider", `agent-outsider-${kind}@acme.test`);
    const org = (await h.test.as(admin).createOrganization({ body: { title: "Agents" } })).id;
    const api = h.client(admin.token);
    await api.orgs.inviteUsersToOrganization(org, {
      emails: [`agent-reader-${kind}@acme.test`],
      role: MemberRole.Read,
    });
    const [invite] = (await h.test.as(reader).listUserInvites()).items;
    await h.test.as(reader).acceptUserInvite({ invitationId: invite!.id });

    const { data: initial } = await api.orgs.getOrganizationAgentInstructions(org);
    expect(initial).toMatchObject({
      object: "agent-instructions",
      instructions: { object: "document", data: {}, nodes: [] },
      updatedBy: "",
    });
    const { data: updated } = await api.orgs.updateOrganizationAgentInstructions(org, { instructions });
    expect(updated).toMatchObject({ object: "agent-instructions", instructions, updatedBy: admin.id });
    expect(Date.parse(updated.updatedAt)).toBeGreaterThan(Date.parse(initial.updatedAt));

    const member = h.client(reader.token);
    expect((await member.orgs.getOrganizationAgentInstructions(org)).data).toEqual(updated);
    expect(await statusOf(member.orgs.updateOrganizationAgentInstructions(org, { instructions }))).toBe(403);
    const stranger = h.client(outsider.token);
    expect(await statusOf(stranger.orgs.getOrganizationAgentInstructions(org))).toBe(404);
    expect(await statusOf(stranger.orgs.updateOrganizationAgentInstructions(org, { instructions }))).toBe(
      404,
    );
    expect(
      await statusOf(
        api.orgs.updateOrganizationAgentInstructions(org, { instructions: { object: "block" } as never }),
      ),
    ).toBe(400);
    expect((await api.orgs.getOrganizationAgentInstructions(org)).data).toEqual(updated);
  });
});
