import { MemberRole } from "@gitbook/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";
import { COVERAGE } from "./coverage.js";

describe.each(STORAGE_KINDS)("conformance: collections (%s)", (kind) => {
  let h: Harness;
  let organizations = 0;
  beforeAll(async () => {
    h = await createHarness(kind);
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.collections);
    h.expectConformant();
    await h.close();
  });

  /** A user with an organization of their own, and their client. */
  async function owner(name = "Owner") {
    organizations++;
    const user = await h.test.createUser(name, `${name.toLowerCase()}@org${organizations}.test`);
    const created = await h.test.as(user).createOrganization({ body: { title: `${name} Org` } });
    return {
      user,
      api: h.client(user.token),
      org: created.id,
      domain: `org${organizations}.test`,
    };
  }

  /** A member who joins through the organization's email domain, with `defaultRole`'s role. */
  async function joiner(owned: Awaited<ReturnType<typeof owner>>, role: MemberRole) {
    await owned.api.orgs.updateOrganizationById(owned.org, {
      emailDomains: [owned.domain],
      defaultRole: role,
    });
    const user = await h.test.createUser(`Joiner ${role}`, `${role}-${Date.now()}@${owned.domain}`);
    const api = h.client(user.token);
    await api.orgs.joinOrganization(owned.org);
    return api;
  }

  it("creates, reads, lists, updates and deletes collections", async () => {
    const { api, org } = await owner();
    const { data: top, status } = await api.orgs.createCollection(org, { title: "Top" });
    expect(status).toBe(201);
    expect(top).toMatchObject({
      object: "collection",
      title: "Top",
      organization: org,
      defaultLevel: "inherit",
    });
    const { data: child } = await api.orgs.createCollection(org, { title: "Child", parent: top.id });
    expect(child.parent).toBe(top.id);
    const { data: untitled } = await api.orgs.createCollection(org, {});
    expect(untitled.title).toBe("Untitled");

    const { data: all } = await api.orgs.listCollectionsInOrganizationById(org);
    expect(all.items.map((item) => item.title)).toEqual(["Top", "Child", "Untitled"]);
    const { data: roots } = await api.orgs.listCollectionsInOrganizationById(org, { nested: false });
    expect(roots.items.map((item) => item.title)).toEqual(["Top", "Untitled"]);
    const { data: page } = await api.orgs.listCollectionsInOrganizationById(org, { limit: 1 });
    expect(page.next?.page).toEqual(expect.any(String));

    const { data: got } = await api.collections.getCollectionById(child.id);
    expect(got).toEqual(child);
    const { data: patched } = await api.collections.updateCollectionById(child.id, {
      title: "Guides",
      description: "Every guide",
      defaultLevel: MemberRole.Edit,
    });
    expect(patched).toMatchObject({ title: "Guides", description: "Every guide", defaultLevel: "edit" });
    expect(await statusOf(api.collections.updateCollectionById(child.id, { title: "x".repeat(51) }))).toBe(
      400,
    );

    expect((await api.collections.deleteCollectionById(top.id)).status).toBe(205);
    expect((await api.collections.deleteCollectionById(top.id)).status).toBe(204);
    expect(await statusOf(api.collections.getCollectionById(child.id))).toBe(404);
  });

  it("lists the spaces of a collection", async () => {
    const { api, org } = await owner();
    const { data: collection } = await api.orgs.createCollection(org, { title: "Docs" });
    await api.orgs.createSpace(org, { title: "One", parent: collection.id });
    await api.orgs.createSpace(org, { title: "Root" });
    await api.orgs.createSpace(org, { title: "Two", parent: collection.id });
    const { data: spaces } = await api.collections.listSpacesInCollectionById(collection.id);
    expect(spaces.items.map((space) => space.title)).toEqual(["One", "Two"]);
    expect(spaces.count).toBe(2);
    expect(spaces.items[0]).toMatchObject({ parent: collection.id, visibility: "in-collection" });
  });

  it("moves collections and refuses moves that are invalid or change nothing", async () => {
    const { api, org } = await owner();
    const { data: a } = await api.orgs.createCollection(org, { title: "A" });
    const { data: b } = await api.orgs.createCollection(org, { title: "B" });
    const { data: moved } = await api.collections.moveCollection(b.id, {
      position: { before: { type: "collection", collection: a.id } },
    });
    expect(moved.id).toBe(b.id);
    const { data: roots } = await api.orgs.listCollectionsInOrganizationById(org, { nested: false });
    expect(roots.items.map((item) => item.title)).toEqual(["B", "A"]);
    const { data: nested } = await api.collections.moveCollection(b.id, { parent: a.id });
    expect(nested.parent).toBe(a.id);
    expect(await statusOf(api.collections.moveCollection(b.id, { parent: a.id }))).toBe(409);
    expect(await statusOf(api.collections.moveCollection(a.id, { parent: b.id }))).toBe(400);
    expect(await statusOf(api.collections.moveCollection(a.id, {}))).toBe(400);
    expect(await statusOf(api.collections.moveCollection("missing", { parent: null }))).toBe(404);
  });

  it("transfers root collections between organizations", async () => {
    const source = await owner("Mover");
    const { data: target } = await source.api.orgs.getOrganizationById(
      (await h.test.as(source.user).createOrganization({ body: { title: "Target" } })).id,
    );
    const { data: top } = await source.api.orgs.createCollection(source.org, { title: "Top" });
    const { data: inner } = await source.api.orgs.createCollection(source.org, {
      title: "Inner",
      parent: top.id,
    });
    await source.api.orgs.createSpace(source.org, { title: "Inside", parent: inner.id });

    expect(
      await statusOf(source.api.collections.transferCollection(inner.id, { organization: target.id })),
    ).toBe(412);
    expect(
      await statusOf(source.api.collections.transferCollection(top.id, { organization: source.org })),
    ).toBe(409);
    expect(
      await statusOf(source.api.collections.transferCollection(top.id, { organization: "missing" })),
    ).toBe(404);
    const { data: moved } = await source.api.collections.transferCollection(top.id, {
      organization: target.id,
    });
    expect(moved.organization).toBe(target.id);
    const { data: spaces } = await source.api.orgs.listSpacesInOrganizationById(target.id);
    expect(spaces.items.map((space) => [space.title, space.organization])).toEqual([["Inside", target.id]]);
  });

  it("hides collections from non-members and refuses what the role does not allow", async () => {
    const owned = await owner("Keeper");
    const { data: collection } = await owned.api.orgs.createCollection(owned.org, { title: "Kept" });
    const stranger = h.client((await h.test.createUser("Stranger")).token);
    expect(await statusOf(stranger.collections.getCollectionById(collection.id))).toBe(404);
    expect(await statusOf(stranger.orgs.listCollectionsInOrganizationById(owned.org))).toBe(404);
    expect(await statusOf(stranger.collections.listSpacesInCollectionById(collection.id))).toBe(404);

    const reader = await joiner(owned, MemberRole.Read);
    const { data: seen } = await reader.collections.getCollectionById(collection.id);
    expect(seen.permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
    expect(await statusOf(reader.collections.updateCollectionById(collection.id, { title: "Mine" }))).toBe(
      403,
    );
    expect(await statusOf(reader.orgs.createCollection(owned.org, { parent: collection.id }))).toBe(403);
    expect(await statusOf(reader.collections.deleteCollectionById(collection.id))).toBe(403);
    expect(await statusOf(reader.collections.moveCollection(collection.id, { parent: null }))).toBe(403);
  });
});
