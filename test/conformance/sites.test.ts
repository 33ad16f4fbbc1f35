import { SiteAgentsContext, SiteType, SiteVisibility, type Site } from "@gitbook/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";
import { COVERAGE } from "./coverage.js";

describe.each(STORAGE_KINDS)("conformance: sites (%s)", (kind) => {
  let h: Harness;
  let organizations = 0;
  beforeAll(async () => {
    h = await createHarness(kind);
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.sites);
    h.expectConformant();
    await h.close();
  });

  /** An admin with an organization of their own, two spaces in it, and their client. */
  async function owner() {
    organizations++;
    const user = await h.test.createUser("Owner", `owner-${organizations}-${kind}@sites.test`);
    const api = h.client(user.token);
    const org = (await h.test.as(user).createOrganization({ body: { title: "Publisher" } })).id;
    const { data: docs } = await api.orgs.createSpace(org, { title: "Docs" });
    const { data: api2 } = await api.orgs.createSpace(org, { title: "API Reference" });
    return { api, org, spaces: [docs.id, api2.id] as const };
  }

  it("creates, reads, lists, updates, publishes and deletes sites", async () => {
    const { api, org, spaces } = await owner();
    const {
      data: site,
      status,
      headers,
    } = await api.orgs.createSite(org, {
      title: "Handbook",
      spaces: [...spaces],
    });
    expect(status).toBe(201);
    expect(headers.get("location")).toBe(site.urls.location);
    expect(site).toMatchObject({
      object: "site",
      type: "basic",
      title: "Handbook",
      visibility: "public",
      published: false,
      siteSpaces: 2,
      agentsContext: "included",
    });
    expect(site.urls.published).toBeUndefined();
    const { data: bare } = await api.orgs.createSite(org, {
      type: SiteType.Premium,
      visibility: SiteVisibility.ShareLink,
    });
    expect(bare).toMatchObject({
      title: "Untitled site",
      type: "premium",
      visibility: "share-link",
      siteSpaces: 0,
    });

    expect((await api.orgs.getSiteById(org, site.id)).data).toEqual(site);
    const { data: all } = await api.orgs.listSites(org);
    expect(all.items.map((item) => item.id)).toEqual([site.id, bare.id]);
    expect((await api.orgs.listSites(org, { space: spaces[1] })).data.items.map((item) => item.id)).toEqual([
      site.id,
    ]);
    expect((await api.orgs.listSites(org, { title: "hand" })).data.count).toBe(1);
    expect((await api.orgs.listSites(org, { type: [SiteType.Premium] })).data.items[0]?.id).toBe(bare.id);
    const both = await api.orgs.listSites(org, { type: [SiteType.Premium, SiteType.Basic] });
    expect(both.data.count).toBe(2);

    const { data: updated } = await api.orgs.updateSiteById(org, site.id, {
      title: "The Handbook",
      basename: `handbook-${kind}`,
      visibility: SiteVisibility.Unlisted,
      agentsContext: SiteAgentsContext.Excluded,
      adaptiveContent: { enabled: true },
      proxy: "example.com/docs",
    });
    expect(updated).toMatchObject({
      title: "The Handbook",
      basename: `handbook-${kind}`,
      visibility: "unlisted",
      agentsContext: SiteAgentsContext.Excluded,
      adaptiveContent: { enabled: true },
      proxy: { origin: "example.com/docs" },
    });
    const { data: unproxied } = await api.orgs.updateSiteById(org, site.id, { proxy: null });
    expect(unproxied.proxy).toBeUndefined();

    // The reference answers a Site or a checkout session (for paid plans); docsbase has no checkout.
    const published = (await api.orgs.publishSite(org, site.id)).data as Site;
    expect(published.published).toBe(true);
    expect(published.urls.published).toBe(`${h.test.endpoint}/sites/handbook-${kind}/`);
    expect((await api.orgs.listSites(org, { published: true })).data.items.map((item) => item.id)).toEqual([
      site.id,
    ]);
    const unpublished = (await api.orgs.unpublishSite(org, site.id)).data as Site;
    expect(unpublished.published).toBe(false);
    expect(unpublished.urls.published).toBeUndefined();

    expect((await api.orgs.deleteSiteById(org, bare.id)).status).toBe(205);
    expect((await api.orgs.deleteSiteById(org, bare.id)).status).toBe(204);
    expect(await statusOf(api.orgs.getSiteById(org, bare.id))).toBe(404);
  });

  it("refuses bad input with 400 and taken names with 409", async () => {
    const { api, org, spaces } = await owner();
    expect(await statusOf(api.orgs.createSite(org, { title: "x" }))).toBe(400);
    expect(await statusOf(api.orgs.createSite(org, { spaces: ["missing"] }))).toBe(400);
    expect(await statusOf(api.orgs.createSite(org, { spaces: [spaces[0], spaces[0]] }))).toBe(400);
    expect((await api.orgs.listSites(org)).data.count).toBe(0);
    const { data: first } = await api.orgs.createSite(org, { title: "First" });
    const { data: second } = await api.orgs.createSite(org, { title: "Second" });
    await api.orgs.updateSiteById(org, first.id, { basename: `taken-${kind}` });
    expect(await statusOf(api.orgs.updateSiteById(org, second.id, { basename: `taken-${kind}` }))).toBe(409);
    expect(await statusOf(api.orgs.updateSiteById(org, second.id, { title: "y".repeat(129) }))).toBe(400);
    expect(await statusOf(api.orgs.updateSiteById(org, second.id, { defaultSiteSpace: "nope" }))).toBe(400);
    expect(await statusOf(api.orgs.getSiteById(org, "unknown"))).toBe(404);
  });
});
