import { MemberRole, SpaceEditMode, TranslationLanguage } from "@gitbook/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";
import { COVERAGE } from "./coverage.js";

describe.each(STORAGE_KINDS)("conformance: spaces (%s)", (kind) => {
  let h: Harness;
  let now = new Date("2025-03-01T12:00:00.000Z");
  let organizations = 0;
  beforeAll(async () => {
    h = await createHarness(kind, { clock: () => now });
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.spaces);
    h.expectConformant();
    await h.close();
  });

  /** A user with an organization of their own, and their client. */
  async function owner(name = "Owner") {
    organizations++;
    const domain = `spaces${organizations}.test`;
    const user = await h.test.createUser(name, `${name.toLowerCase()}@${domain}`);
    const created = await h.test.as(user).createOrganization({ body: { title: `${name} Org` } });
    return { user, api: h.client(user.token), org: created.id, domain };
  }

  it("creates, reads, lists and updates spaces", async () => {
    const { api, org } = await owner();
    const { data: space, status } = await api.orgs.createSpace(org, {
      title: "Docs",
      emoji: "📘",
      language: TranslationLanguage.En,
    });
    expect(status).toBe(201);
    expect(space).toMatchObject({
      object: "space",
      title: "Docs",
      emoji: "📘",
      visibility: "private",
      language: "en",
    });
    const { data: got } = await api.spaces.getSpaceById(space.id, { shareKey: "unused" });
    expect(got).toEqual(space);
    const { data: collection } = await api.orgs.createCollection(org, { title: "Box" });
    const { data: boxed } = await api.orgs.createSpace(org, {
      parent: collection.id,
      editMode: SpaceEditMode.Locked,
    });
    expect(boxed).toMatchObject({ title: "Untitled", visibility: "in-collection", editMode: "locked" });

    const { data: list } = await api.orgs.listSpacesInOrganizationById(org);
    expect(list.items.map((item) => item.id)).toEqual([space.id, boxed.id]);
    const { data: first } = await api.orgs.listSpacesInOrganizationById(org, { limit: 1 });
    expect(first.next?.page).toEqual(expect.any(String));

    const { data: patched } = await api.spaces.updateSpaceById(space.id, {
      title: "Guides",
      emoji: "🎉",
      editMode: SpaceEditMode.Locked,
      defaultLevel: MemberRole.Read,
      language: TranslationLanguage.Fr,
      mergeRules: { type: "rules", rules: [{ rule: "require_specific_reviewers", users: [] }] },
    });
    expect(patched).toMatchObject({
      title: "Guides",
      editMode: SpaceEditMode.Locked,
      defaultLevel: MemberRole.Read,
      language: TranslationLanguage.Fr,
    });
    expect(patched.permissions.edit).toBe(false);
    expect(await statusOf(api.spaces.updateSpaceById(space.id, { title: "x".repeat(51) }))).toBe(400);
    expect(await statusOf(api.orgs.createSpace(org, { title: "x".repeat(51) }))).toBe(400);
  });

  it("deletes, restores within 7 days, and purges after", async () => {
    const { api, org } = await owner();
    const { data: space } = await api.orgs.createSpace(org, { title: "Short-lived" });
    expect((await api.spaces.deleteSpaceById(space.id)).status).toBe(205);
    expect((await api.spaces.deleteSpaceById(space.id)).status).toBe(204);
    expect(await statusOf(api.spaces.getSpaceById(space.id))).toBe(404);
    const { data: restored } = await api.spaces.restoreSpace(space.id);
    expect(restored).toMatchObject({ id: space.id, title: "Short-lived" });
    expect(restored.deletedAt).toBeUndefined();
    expect(await statusOf(api.spaces.restoreSpace(space.id))).toBe(409);

    await api.spaces.deleteSpaceById(space.id);
    now = new Date(now.getTime() + 7 * 24 * 60 * 60 * 1000);
    expect(await statusOf(api.spaces.restoreSpace(space.id))).toBe(404);
    expect(await h.test.docsbase.runJobs()).toBeGreaterThanOrEqual(1);
    expect(await statusOf(api.spaces.restoreSpace(space.id))).toBe(404);
  });

  it("duplicates a space right after it", async () => {
    const { api, org } = await owner();
    const { data: source } = await api.orgs.createSpace(org, { title: "Source" });
    await api.orgs.createSpace(org, { title: "Later" });
    const { data: copy, status, headers } = await api.spaces.duplicateSpace(source.id);
    expect(status).toBe(201);
    expect(headers.get("location")).toBe(copy.urls.location);
    expect(copy.title).toBe("Source (copy)");
    const { data: list } = await api.orgs.listSpacesInOrganizationById(org);
    expect(list.items.map((item) => item.title)).toEqual(["Source", "Source (copy)", "Later"]);
  });

  it("moves spaces and refuses moves that are invalid or change nothing", async () => {
    const { api, org } = await owner();
    const { data: box } = await api.orgs.createCollection(org, { title: "Box" });
    const { data: a } = await api.orgs.createSpace(org, { title: "A" });
    const { data: b } = await api.orgs.createSpace(org, { title: "B" });
    const { data: moved } = await api.spaces.moveSpace(b.id, {
      position: { before: { type: "space", space: a.id } },
    });
    expect(moved.id).toBe(b.id);
    const { data: list } = await api.orgs.listSpacesInOrganizationById(org);
    expect(list.items.map((item) => item.title)).toEqual(["B", "A"]);
    const { data: boxed } = await api.spaces.moveSpace(a.id, { parent: box.id });
    expect(boxed).toMatchObject({ parent: box.id, visibility: "in-collection" });
    expect(await statusOf(api.spaces.moveSpace(a.id, { parent: box.id }))).toBe(409);
    expect(await statusOf(api.spaces.moveSpace(a.id, {}))).toBe(400);
    expect(
      await statusOf(
        api.spaces.moveSpace(b.id, { position: { after: { type: "space", space: "missing" } } }),
      ),
    ).toBe(400);
    expect(await statusOf(api.spaces.moveSpace("missing", { parent: null }))).toBe(404);
  });

  it("transfers root spaces between organizations", async () => {
    const { api, org, user } = await owner();
    const target = (await h.test.as(user).createOrganization({ body: { title: "Target" } })).id;
    const { data: box } = await api.orgs.createCollection(org, { title: "Box" });
    const { data: root } = await api.orgs.createSpace(org, { title: "Root" });
    const { data: nested } = await api.orgs.createSpace(org, { title: "Nested", parent: box.id });
    expect(await statusOf(api.spaces.transferSpace(nested.id, { organization: target }))).toBe(412);
    expect(await statusOf(api.spaces.transferSpace(root.id, { organization: org }))).toBe(409);
    expect(await statusOf(api.spaces.transferSpace(root.id, { organization: "missing" }))).toBe(404);
    const { data: moved } = await api.spaces.transferSpace(root.id, { organization: target });
    expect(moved.organization).toBe(target);
  });

  it("hides spaces from non-members and refuses what the role does not allow", async () => {
    const owned = await owner("Keeper");
    const { data: space } = await owned.api.orgs.createSpace(owned.org, { title: "Kept" });
    const stranger = h.client((await h.test.createUser("Stranger")).token);
    expect(await statusOf(stranger.spaces.getSpaceById(space.id))).toBe(404);
    expect(await statusOf(stranger.orgs.listSpacesInOrganizationById(owned.org))).toBe(404);

    await owned.api.orgs.updateOrganizationById(owned.org, {
      emailDomains: [owned.domain],
      defaultRole: MemberRole.Read,
    });
    const user = await h.test.createUser("Reader", `reader@${owned.domain}`);
    const reader = h.client(user.token);
    await reader.orgs.joinOrganization(owned.org);
    const { data: seen } = await reader.spaces.getSpaceById(space.id);
    expect(seen.permissions).toMatchObject({ view: true, edit: false, admin: false, comment: false });
    expect(await statusOf(reader.spaces.updateSpaceById(space.id, { title: "Mine" }))).toBe(403);
    expect(await statusOf(reader.spaces.deleteSpaceById(space.id))).toBe(403);
    expect(await statusOf(reader.spaces.duplicateSpace(space.id))).toBe(403);
    expect(await statusOf(reader.orgs.createSpace(owned.org, { title: "Mine" }))).toBe(403);
  });

  it("answers the embed of a URL, link-only when the page cannot be fetched", async () => {
    const { api, org } = await owner();
    const { data: space } = await api.orgs.createSpace(org, { title: "Embeds" });
    // The guarded outbound fetch refuses loopback addresses: the embed is the link alone.
    const url = "http://127.0.0.1:9/page";
    const { data: embed } = await api.spaces.getEmbedByUrlInSpace(space.id, { url });
    expect(embed).toEqual({ type: "link", title: url, site: "127.0.0.1" });
    expect(await statusOf(api.spaces.getEmbedByUrlInSpace(space.id, { url: "not a url" }))).toBe(400);
    const stranger = await owner("Stranger");
    expect(await statusOf(stranger.api.spaces.getEmbedByUrlInSpace(space.id, { url }))).toBe(404);
  });
});
