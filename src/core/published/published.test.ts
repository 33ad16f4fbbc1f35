import { base64url, decodeJwt, decodeProtectedHeader, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { answerOf } from "../../../test/support/limits.js";
import { createWorkspace } from "../../../test/support/workspace.js";
import type { TestClient } from "../../testing/double.js";
import type { ClientInput, ClientOutput } from "../client.js";
import type { Operations } from "../operations.js";
import { organizationsTable } from "../organizations/tables.js";
import { tokensTable } from "../users/tables.js";
import { SPACE_READER_LIFETIME_MS } from "../users/tokens.js";
import { shareLinksTable } from "../sites/tables.js";

type PublishedSite = ClientOutput<Operations["getPublishedContentSite"]>;
type SiteUpdate = ClientInput<Operations["updateSiteById"]>["body"];
/**
 * Who reads: a typed client, or `null` for an anonymous request, sent over HTTP (a typed client
 * always carries a token).
 */
type Caller = TestClient | null;

/** The site spaces of a structure without sections; fails the test for one with sections. */
function rootSiteSpaces(structure: PublishedSite["structure"]) {
  if (structure.type !== "siteSpaces") throw new Error(`expected site spaces, not ${structure.type}`);
  return structure.structure;
}

/**
 * Published content of a site (`getPublishedContentSite`), the reader rule behind it
 * (`onSiteForReaders`), the `apiToken` of a URL lookup, `getSpaceById`'s `shareKey`, and the
 * organization's `defaultContent`.
 */
async function setup() {
  const w = await createWorkspace();
  const sites = `/orgs/${w.org}/sites`;
  const docs = await w.space({ title: "Docs" });
  const reference = await w.space({ title: "Reference" });
  const page = await w.client.createPage({ spaceId: docs, body: { title: "Intro", markdown: "Hello" } });
  const created = await w.client.createSite({
    organizationId: w.org,
    body: { title: "Handbook", spaces: [docs, reference] },
  });
  const site = created.id;
  const at = `${sites}/${site}`;
  /** The site's path parameters, for its typed calls. */
  const params = { organizationId: w.org, siteId: site };
  const anonymous = (method: string, path: string) => w.test.request(method, path, { token: null });
  const published = (query = "") => `${at}/published${query}`;
  /** The published content as `as`: its status and body (a refusal's error body), anonymous over HTTP. */
  const read = async (as: Caller) =>
    as === null
      ? anonymous("GET", published())
      : ((await answerOf(as.getPublishedContentSite(params))) as { status: number; body: PublishedSite });
  const patch = (body: SiteUpdate) => w.client.updateSiteById({ ...params, body });
  const publish = () => w.client.publishSite(params);
  const shareLink = async (name = "Reviewers") => {
    const { id, token } = await w.client.createSiteShareLink({ ...params, body: { name } });
    return { id, token: token! };
  };
  return {
    ...w,
    sites,
    docs,
    reference,
    page: page.id,
    site,
    at,
    params,
    anonymous,
    published,
    read,
    patch,
    publish,
    shareLink,
  };
}

describe("getPublishedContentSite", () => {
  it("answers the reference shape to members, published or not", async () => {
    const w = await setup();
    const reader = (await w.member("read")).client;
    for (const as of [w.client, reader]) {
      const body = await as.getPublishedContentSite(w.params);
      expect(body.object).toBe("published-content-site");
      expect(body.site).toMatchObject({ id: w.site, published: false });
      expect(body.structure.type).toBe("siteSpaces");
      expect(rootSiteSpaces(body.structure).map((item) => item.space.id)).toEqual([w.docs, w.reference]);
      expect(body.customizations.site.title).toBe("Handbook");
      // Every site space shown, with the site's settings when it overrides none.
      const shown = rootSiteSpaces(body.structure).map((item) => item.id);
      expect(Object.keys(body.customizations.siteSpaces)).toEqual(shown);
      expect(body.customizations.siteSpaces[shown[0]!]).toEqual(body.customizations.site);
      expect(body.scripts).toEqual([]);
    }
    // A member sees the space with their own permissions.
    const { structure } = await w.client.getPublishedContentSite(w.params);
    expect(rootSiteSpaces(structure)[0]!.space.permissions.admin).toBe(true);
  });

  it("is 404 to non-members until the site is published, then open to anyone for public and unlisted", async () => {
    const w = await setup();
    const guest = (await w.member(null)).client;
    for (const as of [w.outsider.client, guest, null]) expect((await w.read(as)).status).toBe(404);
    await w.publish();
    for (const visibility of ["public", "unlisted"] as const) {
      await w.patch({ visibility });
      for (const as of [w.outsider.client, guest, null]) {
        const { status, body } = await w.read(as);
        expect(status).toBe(200);
        expect(body.site.urls.published).toBe(`http://docsbase.test/sites/${w.site}/`);
        // Spaces with a reader's permissions: view, nothing more.
        const permissions = rootSiteSpaces(body.structure)[0]!.space.permissions;
        expect(permissions.view).toBe(true);
        expect(
          Object.entries(permissions)
            .filter(([, value]) => value === true)
            .map(([key]) => key)
            .sort(),
        ).toEqual(["access", "view"]);
      }
    }
    await w.client.unpublishSite(w.params);
    expect((await w.anonymous("GET", w.published())).status).toBe(404);
    await w.client.getPublishedContentSite(w.params);
  });

  it("opens a share-link site with an active key of its own only", async () => {
    const w = await setup();
    await w.patch({ visibility: "share-link" });
    await w.publish();
    const link = await w.shareLink();
    const closed = await w.shareLink("Closed");
    const activate = (shareLinkId: string, active: boolean) =>
      w.client.updateSiteShareLinkById({ ...w.params, shareLinkId, body: { active } });
    await activate(closed.id, false);
    const gone = await w.shareLink("Gone");
    await w.client.deleteSiteShareLinkById({ ...w.params, shareLinkId: gone.id });
    const otherSite = await w.client.createSite({
      organizationId: w.org,
      body: { title: "Other", spaces: [w.docs] },
    });
    const other = { organizationId: w.org, siteId: otherSite.id };
    await w.client.updateSiteById({ ...other, body: { visibility: "share-link" } });
    await w.client.publishSite(other);
    const foreign = (await w.client.createSiteShareLink({ ...other, body: { name: "Theirs" } })).token;

    // Anonymous reads, over HTTP.
    const read = (key?: string) =>
      w.anonymous("GET", w.published(key === undefined ? "" : `?shareKey=${key}`));
    expect((await read(link.token)).status).toBe(200);
    await w.outsider.client.getPublishedContentSite({ ...w.params, shareKey: link.token });
    for (const refused of [undefined, closed.token, gone.token, foreign, "unknown-key"]) {
      expect((await read(refused)).status).toBe(404);
    }
    // The other site opens with its own key.
    expect(
      (await w.anonymous("GET", `${w.sites}/${other.siteId}/published?shareKey=${foreign}`)).status,
    ).toBe(200);
    // Deactivating the link closes the site again; members never need a key.
    await activate(link.id, false);
    expect((await w.stored(shareLinksTable, link.id))?.active).toBe(false);
    expect((await read(link.token)).status).toBe(404);
    await w.client.getPublishedContentSite(w.params);
    // A share key opens nothing on a public site beyond what anyone sees, and an unpublished site not at all.
    await w.client.unpublishSite(w.params);
    await activate(link.id, true);
    expect((await read(link.token)).status).toBe(404);
  });

  it("keeps visitor-auth sites from non-members", async () => {
    const w = await setup();
    await w.patch({ visibility: "visitor-auth" });
    await w.publish();
    expect((await w.anonymous("GET", w.published())).status).toBe(404);
    await expect(w.outsider.client.getPublishedContentSite(w.params)).rejects.toMatchObject({
      code: "not_found",
    });
    await w.client.getPublishedContentSite(w.params);
  });

  it("filters the structure of non-members by conditions evaluated with no claims", async () => {
    const w = await setup();
    const section = (spaceId: string, title: string) =>
      w.client.addSectionToSite({ ...w.params, body: { spaceId, title } });
    const condition = (siteSectionId: string, condition: string) =>
      w.client.updateSiteSectionById({ ...w.params, siteSectionId, body: { condition } });
    const first = await section(w.docs, "Guides");
    const pro = await section(w.reference, "Pro");
    await condition(pro.id, 'visitor.claims.plan == "pro"');
    const open = await section(w.reference, "Open");
    await condition(open.id, "!visitor.claims.plan");
    await w.publish();
    const titles = (body: PublishedSite) => body.structure.structure.map((item) => item.title);
    expect(titles(await w.client.getPublishedContentSite(w.params))).toEqual(["Guides", "Pro", "Open"]);
    expect(titles((await w.anonymous("GET", w.published())).body)).toEqual(["Guides", "Open"]);

    // The default section hidden from readers: the first visible one is theirs.
    await condition(first.id, "visitor.claims.staff");
    const seen = (await w.anonymous("GET", w.published())).body.structure.structure;
    expect(seen.map((item: any) => [item.title, item.default])).toEqual([["Open", true]]);
    // Members still see every section, with the stored default.
    const all = (await w.client.getPublishedContentSite(w.params)).structure.structure;
    expect(all.map((item) => [item.title, "default" in item ? item.default : undefined])).toEqual([
      ["Guides", true],
      ["Pro", false],
      ["Open", false],
    ]);
  });
});

describe("the apiToken of a URL lookup", () => {
  async function resolved() {
    const w = await setup();
    await w.publish();
    const url = `http://docsbase.test/sites/${w.site}/`;
    // Anonymous, over HTTP.
    const lookup = await w.anonymous("GET", `/urls/published?url=${encodeURIComponent(url)}`);
    expect(lookup.status).toBe(200);
    const token = lookup.body.apiToken as string;
    /** The typed client acting with the reader token. */
    const reader = w.test.as(token);
    return { ...w, token, reader, revision: lookup.body.revision as string };
  }

  it("reads the resolved space's content", async () => {
    const w = await resolved();
    const spaceId = w.docs;
    const space = await w.reader.getSpaceById({ spaceId });
    expect(space.permissions.view).toBe(true);
    expect(space.permissions.edit).toBe(false);
    expect(space.permissions.admin).toBe(false);
    expect((await w.reader.getCurrentRevision({ spaceId })).pages).toHaveLength(1);
    await w.reader.listPages({ spaceId });
    expect((await w.reader.getPageById({ spaceId, pageId: w.page })).title).toBe("Intro");
    expect((await w.reader.getPageByPath({ spaceId, pagePath: "intro" })).id).toBe(w.page);
    await w.reader.getRevisionById({ spaceId, revisionId: w.revision });
    await w.reader.searchSpaceContent({ spaceId, query: "hello" });
  });

  it("reads its own site's published content (the renderer reads it on every page)", async () => {
    const w = await resolved();
    const published = await w.reader.getPublishedContentSite(w.params);
    expect(published.site.id).toBe(w.site);
    // What an anonymous reader gets: the token brings no member's view.
    expect(published.structure).toEqual((await w.read(null)).body.structure);
    // Not once the site is unpublished, though the token has not expired.
    await w.client.unpublishSite(w.params);
    await expect(w.reader.getPublishedContentSite(w.params)).rejects.toMatchObject({ code: "not_found" });
  });

  it("is refused everything else with 403", async () => {
    const w = await resolved();
    const { docs, reference, org: organizationId } = w;
    const otherSite = await w.client.createSite({ organizationId, body: { title: "Other", spaces: [docs] } });
    await w.client.publishSite({ organizationId, siteId: otherSite.id });
    const other = { organizationId, siteId: otherSite.id };
    const refusals: [string, (reader: TestClient) => Promise<unknown>][] = [
      ["getSpaceById (another space)", (reader) => reader.getSpaceById({ spaceId: reference })],
      ["getCurrentRevision (another space)", (reader) => reader.getCurrentRevision({ spaceId: reference })],
      ["createPage", (reader) => reader.createPage({ spaceId: docs, body: { title: "Mine" } })],
      ["updateSpaceById", (reader) => reader.updateSpaceById({ spaceId: docs, body: { title: "Mine" } })],
      ["deleteSpaceById", (reader) => reader.deleteSpaceById({ spaceId: docs })],
      ["getAuthenticatedUser", (reader) => reader.getAuthenticatedUser()],
      ["getOrganizationById", (reader) => reader.getOrganizationById({ organizationId })],
      ["listSpacesInOrganizationById", (reader) => reader.listSpacesInOrganizationById({ organizationId })],
      ["getPublishedContentSite (another site)", (reader) => reader.getPublishedContentSite(other)],
      ["listChangeRequestsForSpace", (reader) => reader.listChangeRequestsForSpace({ spaceId: docs })],
      ["listCommentsInSpace", (reader) => reader.listCommentsInSpace({ spaceId: docs })],
    ];
    for (const [name, call] of refusals) {
      await expect(call(w.reader), name).rejects.toMatchObject({
        code: "forbidden",
        message: expect.stringMatching(/only reads the published content of space/),
      });
    }
    // A user its content does not mention answers as one it cannot see (mentioned-users.test.ts).
    await expect(w.reader.getUserById({ userId: w.owner.id })).rejects.toMatchObject({ code: "not_found" });
    // Another revision of its own space is refused too (only the one it was issued with).
    await w.client.createPage({ spaceId: docs, body: { title: "Later" } });
    const later = (await w.client.getSpaceById({ spaceId: docs })).revision;
    await expect(w.reader.getRevisionById({ spaceId: docs, revisionId: later })).rejects.toMatchObject({
      code: "forbidden",
    });
    // The current content follows the space.
    expect((await w.reader.getCurrentRevision({ spaceId: docs })).pages).toHaveLength(2);
    // Nothing was written.
    expect((await w.client.getSpaceById({ spaceId: docs })).title).toBe("Docs");
  });

  it("expires after its lifetime (401)", async () => {
    const w = await resolved();
    w.advance(SPACE_READER_LIFETIME_MS - 1000);
    await w.reader.getCurrentRevision({ spaceId: w.docs });
    w.advance(1000);
    await expect(w.reader.getCurrentRevision({ spaceId: w.docs })).rejects.toMatchObject({
      code: "unauthorized",
    });
  });

  it("is a JWT with the claims of what it reads, and no stored row", async () => {
    const w = await resolved();
    const claims = decodeJwt(w.token);
    expect(decodeProtectedHeader(w.token)).toEqual({ alg: "HS256" });
    expect(claims).toEqual({
      exp: Math.floor(w.test.clock.now().getTime() / 1000) + SPACE_READER_LIFETIME_MS / 1000,
      kind: "site",
      organization: w.org,
      site: w.site,
      siteSpace: expect.any(String),
      space: w.docs,
      spaces: [w.docs],
      revision: w.revision,
    });
    expect(w.token.length).toBeLessThan(500);
    const rows = await w.storage.read((tx) =>
      tx.list(tokensTable, { index: "byKind", where: ["space-reader"] }),
    );
    expect(rows).toEqual([]);
  });

  it("is refused (401) when its signature or its claims were changed", async () => {
    const w = await resolved();
    const [header, payload, signature] = w.token.split(".") as [string, string, string];
    const forged = { ...decodeJwt(w.token), space: w.reference, spaces: [w.reference] };
    const tampered = [
      `${header}.${base64url.encode(JSON.stringify(forged))}.${signature}`,
      `${header}.${payload}.${signature.slice(0, -2)}AA`,
      `${base64url.encode(JSON.stringify({ alg: "none" }))}.${payload}.`,
      // Signed with a key of its own: not the database's.
      await new SignJWT(forged).setProtectedHeader({ alg: "HS256" }).sign(new Uint8Array(32)),
    ];
    for (const token of tampered) {
      await expect(
        w.test.as(token).getCurrentRevision({ spaceId: w.reference }),
        token,
      ).rejects.toMatchObject({
        code: "unauthorized",
      });
    }
  });

  it("stops reading a space that is deleted", async () => {
    const w = await resolved();
    await w.client.deleteSpaceById({ spaceId: w.docs });
    await expect(w.reader.getCurrentRevision({ spaceId: w.docs })).rejects.toMatchObject({
      code: "not_found",
    });
  });
});

describe("getSpaceById with a shareKey", () => {
  it("fills urls.published for an active key of a published share-link site showing the space", async () => {
    const w = await setup();
    await w.patch({ visibility: "share-link", basename: "handbook" });
    await w.publish();
    const link = await w.shareLink();
    const get = async (spaceId: string, shareKey: string) =>
      (await w.client.getSpaceById({ spaceId, shareKey })).urls.published;
    const siteSpaces = (await w.client.listSiteSpaces(w.params)).items;
    const referencePath = siteSpaces.find((item) => item.space.id === w.reference)!.path;
    expect(await get(w.docs, link.token)).toBe(`http://docsbase.test/sites/handbook/?share=${link.token}`);
    expect(await get(w.reference, link.token)).toBe(
      `http://docsbase.test/sites/handbook/${referencePath}/?share=${link.token}`,
    );
    expect((await w.client.getSpaceById({ spaceId: w.docs })).urls.published).toBeUndefined();
    expect(await get(w.docs, "unknown")).toBeUndefined();
    // A space the site does not show, an inactive key: no URL.
    const lone = await w.space({ title: "Lone" });
    expect(await get(lone, link.token)).toBeUndefined();
    await w.client.updateSiteShareLinkById({ ...w.params, shareLinkId: link.id, body: { active: false } });
    expect(await get(w.docs, link.token)).toBeUndefined();
  });
});

describe("organization defaultContent", () => {
  it("must name a site of the organization", async () => {
    const w = await setup();
    const organizationId = w.org;
    const set = (site: string) =>
      w.client.updateOrganizationById({ organizationId, body: { defaultContent: { type: "site", site } } });
    const ok = await set(w.site);
    expect(ok.defaultContent).toEqual({ type: "site", site: w.site });
    const other = await w.organization("Other");
    const foreign = (await w.client.createSite({ organizationId: other, body: {} })).id;
    for (const site of ["unknown", foreign]) {
      await expect(set(site)).rejects.toMatchObject({
        code: "bad_request",
        message: expect.stringMatching(/^body\.defaultContent\.site: /),
      });
    }
    expect((await w.stored(organizationsTable, w.org))?.defaultContent).toEqual({
      type: "site",
      site: w.site,
    });
    await w.client.updateOrganizationById({ organizationId, body: { defaultContent: null } });
  });
});
