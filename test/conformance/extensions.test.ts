import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, STORAGE_KINDS, type Harness } from "./harness.js";

/**
 * The extension operations that issue 9 added (docsbase's own, not in the reference, so the
 * official client has no method for them): token listing and revocation, and email invitations
 * for the invitee and the organization's admins, on every storage adapter, over HTTP.
 */
describe.each(STORAGE_KINDS)("conformance: extension operations (%s)", (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(kind);
  });
  afterAll(async () => {
    await h.close();
  });

  it("lists and revokes a user's tokens", async () => {
    const ada = await h.test.createUser("Ada", `ada-tokens-${kind}@acme.test`);
    const created = await h.test.request("POST", `/users/${ada.id}/tokens`, {
      token: ada.token,
      body: { label: "CI", expiresIn: 3600 },
    });
    expect(created.status).toBe(201);
    const listed = await h.test.request("GET", `/users/${ada.id}/tokens`, { token: ada.token });
    expect(listed.status).toBe(200);
    expect(listed.body.count).toBe(2);
    const entry = listed.body.items.find((token: { id: string }) => token.id === created.body.id);
    expect(entry).toMatchObject({ object: "api-token", label: "CI", expiresAt: expect.any(String) });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.token);
    const revoked = await h.test.request("DELETE", `/users/${ada.id}/tokens/${created.body.id}`, {
      token: ada.token,
    });
    expect(revoked.status).toBe(205);
    expect((await h.test.request("GET", "/user", { token: created.body.token })).status).toBe(401);
    const again = await h.test.request("DELETE", `/users/${ada.id}/tokens/${created.body.id}`, {
      token: ada.token,
    });
    expect(again.status).toBe(204);
  });

  it("keeps email invitations pending until the invitee accepts or declines", async () => {
    const admin = await h.test.createUser("Admin", `admin-invites-${kind}@acme.test`);
    const bob = await h.test.createUser("Bob", `bob-invites-${kind}@acme.test`);
    const carol = await h.test.createUser("Carol", `carol-invites-${kind}@acme.test`);
    const org = (await h.test.request("POST", "/orgs", { token: admin.token, body: { title: "Acme" } })).body
      .id;
    const invited = await h.test.request("POST", `/orgs/${org}/invites`, {
      token: admin.token,
      body: { emails: [`bob-invites-${kind}@acme.test`, `carol-invites-${kind}@acme.test`], role: "edit" },
    });
    expect(invited.status).toBe(200);
    const pending = await h.test.request("GET", `/orgs/${org}/email-invites`, { token: admin.token });
    expect(pending.body.count).toBe(2);

    const [forBob] = (await h.test.request("GET", "/user/invites", { token: bob.token })).body.items;
    expect(
      (await h.test.request("POST", `/user/invites/${forBob.id}/accept`, { token: bob.token })).status,
    ).toBe(200);
    const bobOrgs = (await h.test.request("GET", "/orgs", { token: bob.token })).body.items;
    expect(bobOrgs.map((item: { id: string }) => item.id)).toContain(org);

    const [forCarol] = (await h.test.request("GET", "/user/invites", { token: carol.token })).body.items;
    const declined = await h.test.request("POST", `/user/invites/${forCarol.id}/decline`, {
      token: carol.token,
    });
    expect(declined.status).toBe(204);
    expect((await h.test.request("GET", "/orgs", { token: carol.token })).body.count).toBe(0);

    await h.test.request("POST", `/orgs/${org}/invites`, {
      token: admin.token,
      body: { emails: [`carol-invites-${kind}@acme.test`], role: "read" },
    });
    const listedAgain = await h.test.request("GET", `/orgs/${org}/email-invites`, { token: admin.token });
    const again = listedAgain.body.items.find((item: { email: string }) => item.email.startsWith("carol"));
    const revoked = await h.test.request("DELETE", `/orgs/${org}/email-invites/${again.id}`, {
      token: admin.token,
    });
    expect(revoked.status).toBe(205);
    expect((await h.test.request("GET", "/user/invites", { token: carol.token })).body.count).toBe(0);
  });
});
