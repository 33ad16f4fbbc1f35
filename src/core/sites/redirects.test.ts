import { describe, expect, it } from "vitest";
import { countingStorage } from "../../../test/support/counting-storage.js";
import { createWorkspace } from "../../../test/support/workspace.js";
import { memoryStorage } from "../../adapters/memory/index.js";
import { createTestDocsbase } from "../../testing/double.js";
import { MAX_REDIRECTS_PER_SITE } from "./redirects.js";
import { siteRedirectsTable } from "./tables.js";

/**
 * Site redirects: their writes and role rules, the validation of `source` and `destination`, the
 * unique source, the lookup by source (readers, share keys, reader tokens) and the cascade of a
 * site's deletion.
 */
async function setup(visibility: "public" | "share-link" = "public") {
  const w = await createWorkspace();
  const docs = await w.space({ title: "Docs" });
  const guide = await w.space({ title: "Guide" });
  const intro = (await w.client.createPage({ spaceId: docs, body: { title: "Intro", markdown: "Hi" } })).id;
  const install = (await w.client.createPage({ spaceId: guide, body: { title: "Install", markdown: "Go" } }))
    .id;
  const site = (
    await w.client.createSite({
      organizationId: w.org,
      body: { title: "Handbook", spaces: [docs, guide], visibility },
    })
  ).id;
  const at = { organizationId: w.org, siteId: site };
  const siteSpaces = (await w.client.listSiteSpaces(at)).items;
  const [docsSiteSpace, guideSiteSpace] = siteSpaces.map((siteSpace) => siteSpace.id) as [string, string];
  const guidePath = siteSpaces[1]!.path;
  const create = (source: string, destination: object) =>
    w.client.createSiteRedirect({ ...at, body: { source, destination: destination as never } });
  const toSpace = { kind: "site-space", siteSpaceId: guideSiteSpace };
  const root = `http://docsbase.test/sites/${site}/`;
  return {
    ...w,
    docs,
    guide,
    intro,
    install,
    site,
    at,
    docsSiteSpace,
    guideSiteSpace,
    guidePath,
    create,
    toSpace,
    root,
  };
}

