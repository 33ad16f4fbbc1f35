import { GitBookAPI, SiteVisibility, type PublishedSiteContent, type Site } from "@gitbook/api";
import { expect, it } from "vitest";
import { signVisitorToken } from "../src/core/visitors/visitor-token.js";
import { createTestDocsbase } from "../src/testing/double.js";

/** The worked example of docs/sites.md, run as written there (the doc's code is this code). */
it("runs the worked example of docs/sites.md", async () => {
  const test = await createTestDocsbase({ baseUrl: "http://docs.test" });
  const owner = await test.createUser("Owner", "owner@example.test");
  const client = (token: string) =>
    new GitBookAPI({ endpoint: test.endpoint, authToken: token, serviceBinding: { fetch: test.fetch } });
  const api = client(owner.token);
  const { id: org } = await test.as(owner).createOrganization({ body: { title: "Acme" } });
  const { data: guide } = await api.orgs.createSpace(org, { title: "Guide" });
  await test
    .as(owner)
    .createPage({ spaceId: guide.id, body: { title: "Install", markdown: "Run the installer." } });
  const { data: partners } = await api.orgs.createSpace(org, { title: "Partner notes" });

  // --- docs/sites.md, "A worked example" ---
  // 1. A site showing the guide; its first section takes the guide's site space.
  const { data: site } = await api.orgs.createSite(org, { title: "Acme Docs", spaces: [guide.id] });
  const { data: main } = await api.orgs.addSectionToSite(org, site.id, { spaceId: guide.id, title: "Guide" });
  // 2. A second section for partners only: readers whose token carries `partner: true`.
  const { data: partnerSection } = await api.orgs.addSectionToSite(org, site.id, {
    spaceId: partners.id,
    title: "Partners",
  });
  await api.orgs.updateSiteSectionById(org, site.id, partnerSection.id, {
    condition: "visitor.claims.partner == true",
  });
  // 3. Readers sign in through the host's login: visitor-auth, then publish.
  await api.orgs.updateSiteById(org, site.id, { visibility: SiteVisibility.VisitorAuth, basename: "acme" });
  await api.orgs.publishSite(org, site.id);
  const { data: auth } = await api.orgs.getSitePublishingAuthById(org, site.id);
  // 4. The host signs a visitor token with the site's key (HS256), and resolves a URL with it.
  const partnerToken = await signVisitorToken({ partner: true }, auth.privateKey, {
    expiresAt: new Date(Date.now() + 60 * 60 * 1000),
  });
  const { data: resolved } = await client("").urls.getPublishedContentByUrl({
    url: "http://docs.test/sites/acme/partners/",
    visitorAuthToken: partnerToken,
  });
  // resolved: { site, siteSection: partnerSection.id, space: partners.id, apiToken, ... }
  // --- end of the example ---

  const content = resolved as PublishedSiteContent;
  expect(main.default).toBe(true);
  expect(content).toMatchObject({ site: site.id, siteSection: partnerSection.id, space: partners.id });
  // The apiToken reads the resolved space and nothing else.
  const reader = client(content.apiToken);
  expect((await reader.spaces.getSpaceById(partners.id)).data.id).toBe(partners.id);
  await expect(reader.spaces.getSpaceById(guide.id)).rejects.toMatchObject({ code: 403 });
  // A reader without the claim never resolves into the partners' section.
  const plainToken = await signVisitorToken({}, auth.privateKey);
  await expect(
    client("").urls.getPublishedContentByUrl({
      url: "http://docs.test/sites/acme/partners/",
      visitorAuthToken: plainToken,
    }),
  ).rejects.toMatchObject({ code: 404 });
  const { data: home } = await client("").urls.getPublishedContentByUrl({
    url: "http://docs.test/sites/acme/install",
    visitorAuthToken: plainToken,
  });
  expect(home).toMatchObject({ space: guide.id, pathname: "install" });
  const published = (await api.orgs.getSiteById(org, site.id)).data as Site;
  expect(published.urls.published).toBe("http://docs.test/sites/acme/");
});
