import { MemberRole, SiteVisibility } from "@gitbook/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COVERAGE } from "./coverage.js";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";

describe.each(STORAGE_KINDS)("conformance: site structure (%s)", (kind) => {
  let h: Harness;
  let organizations = 0;
  beforeAll(async () => {
    h = await createHarness(kind);
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.site_structure);
    h.expectConformant();
    await h.close();
  });

  /** An admin's organization with spaces titled `titles`, a site showing the first two, and the client. */
  async function owner(titles = ["Docs", "API", "Guides"]) {
    organizations++;
    const user = await h.test.createUser("Owner", `owner-${organizations}-${kind}@structure.test`);
    const api = h.client(user.token);
    const org = (await h.test.as(user).createOrganization({ body: { title: "Publisher" } })).id;
    const spaces: string[] = [];
    for (const title of titles) spaces.push((await api.orgs.createSpace(org, { title })).data.id);
    const { data: site } = await api.orgs.createSite(org, { title: "Handbook", spaces: spaces.slice(0, 2) });
    return { api, org, spaces, site: site.id, user };
  }

  it("switches from site spaces to sections and back, promoting defaults", async () => {
    const { api, org, site, spaces } = await owner();
    const before = (await api.orgs.getSiteStructure(org, site)).data;
    expect(before.type).toBe("siteSpaces");
    expect(before.structure.map((item) => item.object)).toEqual(["site-space", "site-space"]);

    const {
      data: main,
      status,
      headers,
    } = await api.orgs.addSectionToSite(org, site, {
      spaceId: spaces[2]!,
      title: "Main",
      icon: "book",
    });
    expect(status).toBe(201);
    expect(headers.get("location")).toContain(`/sites/${site}/sections/${main.id}`);
    expect(main).toMatchObject({ object: "site-section", default: true, path: "main", icon: "book" });
    expect(main.siteSpaces.map((one) => one.title)).toEqual(["Docs", "API", "Guides"]);
    const { data: other } = await api.orgs.addSectionToSite(org, site, { spaceId: spaces[0]! });
    expect(other).toMatchObject({ title: "Docs", default: false });
    const { data: sections } = await api.orgs.listSiteSections(org, site);
    expect(sections.items.map((section) => section.id)).toEqual([main.id, other.id]);
    const structure = (await api.orgs.getSiteStructure(org, site, { shareKey: "ignored" })).data;
    expect(structure.type).toBe("sections");

    const { data: updated } = await api.orgs.updateSiteSectionById(org, site, main.id, {
      title: "Primary",
      path: "primary",
      defaultSiteSpace: main.siteSpaces[1]!.id,
      condition: 'visitor.claims.plan == "pro"',
      description: "Start here",
      icon: null,
    });
    expect(updated).toMatchObject({
      title: "Primary",
      path: "primary",
      condition: 'visitor.claims.plan == "pro"',
    });
    expect(updated.siteSpaces.map((one) => one.default)).toEqual([false, true, false]);
    expect(await statusOf(api.orgs.updateSiteSectionById(org, site, other.id, { path: "primary" }))).toBe(
      409,
    );
    expect(await statusOf(api.orgs.updateSiteSectionById(org, site, other.id, { title: "x" }))).toBe(400);
    expect(
      await statusOf(
        api.orgs.updateSiteSectionById(org, site, main.id, { condition: "visitor.constructor" }),
      ),
    ).toBe(400);
    expect(await statusOf(api.orgs.updateSiteSectionById(org, site, "missing", { title: "Xx" }))).toBe(404);

    // The default section goes: the other one is promoted.
    expect((await api.orgs.deleteSiteSectionById(org, site, main.id)).status).toBe(205);
    expect((await api.orgs.deleteSiteSectionById(org, site, main.id)).status).toBe(204);
    expect((await api.orgs.listSiteSections(org, site)).data.items[0]).toMatchObject({
      id: other.id,
      default: true,
    });
    // The last one goes: its site spaces are back at the root.
    expect((await api.orgs.deleteSiteSectionById(org, site, other.id)).status).toBe(205);
    const after = (await api.orgs.getSiteStructure(org, site)).data;
    expect(after.type).toBe("siteSpaces");
    expect(after.structure).toHaveLength(1);
  });

  it("adds, lists, updates, moves and deletes site spaces", async () => {
    const { api, org, site, spaces } = await owner();
    const {
      data: added,
      status,
      headers,
    } = await api.orgs.addSpaceToSite(org, site, { spaceId: spaces[2]! });
    expect(status).toBe(201);
    expect(headers.get("location")).toContain(`/sites/${site}/site-spaces/${added.id}`);
    expect(added).toMatchObject({ object: "site-space", title: "Guides", path: "guides", default: false });
    const { data: all } = await api.orgs.listSiteSpaces(org, site);
    expect(all.items.map((one) => one.title)).toEqual(["Docs", "API", "Guides"]);
    expect(
      (await api.orgs.listSiteSpaces(org, site, { default: true })).data.items.map((one) => one.title),
    ).toEqual(["Docs"]);
    expect((await api.orgs.listSiteSpaces(org, site, { default: false })).data.count).toBe(2);
    const page = (await api.orgs.listSiteSpaces(org, site, { limit: 2 })).data;
    expect(page.next?.page).toEqual(expect.any(String));
    expect(
      (await api.orgs.listSiteSpaces(org, site, { limit: 2, page: page.next!.page })).data.items,
    ).toHaveLength(1);

    const { data: updated } = await api.orgs.updateSiteSpaceById(org, site, added.id, {
      path: "handbook",
      condition: "visitor.claims.unsigned.beta == true",
      spaceId: spaces[0]!,
      // `hidden` is the API's, beyond the reference's request body.
      ...({ hidden: true } as object),
    });
    expect(updated).toMatchObject({ path: "handbook", title: "Docs", hidden: true });
    expect(await statusOf(api.orgs.updateSiteSpaceById(org, site, added.id, { path: "api" }))).toBe(409);
    expect(
      (await api.orgs.updateSiteSpaceById(org, site, added.id, { condition: null })).data.condition,
    ).toBe(undefined);
    expect(await statusOf(api.orgs.updateSiteSpaceById(org, site, "missing", { path: "x" }))).toBe(404);

    const { data: moved } = await api.orgs.moveSiteSpace(org, site, added.id, {
      position: { before: { type: "site-space", siteSpace: all.items[0]!.id } },
    });
    expect(moved.id).toBe(added.id);
    expect((await api.orgs.listSiteSpaces(org, site)).data.items.map((one) => one.id)).toEqual([
      added.id,
      all.items[0]!.id,
      all.items[1]!.id,
    ]);
    expect(
      await statusOf(
        api.orgs.moveSiteSpace(org, site, added.id, {
          position: { before: { type: "site-space", siteSpace: "missing" } },
        }),
      ),
    ).toBe(400);
    expect(await statusOf(api.orgs.moveSiteSpace(org, site, "missing", {}))).toBe(404);

    // The default goes: the next one takes the flag.
    expect((await api.orgs.deleteSiteSpaceById(org, site, all.items[0]!.id)).status).toBe(205);
    expect((await api.orgs.deleteSiteSpaceById(org, site, all.items[0]!.id)).status).toBe(204);
    expect((await api.orgs.listSiteSpaces(org, site, { default: true })).data.items[0]?.id).toBe(
      all.items[1]!.id,
    );
  });

  it("groups sections, nests groups and moves them", async () => {
    const { api, org, site, spaces } = await owner();
    const { data: a } = await api.orgs.addSectionToSite(org, site, { spaceId: spaces[0]!, title: "Alpha" });
    const { data: b } = await api.orgs.addSectionToSite(org, site, { spaceId: spaces[1]!, title: "Beta" });
    const { data: c } = await api.orgs.addSectionToSite(org, site, { spaceId: spaces[2]!, title: "Gamma" });
    const {
      data: group,
      status,
      headers,
    } = await api.orgs.addSectionGroupToSite(org, site, {
      title: "Guides",
      icon: "book",
      sections: [c.id],
    });
    expect(status).toBe(201);
    expect(headers.get("location")).toContain(`/sites/${site}/section-groups/${group.id}`);
    expect(group.children.map((child) => child.id)).toEqual([c.id]);
    const { data: inner } = await api.orgs.addSectionGroupToSite(org, site, {
      title: "Inner",
      parent: group.id,
    });
    expect(inner.sectionGroup).toBe(group.id);
    expect((await api.orgs.listSiteSectionGroups(org, site)).data.items.map((one) => one.id)).toEqual([
      group.id,
      inner.id,
    ]);
    const { data: renamed } = await api.orgs.updateSiteSectionGroupById(org, site, group.id, {
      title: "Manuals",
      icon: null,
    });
    expect(renamed).toMatchObject({ title: "Manuals" });

    const { data: holding, status: addStatus } = await api.orgs.addSectionToGroup(org, site, inner.id, {
      sectionId: b.id,
    });
    expect(addStatus).toBe(201);
    expect(holding.children.map((child) => child.id)).toEqual([b.id]);
    expect((await api.orgs.removeSectionFromGroup(org, site, inner.id, b.id)).status).toBe(205);
    expect((await api.orgs.removeSectionFromGroup(org, site, inner.id, b.id)).status).toBe(204);

    const { data: groupMoved } = await api.orgs.moveSiteSectionGroup(org, site, group.id, {
      position: { before: { type: "site-section", id: a.id } },
    });
    expect(groupMoved.id).toBe(group.id);
    // A section pointer naming a group, and a section of another parent: both 400.
    expect(
      await statusOf(
        api.orgs.moveSiteSection(org, site, a.id, {
          position: { before: { type: "site-section", siteSection: group.id } },
        }),
      ),
    ).toBe(400);
    expect(
      await statusOf(
        api.orgs.moveSiteSection(org, site, a.id, {
          position: { after: { type: "site-section", siteSection: c.id } },
        }),
      ),
    ).toBe(400);
    const { data: toEnd } = await api.orgs.moveSiteSection(org, site, a.id, {});
    expect(toEnd.id).toBe(a.id);
    expect(await statusOf(api.orgs.moveSiteSection(org, site, "missing", {}))).toBe(404);
    expect(await statusOf(api.orgs.moveSiteSectionGroup(org, site, "missing", {}))).toBe(404);

    const { data: sorted } = await api.orgs.sortSiteStructure(org, site, {
      item: { type: "site-section", id: a.id },
      position: { before: { type: "site-section-group", id: group.id } },
    });
    expect(sorted).toMatchObject({ object: "site-section", id: a.id });
    const structure = (await api.orgs.getSiteStructure(org, site)).data;
    // Beta left the inner group for the group holding it.
    expect(structure.structure.map((item) => item.id)).toEqual([a.id, group.id]);
    expect(
      await statusOf(
        api.orgs.sortSiteStructure(org, site, {
          item: { type: "site-section", id: a.id },
          position: { after: { type: "site-section", id: c.id } },
        }),
      ),
    ).toBe(400);
    expect(
      await statusOf(
        api.orgs.sortSiteStructure(org, site, {
          item: { type: "site-section-group", id: "missing" },
          position: {},
        }),
      ),
    ).toBe(404);

    expect((await api.orgs.deleteSiteSectionGroupById(org, site, group.id)).status).toBe(205);
    expect((await api.orgs.deleteSiteSectionGroupById(org, site, group.id)).status).toBe(204);
    const flat = (await api.orgs.getSiteStructure(org, site)).data;
    // The group's children took its place: Gamma, the inner group, Beta.
    expect(flat.structure.map((item) => item.id)).toEqual([a.id, c.id, inner.id, b.id]);
  });

  it("lets read members read and refuses their writes", async () => {
    const { api, org, site, spaces } = await owner();
    await api.orgs.updateOrganizationById(org, {
      emailDomains: [`org${organizations}-${kind}.test`],
      defaultRole: MemberRole.Read,
    });
    const reader = await h.test.createUser("Reader", `reader@org${organizations}-${kind}.test`);
    const readerApi = h.client(reader.token);
    await readerApi.orgs.joinOrganization(org);
    const { data: sections } = await readerApi.orgs.listSiteSections(org, site, { shareKey: "ignored" });
    expect(sections.count).toBe(0);
    expect((await readerApi.orgs.listSiteSpaces(org, site)).data.count).toBe(2);
    expect(await statusOf(readerApi.orgs.addSectionToSite(org, site, { spaceId: spaces[0]! }))).toBe(403);
    const outsider = h.client(
      (await h.test.createUser("Outsider", `out-${organizations}-${kind}@x.test`)).token,
    );
    expect(await statusOf(outsider.orgs.getSiteStructure(org, site))).toBe(404);
  });

  it("lets visitors read a published share-link site with an active key, as readers see it", async () => {
    const { api, org, site, spaces, user } = await owner();
    const { data: main } = await api.orgs.addSectionToSite(org, site, { spaceId: spaces[2]!, title: "Main" });
    const { data: pro } = await api.orgs.addSectionToSite(org, site, { spaceId: spaces[0]!, title: "Pro" });
    await api.orgs.updateSiteSectionById(org, site, pro.id, { condition: 'visitor.claims.plan == "pro"' });
    await api.orgs.updateSiteById(org, site, { visibility: SiteVisibility.ShareLink });
    const { data: link } = await api.orgs.createSiteShareLink(org, site, { name: "Reviewers" });
    // `token`, the key, is docsbase's, for the site's admins: the reference's ShareLink lacks it.
    const shareKey = (link as { token?: string }).token!;
    const visitor = h.client(
      (await h.test.createUser("Visitor", `visitor-${organizations}-${kind}@x.test`)).token,
    );
    /** The three reads, each started when called: a refused one is awaited by `statusOf` at once. */
    const reads = (query: { shareKey?: string }) => [
      () => visitor.orgs.listSiteSections(org, site, query),
      () => visitor.orgs.listSiteSpaces(org, site, query),
      () => visitor.orgs.getSiteStructure(org, site, query),
    ];
    // Unpublished: the key opens nothing.
    for (const read of reads({ shareKey })) expect(await statusOf(read())).toBe(404);
    await api.orgs.publishSite(org, site);
    const { data: sections } = await visitor.orgs.listSiteSections(org, site, { shareKey });
    expect(sections.items.map((section) => section.id)).toEqual([main.id]);
    const { data: siteSpaces } = await visitor.orgs.listSiteSpaces(org, site, { shareKey });
    expect(siteSpaces.items.map((one) => one.title)).toEqual(["Docs", "API", "Guides"]);
    expect(siteSpaces.items[0]!.space.permissions.admin).toBe(false);
    const { data: structure } = await visitor.orgs.getSiteStructure(org, site, { shareKey });
    expect(structure.type).toBe("sections");
    expect(structure.structure.map((item) => item.id)).toEqual([main.id]);
    for (const read of reads({})) expect(await statusOf(read())).toBe(404);
    for (const read of reads({ shareKey: "unknown" })) expect(await statusOf(read())).toBe(404);
    await api.orgs.updateSiteShareLinkById(org, site, link.id, { active: false });
    for (const read of reads({ shareKey })) expect(await statusOf(read())).toBe(404);
    // The owner reads everything, without a key.
    expect((await h.client(user.token).orgs.listSiteSections(org, site)).data.count).toBe(2);
  });
});
