import { describe, expect, it } from "vitest";
import { memoryStorage } from "../../adapters/memory/index.js";
import { createDocsbase } from "../../docsbase.js";
import { createTestDocsbase } from "../../testing/double.js";

/**
 * The `publishedUrl` option: every published URL handed out (site, site space, section, share
 * link, a space read with a share key, a redirect target) is that URL followed by the site's own
 * without its scheme; the lookups still take the site's own URL; a bad value stops creation.
 */
async function setup(options: { publishedUrl?: string }) {
  const test = await createTestDocsbase({ baseUrl: "http://docsbase.test", ...options });
  const owner = await test.createUser("Owner");
  const as = test.as(owner);
  const organizationId = (await as.createOrganization({ body: { title: "Acme" } })).id;
  const docs = (await as.createSpace({ organizationId, body: { title: "Docs" } })).id;
  const guide = (await as.createSpace({ organizationId, body: { title: "Guide" } })).id;
  const siteId = (
    await as.createSite({
      organizationId,
      body: { title: "Handbook", spaces: [docs, guide], visibility: "share-link" },
    })
  ).id;
  const at = { organizationId, siteId };
  const site = await as.publishSite(at);
  const siteSpaces = (await as.listSiteSpaces(at)).items;
  const link = await as.createSiteShareLink({ ...at, body: { name: "Partners" } });
  const redirect = await as.createSiteRedirect({
    ...at,
    body: { source: "/old", destination: { kind: "site-space", siteSpaceId: siteSpaces[1]!.id } },
  });
  const target = (await as.getSiteRedirectBySource({ ...at, source: redirect.source })).target;
  const space = await as.getSpaceById({ spaceId: guide, shareKey: link.token! });
  return { test, siteId, site, siteSpaces, link, target, space };
}

describe("publishedUrl", () => {
  it("leaves every published URL the site's own without it", async () => {
    const w = await setup({});
    const root = `http://docsbase.test/sites/${w.siteId}/`;
    expect(w.site.urls.published).toBe(root);
    expect(w.siteSpaces[1]!.urls.published).toBe(`${root}${w.siteSpaces[1]!.path}/`);
    expect(w.link.urls.published).toBe(`${root}?share=${w.link.token}`);
    expect(w.target).toBe(`${root}${w.siteSpaces[1]!.path}/`);
  });

  it("puts the renderer's URL before every published URL handed out", async () => {
    const w = await setup({ publishedUrl: "http://localhost:3000/url" });
    const own = `docsbase.test/sites/${w.siteId}/`;
    const root = `http://localhost:3000/url/${own}`;
    const guidePath = `${w.siteSpaces[1]!.path}/`;
    expect(w.site.urls.published).toBe(root);
    expect(w.siteSpaces[0]!.urls.published).toBe(root);
    expect(w.siteSpaces[1]!.urls.published).toBe(`${root}${guidePath}`);
    expect(w.link.urls.published).toBe(`${root}?share=${w.link.token}`);
    expect(w.target).toBe(`${root}${guidePath}`);
    expect(w.space.urls.published).toBe(`${root}${guidePath}?share=${w.link.token}`);
    // The lookup still takes the site's own URL, and answers it as canonical.
    const url = `http://${own}${guidePath}?share=${w.link.token}`;
    const lookup = await w.test.request("GET", `/urls/published?url=${encodeURIComponent(url)}`);
    expect(lookup.status).toBe(200);
    expect(lookup.body).toMatchObject({ site: w.siteId, siteSpace: w.siteSpaces[1]!.id });
    expect((lookup.body as { canonicalUrl: string }).canonicalUrl.startsWith("http://docsbase.test/")).toBe(
      true,
    );
  });

  it("refuses a value that is not an absolute http(s) URL, naming the option", () => {
    for (const publishedUrl of [
      "localhost:3000/url/",
      "ftp://renderer.test/",
      "http://r.test/url/?a=1",
      "/url/",
    ]) {
      expect(() => createDocsbase({ storage: memoryStorage(), publishedUrl })).toThrow(
        `publishedUrl must be an absolute http:// or https:// URL without query or fragment, got "${publishedUrl}"`,
      );
    }
  });
});
