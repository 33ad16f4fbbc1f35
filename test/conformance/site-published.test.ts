import { SiteVisibility } from "@gitbook/api";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signVisitorToken } from "../../src/core/visitors/visitor-token.js";
import { COVERAGE } from "./coverage.js";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";

describe.each(STORAGE_KINDS)("conformance: published sites (%s)", (kind) => {
  let h: Harness;
  let organizations = 0;
  beforeAll(async () => {
    h = await createHarness(kind);
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.site_published);
    h.expectConformant();
    await h.close();
  });

  /** An owner with a published site showing two spaces, one page in the first. */
  async function published(visibility: SiteVisibility = SiteVisibility.Public) {
    organizations++;
    const user = await h.test.createUser("Owner", `owner-${organizations}-${kind}@published.test`);
    const api = h.client(user.token);
    const org = (await h.test.as(user).createOrganization({ body: { title: "Publisher" } })).id;
    const { data: docs } = await api.orgs.createSpace(org, { title: "Docs" });
    const { data: reference } = await api.orgs.createSpace(org, { title: "Reference" });
    await h.test.as(user).createPage({ spaceId: docs.id, body: { title: "Intro", markdown: "Hello" } });
    const { data: site } = await api.orgs.createSite(org, {
      title: "Handbook",
      spaces: [docs.id, reference.id],
    });
    await api.orgs.updateSiteById(org, site.id, { visibility });
    await api.orgs.publishSite(org, site.id);
    const { data: live } = await api.orgs.getSiteById(org, site.id);
    return { user, api, org, site: live, docs, reference, anonymous: h.client("") };
  }

  it("serves the published site to members and anonymous readers, 404 to others", async () => {
    const { api, org, site, anonymous } = await published();
    const { data: mine } = await api.orgs.getPublishedContentSite(org, site.id);
    expect(mine.object).toBe("published-content-site");
    expect(mine.site.id).toBe(site.id);
    expect(mine.structure.type).toBe("siteSpaces");
    const { data: theirs } = await anonymous.orgs.getPublishedContentSite(org, site.id);
    expect(theirs.structure.structure).toHaveLength(2);
    expect(theirs.customizations.site.title).toBe("Handbook");
    await api.orgs.unpublishSite(org, site.id);
    expect(await statusOf(anonymous.orgs.getPublishedContentSite(org, site.id))).toBe(404);
    expect((await api.orgs.getPublishedContentSite(org, site.id)).data.site.published).toBe(false);
  });

  it("opens a share-link site with its key", async () => {
    const { api, org, site, anonymous } = await published(SiteVisibility.ShareLink);
    const { data: link } = await api.orgs.createSiteShareLink(org, site.id, { name: "Team" });
    const key = (link as { token?: string }).token as string;
    expect((await anonymous.orgs.getPublishedContentSite(org, site.id, { shareKey: key })).status).toBe(200);
    expect(await statusOf(anonymous.orgs.getPublishedContentSite(org, site.id))).toBe(404);
    expect(await statusOf(anonymous.orgs.getPublishedContentSite(org, site.id, { shareKey: "nope" }))).toBe(
      404,
    );
    const { data: found } = await anonymous.urls.getPublishedContentByUrl({
      url: `${site.urls.published}intro?share=${key}`,
    });
    expect(found).toMatchObject({ site: site.id, shareKey: key, pathname: "intro" });
  });

  it("resolves a published URL with a read-only token for its space", async () => {
    const { org, site, docs, anonymous } = await published();
    const { data: found, status } = await anonymous.urls.getPublishedContentByUrl({
      url: `${site.urls.published}intro`,
    });
    expect(status).toBe(200);
    if (!("apiToken" in found)) throw new Error("expected published content");
    expect(found).toMatchObject({ site: site.id, space: docs.id, pathname: "intro", complete: true });
    const reader = h.client(found.apiToken);
    const { data: page } = await reader.spaces.getPageByPath(docs.id, "intro");
    expect(page.title).toBe("Intro");
    expect(await statusOf(reader.user.getAuthenticatedUser())).toBe(403);
    // A JWT the renderer decodes, with the claims of what it reads.
    expect(decodeJwt(found.apiToken)).toMatchObject({
      kind: "site",
      organization: org,
      site: site.id,
      siteSpace: found.siteSpace,
      space: docs.id,
      spaces: [docs.id],
      revision: found.revision,
      exp: expect.any(Number),
    });
    // The renderer reads the site's published content with it on every page.
    const { data: mine } = await reader.orgs.getPublishedContentSite(org, site.id);
    expect(mine.site.id).toBe(site.id);
    // A path that is no page still resolves: the renderer decides what it is.
    const { data: llms } = await anonymous.urls.getPublishedContentByUrl({
      url: `${site.urls.published}llms.txt`,
    });
    expect(llms).toMatchObject({ site: site.id, space: docs.id, pathname: "llms.txt" });
    const outside = new URL("/sites/unknown-site/llms.txt", site.urls.published).href;
    expect(await statusOf(anonymous.urls.getPublishedContentByUrl({ url: outside }))).toBe(404);
  });

  it("reads, with the lookup's token, the users its content mentions and no other", async () => {
    const { user, site, docs, anonymous } = await published();
    const ada = await h.test.createUser("Ada", `ada-${organizations}-${kind}@published.test`);
    const ben = await h.test.createUser("Ben", `ben-${organizations}-${kind}@published.test`);
    const markdown = `Ask [@${ada.id}](user:${ada.id}).`;
    await h.test.as(user).createPage({ spaceId: docs.id, body: { title: "Help", markdown } });
    const { data: found } = await anonymous.urls.getPublishedContentByUrl({
      url: `${site.urls.published}help`,
    });
    if (!("apiToken" in found)) throw new Error("expected published content");
    const reader = h.client(found.apiToken);
    // The renderer shows a mention with the user's name and photo.
    const { data: shown } = await reader.users.getUserById(ada.id);
    expect(shown).toMatchObject({ object: "user", id: ada.id, displayName: "Ada" });
    expect(shown.email).toBeUndefined();
    expect(await statusOf(reader.users.getUserById(ben.id))).toBe(404);
    expect(await statusOf(reader.users.getUserById(user.id))).toBe(404);
  });

  it("resolves a published URL by POST, with the visitor's unsigned claims", async () => {
    const { api, org, site, docs, reference, anonymous } = await published();
    const { data: siteSpaces } = await api.orgs.listSiteSpaces(org, site.id);
    const beta = siteSpaces.items.find((item) => item.space.id === reference.id)!;
    await api.orgs.updateSiteSpaceById(org, site.id, beta.id, {
      condition: "visitor.claims.unsigned.beta == true",
    });
    const { data: found, status } = await anonymous.urls.resolvePublishedContentByUrl({
      url: `${site.urls.published}intro.md`,
    });
    expect(status).toBe(200);
    expect(found).toMatchObject({ site: site.id, space: docs.id, pathname: "intro.md", complete: true });
    const url = `${site.urls.published}${beta.path}/sitemap.xml`;
    const { data: inBeta } = await anonymous.urls.resolvePublishedContentByUrl({
      url,
      visitor: { unsignedClaims: { beta: true } },
    });
    expect(inBeta).toMatchObject({ siteSpace: beta.id, space: reference.id, pathname: "sitemap.xml" });
    expect(await statusOf(anonymous.urls.resolvePublishedContentByUrl({ url }))).toBe(404);
  });

  it("verifies visitor tokens of visitor-auth sites, with the redirect shape on request", async () => {
    const { api, org, site, anonymous } = await published(SiteVisibility.VisitorAuth);
    const { data: auth } = await api.orgs.getSitePublishingAuthById(org, site.id);
    const token = await signVisitorToken({ plan: "pro" }, auth.privateKey);
    const url = `${site.urls.published}intro`;
    const { data: found } = await anonymous.urls.getPublishedContentByUrl({ url, visitorAuthToken: token });
    expect(found).toMatchObject({ site: site.id, pathname: "intro" });
    expect(await statusOf(anonymous.urls.getPublishedContentByUrl({ url }))).toBe(404);
    const { data: redirect } = await anonymous.urls.getPublishedContentByUrl({ url, redirectOnError: true });
    expect(redirect).toMatchObject({ target: "application" });
    const { data: posted } = await anonymous.urls.resolvePublishedContentByUrl({
      url,
      visitor: { jwtToken: token },
    });
    expect(posted).toMatchObject({ site: site.id, pathname: "intro" });
    expect(await statusOf(anonymous.urls.resolvePublishedContentByUrl({ url }))).toBe(404);
    const { data: postRedirect } = await anonymous.urls.resolvePublishedContentByUrl({
      url,
      visitor: { jwtToken: "garbage" },
      redirectOnError: true,
    });
    expect(postRedirect).toMatchObject({ target: "application" });
    expect(await statusOf(anonymous.orgs.getPublishedContentSite(org, site.id))).toBe(404);
  });
});
