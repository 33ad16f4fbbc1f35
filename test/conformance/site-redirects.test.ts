import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COVERAGE } from "./coverage.js";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";

describe.each(STORAGE_KINDS)("conformance: site redirects (%s)", (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(kind);
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.site_redirects);
    h.expectConformant();
    await h.close();
  });

  it("creates, lists, resolves, updates and deletes redirects", async () => {
    const user = await h.test.createUser("Owner", `owner-${kind}@redirects.test`);
    const api = h.client(user.token);
    const org = (await h.test.as(user).createOrganization({ body: { title: "Publisher" } })).id;
    const { data: docs } = await api.orgs.createSpace(org, { title: "Docs" });
    const page = await h.test
      .as(user)
      .createPage({ spaceId: docs.id, body: { title: "Intro", markdown: "Hi" } });
    const { data: site } = await api.orgs.createSite(org, { title: "Handbook", spaces: [docs.id] });
    const { data: siteSpaces } = await api.orgs.listSiteSpaces(org, site.id);
    const siteSpaceId = siteSpaces.items[0]!.id;

    const { data: redirect, status } = await api.orgs.createSiteRedirect(org, site.id, {
      source: "/old/intro",
      destination: { kind: "site-page", siteSpaceId, pageId: page.id },
    });
    expect(status).toBe(201);
    expect(redirect).toMatchObject({ object: "site-redirect", source: "/old/intro" });
    const { data: second } = await api.orgs.createSiteRedirect(org, site.id, {
      source: "/start",
      destination: { kind: "site-space", siteSpaceId },
    });
    expect(
      await statusOf(
        api.orgs.createSiteRedirect(org, site.id, {
          source: "/start",
          destination: { kind: "site-space", siteSpaceId },
        }),
      ),
    ).toBe(409);
    expect(
      await statusOf(
        api.orgs.createSiteRedirect(org, site.id, {
          source: "no-slash",
          destination: { kind: "site-space", siteSpaceId },
        }),
      ),
    ).toBe(400);

    const { data: listed } = await api.orgs.listSiteRedirects(org, site.id);
    expect(listed.items.map((item) => item.source)).toEqual(["/old/intro", "/start"]);
    expect((await api.orgs.listSiteRedirects(org, site.id, { search: "intro", limit: 1 })).data.count).toBe(
      1,
    );

    await api.orgs.publishSite(org, site.id);
    const root = `${h.test.endpoint}/sites/${site.id}/`;
    const { data: resolved } = await api.orgs.getSiteRedirectBySource(org, site.id, { source: "/old/intro" });
    expect(resolved).toMatchObject({ redirect: { id: redirect.id }, target: `${root}intro` });
    const anonymous = h.client("");
    expect(
      (await anonymous.orgs.getSiteRedirectBySource(org, site.id, { source: "/start" })).data.target,
    ).toBe(root);
    expect(await statusOf(api.orgs.getSiteRedirectBySource(org, site.id, { source: "/none" }))).toBe(404);
    // The apiToken of a lookup of the site resolves its redirects, as the renderer does.
    const { data: lookup } = await anonymous.urls.getPublishedContentByUrl({ url: `${root}intro` });
    const reader = h.client((lookup as { apiToken: string }).apiToken);
    expect((await reader.orgs.getSiteRedirectBySource(org, site.id, { source: "/start" })).status).toBe(200);
    // The lookup itself follows a redirect from a path that names no page: the reference's Redirect.
    for (const lookUp of [
      () => anonymous.urls.getPublishedContentByUrl({ url: `${root}old/intro` }),
      () => anonymous.urls.resolvePublishedContentByUrl({ url: `${root}old/intro` }),
    ]) {
      expect((await lookUp()).data).toEqual({ target: "content", redirect: `${root}intro` });
    }

    const { data: updated } = await api.orgs.updateSiteRedirectById(org, site.id, second.id, {
      source: "/begin",
    });
    expect(updated).toMatchObject({ id: second.id, source: "/begin", destination: { kind: "site-space" } });
    expect((await api.orgs.deleteSiteRedirectById(org, site.id, second.id)).status).toBe(205);
    expect((await api.orgs.deleteSiteRedirectById(org, site.id, second.id)).status).toBe(204);
    expect((await api.orgs.listSiteRedirects(org, site.id)).data.count).toBe(1);
  });
});