describe("site redirects", () => {
  it("are created, listed by source, updated and deleted by the site's admins", async () => {
    const w = await setup();
    const created = await w.api("POST", `/orgs/${w.org}/sites/${w.site}/redirects`, {
      source: "/old/intro",
      destination: { kind: "site-page", siteSpaceId: w.docsSiteSpace, pageId: w.intro },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(
      `http://docsbase.test/v1/orgs/${w.org}/sites/${w.site}/redirects/${created.body.id}`,
    );
    expect(created.body).toEqual({
      object: "site-redirect",
      id: created.body.id,
      source: "/old/intro",
      destination: { kind: "site-page", siteSpaceId: w.docsSiteSpace, pageId: w.intro },
    });
    const second = await w.create("/Legacy", w.toSpace);
    const listed = await w.client.listSiteRedirects(w.at);
    expect(listed.count).toBe(2);
    // In source order (code-point order: "/L" sorts before "/o").
    expect(listed.items.map((item) => item.source)).toEqual(["/Legacy", "/old/intro"]);
    expect((await w.client.listSiteRedirects({ ...w.at, limit: 1 })).next).toBeDefined();
    const searched = await w.client.listSiteRedirects({ ...w.at, search: "LEGACY" });
    expect(searched.items.map((item) => item.id)).toEqual([second.id]);
    expect(searched.count).toBe(1);

    const params = { ...w.at, siteRedirectId: second.id };
    const moved = await w.client.updateSiteRedirectById({ ...params, body: { source: "/legacy-2" } });
    expect(moved).toMatchObject({ source: "/legacy-2", destination: w.toSpace });
    const retargeted = await w.client.updateSiteRedirectById({
      ...params,
      body: { destination: { kind: "site-space", siteSpaceId: w.docsSiteSpace } },
    });
    expect(retargeted).toMatchObject({ source: "/legacy-2", destination: { siteSpaceId: w.docsSiteSpace } });
    // Its own source again is no conflict.
    await w.client.updateSiteRedirectById({ ...params, body: { source: "/legacy-2" } });

    expect((await w.api("DELETE", `/orgs/${w.org}/sites/${w.site}/redirects/${second.id}`)).status).toBe(205);
    expect((await w.api("DELETE", `/orgs/${w.org}/sites/${w.site}/redirects/${second.id}`)).status).toBe(204);
    await expect(w.client.updateSiteRedirectById({ ...params, body: {} })).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("lets read members list, only admins write, and hides them from everyone else", async () => {
    const w = await setup();
    const redirect = { ...w.at, siteRedirectId: (await w.create("/a", w.toSpace)).id };
    for (const role of ["read", "edit", "create"] as const) {
      const member = (await w.member(role)).client;
      expect((await member.listSiteRedirects(w.at)).count).toBe(1);
      await expect(
        member.createSiteRedirect({ ...w.at, body: { source: "/b", destination: w.toSpace as never } }),
      ).rejects.toMatchObject({ code: "forbidden" });
      await expect(
        member.updateSiteRedirectById({ ...redirect, body: { source: "/c" } }),
      ).rejects.toMatchObject({
        code: "forbidden",
      });
      await expect(member.deleteSiteRedirectById(redirect)).rejects.toMatchObject({ code: "forbidden" });
    }
    const guest = (await w.member(null)).client;
    for (const stranger of [guest, w.outsider.client]) {
      await expect(stranger.listSiteRedirects(w.at)).rejects.toMatchObject({ code: "not_found" });
      await expect(stranger.deleteSiteRedirectById(redirect)).rejects.toMatchObject({ code: "not_found" });
    }
    expect((await w.client.listSiteRedirects(w.at)).items.map((item) => item.source)).toEqual(["/a"]);
  });

  it("refuses a bad source or destination with 400 naming the field, storing nothing", async () => {
    const w = await setup();
    const refusal = async (body: object) => {
      const answer = await w.api("POST", `/orgs/${w.org}/sites/${w.site}/redirects`, body);
      return [answer.status, answer.body.error.message as string] as const;
    };
    for (const source of [
      "old",
      "/",
      "/a/",
      "//a",
      "/a b",
      "https://x.test/a",
      "/%zz",
      `/${"a".repeat(512)}`,
    ]) {
      const [status, message] = await refusal({ source, destination: w.toSpace });
      expect([source, status]).toEqual([source, 400]);
      expect(message).toContain("body.source");
    }
    const longest = `/${"a".repeat(511)}`;
    await w.create(longest, w.toSpace);
    for (const [destination, field] of [
      ["/a/path", "body.destination"],
      [{ kind: "url", url: "https://x.test" }, "body.destination"],
      [{ kind: "site-space" }, "body.destination.siteSpaceId"],
      [{ kind: "site-space", siteSpaceId: "nope" }, "body.destination.siteSpaceId"],
      [{ kind: "site-section", siteSectionId: "nope" }, "body.destination.siteSectionId"],
      [{ kind: "site-page", siteSpaceId: "nope", pageId: w.intro }, "body.destination.siteSpaceId"],
      // A page of another site space's space.
      [{ kind: "site-page", siteSpaceId: w.docsSiteSpace, pageId: w.install }, "body.destination.pageId"],
    ] as const) {
      const [status, message] = await refusal({ source: "/fine", destination });
      expect([JSON.stringify(destination), status]).toEqual([JSON.stringify(destination), 400]);
      expect(message).toContain(field);
    }
    const redirect = { ...w.at, siteRedirectId: (await w.create("/fine", w.toSpace)).id };
    const update = await w.api(
      "PATCH",
      `/orgs/${w.org}/sites/${w.site}/redirects/${redirect.siteRedirectId}`,
      {
        source: "/x/",
      },
    );
    expect([update.status, update.body.error.message]).toEqual([400, expect.stringContaining("body.source")]);
    const list = await w.api("GET", `/orgs/${w.org}/sites/${w.site}/redirects?search=${"a".repeat(513)}`);
    expect([list.status, list.body.error.message]).toEqual([400, expect.stringContaining("query.search")]);
    expect((await w.client.listSiteRedirects(w.at)).items.map((item) => item.source)).toEqual([
      longest,
      "/fine",
    ]);
  });

  it("keeps sources unique within a site: a duplicate answers 409", async () => {
    const w = await setup();
    await w.create("/taken", w.toSpace);
    const other = await w.create("/free", w.toSpace);
    await expect(
      w.create("/taken", { kind: "site-space", siteSpaceId: w.docsSiteSpace }),
    ).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("body.source"),
    });
    await expect(
      w.client.updateSiteRedirectById({ ...w.at, siteRedirectId: other.id, body: { source: "/taken" } }),
    ).rejects.toMatchObject({ code: "conflict" });
    // Another site may use the same source.
    const elsewhere = (await w.client.createSite({ organizationId: w.org, body: { spaces: [w.docs] } })).id;
    const siteSpaceId = (await w.client.listSiteSpaces({ organizationId: w.org, siteId: elsewhere }))
      .items[0]!.id;
    await w.client.createSiteRedirect({
      organizationId: w.org,
      siteId: elsewhere,
      body: { source: "/taken", destination: { kind: "site-space", siteSpaceId } },
    });
    expect((await w.client.listSiteRedirects(w.at)).count).toBe(2);
  });

  it(`holds at most ${MAX_REDIRECTS_PER_SITE} redirects per site (409 past it)`, async () => {
    const w = await setup();
    const first = await w.create("/r-0", w.toSpace);
    const stored = await w.stored(siteRedirectsTable, first.id);
    await w.storage.write(async (tx) => {
      for (let i = 1; i < MAX_REDIRECTS_PER_SITE; i++) {
        await tx.put(siteRedirectsTable, { ...stored!, id: `r-${i}`, source: `/r-${i}` });
      }
    });
    await expect(w.create("/one-more", w.toSpace)).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining(`${MAX_REDIRECTS_PER_SITE}`),
    });
  });

  it("resolve a source to the published URL of their destination", async () => {
    const w = await setup();
    await w.create("/to-page", { kind: "site-page", siteSpaceId: w.docsSiteSpace, pageId: w.intro });
    await w.create("/to-space", w.toSpace);
    await w.create("/to-guide-page", { kind: "site-page", siteSpaceId: w.guideSiteSpace, pageId: w.install });
    const resolve = (source: string) => w.client.getSiteRedirectBySource({ ...w.at, source });
    expect(await resolve("/to-page")).toMatchObject({
      redirect: { source: "/to-page", destination: { kind: "site-page", pageId: w.intro } },
      target: `${w.root}intro`,
    });
    expect((await resolve("/to-space")).target).toBe(`${w.root}${w.guidePath}/`);
    expect((await resolve("/to-guide-page")).target).toBe(`${w.root}${w.guidePath}/install`);

    // Sections: the first one added is the default and takes the site spaces, at the site's URL;
    // another sits at its own path.
    const first = await w.client.addSectionToSite({ ...w.at, body: { spaceId: w.guide, title: "Guides" } });
    const second = await w.client.addSectionToSite({ ...w.at, body: { spaceId: w.guide, title: "API" } });
    await w.create("/to-first", { kind: "site-section", siteSectionId: first.id });
    await w.create("/to-second", { kind: "site-section", siteSectionId: second.id });
    expect((await resolve("/to-first")).target).toBe(w.root);
    expect((await resolve("/to-second")).target).toBe(`${w.root}${second.path}/`);
    expect((await resolve("/to-space")).target).toBe(`${w.root}${w.guidePath}/`);

    await expect(resolve("/unknown")).rejects.toMatchObject({ code: "not_found" });
    const bad = await w.api("GET", `/orgs/${w.org}/sites/${w.site}/redirect?source=nope`);
    expect([bad.status, bad.body.error.message]).toEqual([400, expect.stringContaining("query.source")]);

    // A destination that goes away leaves the redirect listed, and its lookup answers 404.
    await w.client.deletePage({ spaceId: w.docs, pageId: w.intro });
    await expect(resolve("/to-page")).rejects.toMatchObject({ code: "not_found" });
    expect((await w.client.listSiteRedirects(w.at)).count).toBe(5);
  });

  it("resolve for readers of the published site, by share key, and for the site's reader tokens only", async () => {
    const w = await setup("share-link");
    await w.create("/old", w.toSpace);
    const path = `/orgs/${w.org}/sites/${w.site}/redirect?source=%2Fold`;
    const anonymous = (query = "") => w.test.request("GET", `${path}${query}`, { token: null });
    expect((await anonymous()).status).toBe(404);
    await w.client.publishSite(w.at);
    expect((await anonymous()).status).toBe(404);
    const { token: key } = await w.client.createSiteShareLink({ ...w.at, body: { name: "Readers" } });
    const shared = await anonymous(`&shareKey=${key}`);
    expect([shared.status, shared.body.target]).toEqual([200, `${w.root}${w.guidePath}/`]);
    // A member who can view the site reads it without a key.
    const reader = (await w.member("read")).client;
    expect((await reader.getSiteRedirectBySource({ ...w.at, source: "/old" })).redirect.source).toBe("/old");
    // Nobody reads the redirects' list without being a member.
    expect(
      (await w.test.request("GET", `/orgs/${w.org}/sites/${w.site}/redirects`, { token: null })).status,
    ).toBe(401);

    // The apiToken of a lookup of this site reads its redirects, and no other site's.
    const url = `http://docsbase.test/sites/${w.site}/?share=${key}`;
    const lookup = await w.test.request("GET", `/urls/published?url=${encodeURIComponent(url)}`, {
      token: null,
    });
    const token = lookup.body.apiToken as string;
    const withToken = await w.test.request("GET", path, { token });
    expect([withToken.status, withToken.body.target]).toEqual([200, `${w.root}${w.guidePath}/`]);
    const other = (await w.client.createSite({ organizationId: w.org, body: { spaces: [w.docs] } })).id;
    await w.client.publishSite({ organizationId: w.org, siteId: other });
    const elsewhere = await w.test.request("GET", `/orgs/${w.org}/sites/${other}/redirect?source=%2Fold`, {
      token,
    });
    expect(elsewhere.status).toBe(403);
    // The token stays a reader: the list and the writes are closed to it.
    expect((await w.test.request("GET", `/orgs/${w.org}/sites/${w.site}/redirects`, { token })).status).toBe(
      403,
    );
    // Once the site is unpublished, the token reads nothing of it.
    await w.client.unpublishSite(w.at);
    expect((await w.test.request("GET", path, { token })).status).toBe(404);
  });

  it("go with their site", async () => {
    const w = await setup();
    const redirect = await w.create("/old", w.toSpace);
    await w.client.deleteSiteById(w.at);
    expect(await w.stored(siteRedirectsTable, redirect.id)).toBeUndefined();
  });

  it("are found by source and checked for duplicates reading one redirect, however many the site has", async () => {
    const counting = countingStorage(memoryStorage());
    const test = await createTestDocsbase({ storage: counting.storage });
    const client = test.as(await test.createUser("Owner"));
    const { id: organizationId } = await client.createOrganization({ body: { title: "Acme" } });
    const { id: spaceId } = await client.createSpace({ organizationId, body: { title: "Docs" } });
    const { id: siteId } = await client.createSite({ organizationId, body: { spaces: [spaceId] } });
    const at = { organizationId, siteId };
    const siteSpaceId = (await client.listSiteSpaces(at)).items[0]!.id;
    const destination = { kind: "site-space" as const, siteSpaceId };
    const first = await client.createSiteRedirect({ ...at, body: { source: "/r-0", destination } });
    const stored = (await counting.storage.read((tx) => tx.get(siteRedirectsTable, first.id)))!;
    const redirectsRead = async (many: number) => {
      await counting.storage.write(async (tx) => {
        for (let i = 1; i < many; i++)
          await tx.put(siteRedirectsTable, { ...stored, id: `r-${i}`, source: `/r-${i}` });
      });
      counting.clear();
      await client.getSiteRedirectBySource({ ...at, source: `/r-${many - 1}` });
      await expect(
        client.createSiteRedirect({ ...at, body: { source: "/r-0", destination } }),
      ).rejects.toMatchObject({
        code: "conflict",
      });
      await client.updateSiteRedirectById({ ...at, siteRedirectId: first.id, body: { source: "/r-0" } });
      return counting.reads.get(siteRedirectsTable.name)?.records;
    };
    // The lookup, the refused creation and the update: one redirect each, and the update's own.
    expect(await redirectsRead(2)).toBe(4);
    expect(await redirectsRead(3000)).toBe(4);
  });
});
