import { SiteVisibility } from "@gitbook/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COVERAGE } from "./coverage.js";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";

describe.each(STORAGE_KINDS)("conformance: site search (%s)", (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(kind);
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.site_search);
    h.expectConformant();
    await h.close();
  });

  it("searches a site's sections and site spaces, for members, anonymous readers and its reader token", async () => {
    const user = await h.test.createUser("Owner", `owner-${kind}@site-search.test`);
    const api = h.client(user.token);
    const org = (await h.test.as(user).createOrganization({ body: { title: "Publisher" } })).id;
    const { data: docs } = await api.orgs.createSpace(org, { title: "Docs" });
    const { data: reference } = await api.orgs.createSpace(org, { title: "Reference" });
    await h.test.as(user).createPage({
      spaceId: docs.id,
      body: { title: "Install", markdown: "Install the wombat.\n\n## Burrows\n\nEach wombat digs." },
    });
    await h.test
      .as(user)
      .createPage({ spaceId: reference.id, body: { title: "Wombat API", markdown: "Calls." } });
    const { data: site } = await api.orgs.createSite(org, { title: "Handbook", spaces: [docs.id] });
    await api.orgs.addSectionToSite(org, site.id, { spaceId: docs.id, title: "Guides" });
    await api.orgs.addSectionToSite(org, site.id, { spaceId: reference.id, title: "API" });
    const { data: siteSpaces } = await api.orgs.listSiteSpaces(org, site.id);
    const referenceSiteSpace = siteSpaces.items.find((item) => item.space.id === reference.id)!.id;

    const { data: all } = await api.orgs.searchSiteContent(org, site.id, {
      query: "wombat",
      scope: { mode: "all" },
    });
    expect(all.items.map((item) => item.id).sort()).toEqual([docs.id, reference.id].sort());
    const install = all.items.find((item) => item.id === docs.id)!.pages[0]!;
    expect(install).toMatchObject({ title: "Install", path: "install" });
    expect(install.sections!.map((section) => section.path)).toContain("install#burrows");
    const { data: specific } = await api.orgs.searchSiteContent(org, site.id, {
      query: "wombat",
      scope: { mode: "specific", siteSpaceIds: [referenceSiteSpace] },
    });
    expect(specific.items.map((item) => item.id)).toEqual([reference.id]);
    const { data: older } = await api.orgs.searchSiteContent(
      org,
      site.id,
      { query: "wombat", mode: "current", siteSpaceId: referenceSiteSpace },
      { limit: 1 },
    );
    expect(older.items).toHaveLength(1);
    expect(older.next?.page).toBeTruthy();
    expect(
      await statusOf(api.orgs.searchSiteContent(org, site.id, { query: "", scope: { mode: "default" } })),
    ).toBe(400);

    const anonymous = h.client("");
    const body = { query: "wombat", scope: { mode: "default" as const } };
    expect(await statusOf(anonymous.orgs.searchSiteContent(org, site.id, body))).toBe(404);
    await api.orgs.updateSiteById(org, site.id, { visibility: SiteVisibility.Public });
    await api.orgs.publishSite(org, site.id);
    const { data: read } = await anonymous.orgs.searchSiteContent(org, site.id, body);
    expect(read.items).toHaveLength(2);
    const { data: live } = await api.orgs.getSiteById(org, site.id);
    const { data: found } = await anonymous.urls.getPublishedContentByUrl({ url: live.urls.published! });
    if (!("apiToken" in found)) throw new Error("expected published content");
    const { data: byToken } = await h.client(found.apiToken).orgs.searchSiteContent(org, site.id, body);
    expect(byToken.items).toHaveLength(2);
  });
});
