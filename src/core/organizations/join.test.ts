import { describe, expect, it } from "vitest";
import { createTestDocsbase } from "../../testing/double.js";

/** `POST /orgs/{id}/join` (docs/api.md, "Organizations"; docs/security.md, "Organizations are walls"). */
describe("joinOrganization", () => {
  async function setup() {
    const test = await createTestDocsbase();
    const owner = await test.createUser("Owner", "owner@acme.test");
    const org = (await test.as(owner).createOrganization({ body: { title: "Acme" } })).id;
    await test
      .as(owner)
      .updateOrganizationById({ organizationId: org, body: { emailDomains: ["acme.test"] } });
    return { test, org };
  }

  it("joins a caller of an allowed email domain, with the default role", async () => {
    const { test, org } = await setup();
    const colleague = await test.createUser("Colleague", "colleague@acme.test");
    expect((await test.request("POST", `/orgs/${org}/join`, { token: colleague.token })).status).toBe(204);
    const member = await test.as(colleague).getOrganizationById({ organizationId: org });
    expect(member.id).toBe(org);
    // Already a member: nothing changes.
    expect((await test.request("POST", `/orgs/${org}/join`, { token: colleague.token })).status).toBe(204);
  });

  it("answers a caller who may not join as for a missing organization, and adds nobody", async () => {
    const { test, org } = await setup();
    const stranger = await test.createUser("Stranger", "stranger@elsewhere.test");
    const answer = async (id: string) => {
      const { status, body } = await test.request("POST", `/orgs/${id}/join`, { token: stranger.token });
      return { status, body: JSON.stringify(body).replaceAll(id, "ORG") };
    };
    const existing = await answer(org);
    expect(existing.status).toBe(404);
    expect(existing).toEqual(await answer("no-such-org"));
    await expect(test.as(stranger).getOrganizationById({ organizationId: org })).rejects.toMatchObject({
      code: "not_found",
    });
  });
});
