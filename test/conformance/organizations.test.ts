import { MemberRole } from "@gitbook/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";
import { COVERAGE } from "./coverage.js";

describe.each(STORAGE_KINDS)("conformance: users and organizations (%s)", (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(kind);
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.organizations);
    h.expectConformant();
    await h.close();
  });

  it("reads the authenticated user and users sharing an organization", async () => {
    const alice = await h.test.createUser("Alice", "alice@acme.test");
    const api = h.client(alice.token);
    const { data: me } = await api.user.getAuthenticatedUser();
    expect(me).toMatchObject({ object: "user", id: alice.id, displayName: "Alice" });
    const { data: self } = await api.users.getUserById(alice.id);
    expect(self.id).toBe(alice.id);
    const stranger = await h.test.createUser("Stranger");
    expect(await statusOf(api.users.getUserById(stranger.id))).toBe(404);
  });

  it("updates the authenticated user's name and photo, and refuses another's", async () => {
    const bob = await h.test.createUser("Bob", "bob@acme.test");
    const api = h.client(bob.token);
    const { data: renamed } = await api.users.updateUserById(bob.id, {
      displayName: "Robert",
      photoURL: "https://example.test/robert.png",
    });
    expect(renamed).toMatchObject({
      object: "user",
      id: bob.id,
      displayName: "Robert",
      photoURL: "https://example.test/robert.png",
    });
    expect((await api.user.getAuthenticatedUser()).data.displayName).toBe("Robert");
    expect(await statusOf(api.users.updateUserById(bob.id, {}))).toBe(400);
    const stranger = await h.test.createUser("Stranger");
    expect(await statusOf(api.users.updateUserById(stranger.id, { displayName: "Mallory" }))).toBe(404);
  });

  it("creates, reads, lists, patches and joins organizations", async () => {
    const admin = await h.test.createUser("Admin", "admin@acme.test");
    const created = await h.test.request("POST", "/orgs", { token: admin.token, body: { title: "Acme" } });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(created.body.urls.location);
    const api = h.client(admin.token);
    const id: string = created.body.id;

    const { data: organization } = await api.orgs.getOrganizationById(id);
    expect(organization).toMatchObject({ id, title: "Acme", permissions: { admin: true, view: true } });

    const { data: patched } = await api.orgs.updateOrganizationById(id, {
      title: "Acme Inc",
      emailDomains: ["acme.test"],
      hostname: "acme",
      defaultRole: MemberRole.Comment,
      inviteLinks: false,
      mergeRules: { type: "rules", rules: [{ rule: "require_at_least_one_review" }] },
    });
    expect(patched).toMatchObject({ title: "Acme Inc", emailDomains: ["acme.test"], hostname: "acme" });
    expect(await statusOf(api.orgs.updateOrganizationById(id, { title: "A" }))).toBe(400);

    const joiner = await h.test.createUser("Joiner", "joiner@acme.test");
    const joinerApi = h.client(joiner.token);
    expect(await statusOf(joinerApi.orgs.getOrganizationById(id))).toBe(404);
    const joined = await joinerApi.orgs.joinOrganization(id);
    expect(joined.status).toBe(204);
    const { data: asJoiner } = await joinerApi.orgs.getOrganizationById(id);
    expect(asJoiner.permissions).toMatchObject({ admin: false, view: true, listMembers: true });

    const outsider = await h.test.createUser("Outsider", "someone@elsewhere.test");
    // Refused by the email domain: the same 404 as an organization that does not exist, so that a
    // non-member cannot confirm it exists.
    const outsiderApi = h.client(outsider.token);
    expect(await statusOf(outsiderApi.orgs.joinOrganization(id))).toBe(404);
    expect(await statusOf(outsiderApi.orgs.joinOrganization("no-such-organization"))).toBe(404);

    const { data: list } = await joinerApi.orgs.listOrganizationsForAuthenticatedUser();
    expect(list.items.map((item) => item.id)).toEqual([id]);
    expect(list.count).toBe(1);
  });
});
