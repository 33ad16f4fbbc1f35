import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, STORAGE_KINDS, type Harness } from "./harness.js";

/**
 * The extension operations that issue 9 added (docsbase's own, not in the reference, so the
 * official client has no method for them): token listing and revocation, and email invitations
 * for the invitee and the organization's admins, on every storage adapter, through the typed
 * in-process client (deletions over HTTP, for their 205 or 204).
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
    const client = h.test.as(ada);
    const created = await client.createUserToken({ userId: ada.id, body: { label: "CI", expiresIn: 3600 } });
    const listed = await client.listUserTokens({ userId: ada.id });
    expect(listed.count).toBe(2);
    const entry = listed.items.find((token) => token.id === created.id);
    expect(entry).toMatchObject({ object: "api-token", label: "CI", expiresAt: expect.any(String) });
    expect(JSON.stringify(listed)).not.toContain(created.token);
    // Over HTTP for the statuses: 205 when the token went, 204 when there was none.
    const revoke = () =>
      h.test.request("DELETE", `/users/${ada.id}/tokens/${created.id}`, { token: ada.token });
    expect((await revoke()).status).toBe(205);
    await expect(h.test.as(created.token).getAuthenticatedUser()).rejects.toMatchObject({
      code: "unauthorized",
    });
    expect((await revoke()).status).toBe(204);
  });

  it("keeps email invitations pending until the invitee accepts or declines", async () => {
    const admin = await h.test.createUser("Admin", `admin-invites-${kind}@acme.test`);
    const bob = await h.test.createUser("Bob", `bob-invites-${kind}@acme.test`);
    const carol = await h.test.createUser("Carol", `carol-invites-${kind}@acme.test`);
    const organizationId = (await h.test.as(admin).createOrganization({ body: { title: "Acme" } })).id;
    const invited = await h.test.as(admin).inviteUsersToOrganization({
      organizationId,
      body: { emails: [`bob-invites-${kind}@acme.test`, `carol-invites-${kind}@acme.test`], role: "edit" },
    });
    expect(invited).toEqual({ users: [], invited: 2 });
    const pending = () => h.test.as(admin).listOrganizationEmailInvites({ organizationId });
    expect((await pending()).count).toBe(2);

    const [forBob] = (await h.test.as(bob).listUserInvites()).items;
    expect(await h.test.as(bob).acceptUserInvite({ invitationId: forBob!.id })).toMatchObject({
      state: "accepted",
    });
    const bobOrgs = (await h.test.as(bob).listOrganizationsForAuthenticatedUser()).items;
    expect(bobOrgs.map((item) => item.id)).toContain(organizationId);

    const [forCarol] = (await h.test.as(carol).listUserInvites()).items;
    expect(await h.test.as(carol).declineUserInvite({ invitationId: forCarol!.id })).toBeUndefined();
    expect((await h.test.as(carol).listOrganizationsForAuthenticatedUser()).count).toBe(0);

    await h.test.as(admin).inviteUsersToOrganization({
      organizationId,
      body: { emails: [`carol-invites-${kind}@acme.test`], role: "read" },
    });
    const again = (await pending()).items.find((item) => item.email.startsWith("carol"));
    const revoked = await h.test.request("DELETE", `/orgs/${organizationId}/email-invites/${again!.id}`, {
      token: admin.token,
    });
    expect(revoked.status).toBe(205);
    expect((await h.test.as(carol).listUserInvites()).count).toBe(0);
  });

  it("keeps a site's hostname claim pending until the operator approves it", async () => {
    const admin = await h.test.createUser("Hal", `hal-hostnames-${kind}@acme.test`);
    const client = h.test.as(admin);
    const organizationId = (await client.createOrganization({ body: { title: "Hosts" } })).id;
    const spaceId = (await client.createSpace({ organizationId, body: { title: "Docs" } })).id;
    const siteId = (await client.createSite({ organizationId, body: { spaces: [spaceId] } })).id;
    await client.publishSite({ organizationId, siteId });
    const hostname = `docs.${kind}.example`;
    const claimed = await client.updateSiteById({ organizationId, siteId, body: { hostname } });
    expect(claimed).toMatchObject({ hostname, hostnameVerification: { status: "pending" } });
    const lookup = () =>
      h.test.request("GET", `/urls/published?url=${encodeURIComponent(`https://${hostname}/`)}`, {
        token: null,
      });
    expect((await lookup()).status).toBe(404);
    const approved = await h.test.request("POST", `/orgs/${organizationId}/sites/${siteId}/hostname/approve`);
    expect(approved.status).toBe(200);
    expect(approved.body.urls.published).toBe(`https://${hostname}/`);
    expect((await lookup()).body.site).toBe(siteId);
  });
});
