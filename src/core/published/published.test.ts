import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { organizationsTable } from "../organizations/tables.js";
import { tokensTable } from "../users/tables.js";
import { SPACE_READER_LIFETIME_MS } from "../users/tokens.js";
import { shareLinksTable } from "../sites/tables.js";

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
  const page = await w.api("POST", `/spaces/${docs}/content/pages`, { title: "Intro", markdown: "Hello" });
  const created = await w.api("POST", sites, { title: "Handbook", spaces: [docs, reference] });
  const site = created.body.id as string;
  const at = `${sites}/${site}`;
  const anonymous = (method: string, path: string) => w.test.request(method, path, { token: null });
  const published = (query = "") => `${at}/published${query}`;
  const patch = (body: object) => w.api("PATCH", at, body);
  const publish = () => w.api("POST", `${at}/publish`);
  const shareLink = async (name = "Reviewers") =>
    (await w.api("POST", `${at}/share-links`, { name })).body as { id: string; token: string };
  return {
    ...w,
    sites,
    docs,
    reference,
    page: page.body.id as string,
    site,
    at,
    anonymous,
    published,
    patch,
    publish,
    shareLink,
  };
}

describe("getPublishedContentSite", () => {
  it("answers the reference shape to members, published or not", async () => {
    const w = await setup();
    const reader = await w.member("read");
    for (const as of [w.api, reader]) {
      const { status, body } = await as("GET", w.published());
      expect(status).toBe(200);
      expect(body.object).toBe("published-content-site");
      expect(body.site).toMatchObject({ id: w.site, published: false });
      expect(body.structure.type).toBe("siteSpaces");
      expect(body.structure.structure.map((item: any) => item.space.id)).toEqual([w.docs, w.reference]);
      expect(body.customizations.site.title).toBe("Handbook");
      expect(body.customizations.siteSpaces).toEqual({});
      expect(body.scripts).toEqual([]);
    }
    // A member sees the space with their own permissions.
    expect((await w.api("GET", w.published())).body.structure.structure[0].space.permissions.admin).toBe(
      true,
    );
  });

  it("is 404 to non-members until the site is published, then open to anyone for public and unlisted", async () => {
    const w = await setup();
    const guest = await w.member(null);
    for (const as of [w.outsider, guest, w.anonymous])
      expect((await as("GET", w.published())).status).toBe(404);
    await w.publish();
    for (const visibility of ["public", "unlisted"]) {
      await w.patch({ visibility });
      for (const as of [w.outsider, guest, w.anonymous]) {
        const { status, body } = await as("GET", w.published());
        expect(status).toBe(200);
        expect(body.site.urls.published).toBe(`http://docsbase.test/sites/${w.site}/`);
        // Spaces with a reader's permissions: view, nothing more.
        const permissions = body.structure.structure[0].space.permissions;
        expect(permissions.view).toBe(true);
        expect(
          Object.entries(permissions)
            .filter(([, value]) => value === true)
            .map(([key]) => key)
            .sort(),
        ).toEqual(["access", "view"]);
      }
    }
    await w.api("POST", `${w.at}/unpublish`);
    expect((await w.anonymous("GET", w.published())).status).toBe(404);
    expect((await w.api("GET", w.published())).status).toBe(200);
  });

  it("opens a share-link site with an active key of its own only", async () => {
    const w = await setup();
    await w.patch({ visibility: "share-link" });
    await w.publish();
    const link = await w.shareLink();
    const closed = await w.shareLink("Closed");
    await w.api("PATCH", `${w.at}/share-links/${closed.id}`, { active: false });
    const gone = await w.shareLink("Gone");
    await w.api("DELETE", `${w.at}/share-links/${gone.id}`);
    const other = (await w.api("POST", w.sites, { title: "Other", spaces: [w.docs] })).body.id as string;
    await w.api("PATCH", `${w.sites}/${other}`, { visibility: "share-link" });
    await w.api("POST", `${w.sites}/${other}/publish`);
    const foreign = (await w.api("POST", `${w.sites}/${other}/share-links`, { name: "Theirs" })).body.token;

    const read = (key?: string) =>
      w.anonymous("GET", w.published(key === undefined ? "" : `?shareKey=${key}`));
    expect((await read(link.token)).status).toBe(200);
    expect((await w.outsider("GET", w.published(`?shareKey=${link.token}`))).status).toBe(200);
    for (const refused of [undefined, closed.token, gone.token, foreign, "unknown-key"]) {
      expect((await read(refused)).status).toBe(404);
    }
    // The other site opens with its own key.
    expect((await w.anonymous("GET", `${w.sites}/${other}/published?shareKey=${foreign}`)).status).toBe(200);
    // Deactivating the link closes the site again; members never need a key.
    await w.api("PATCH", `${w.at}/share-links/${link.id}`, { active: false });
    expect((await w.stored(shareLinksTable, link.id))?.active).toBe(false);
    expect((await read(link.token)).status).toBe(404);
    expect((await w.api("GET", w.published())).status).toBe(200);
    // A share key opens nothing on a public site beyond what anyone sees, and an unpublished site not at all.
    await w.api("POST", `${w.at}/unpublish`);
    await w.api("PATCH", `${w.at}/share-links/${link.id}`, { active: true });
    expect((await read(link.token)).status).toBe(404);
  });

  it("keeps visitor-auth sites from non-members", async () => {
    const w = await setup();
    await w.patch({ visibility: "visitor-auth" });
    await w.publish();
    expect((await w.anonymous("GET", w.published())).status).toBe(404);
    expect((await w.outsider("GET", w.published())).status).toBe(404);
    expect((await w.api("GET", w.published())).status).toBe(200);
  });

  it("filters the structure of non-members by conditions evaluated with no claims", async () => {
    const w = await setup();
    const first = await w.api("POST", `${w.at}/sections`, { spaceId: w.docs, title: "Guides" });
    const pro = await w.api("POST", `${w.at}/sections`, { spaceId: w.reference, title: "Pro" });
    expect(pro.status).toBe(201);
    await w.api("PATCH", `${w.at}/sections/${pro.body.id}`, { condition: 'visitor.claims.plan == "pro"' });
    const open = await w.api("POST", `${w.at}/sections`, { spaceId: w.reference, title: "Open" });
    await w.api("PATCH", `${w.at}/sections/${open.body.id}`, { condition: "!visitor.claims.plan" });
    await w.publish();
    const titles = (body: any) => body.structure.structure.map((item: any) => item.title);
    expect(titles((await w.api("GET", w.published())).body)).toEqual(["Guides", "Pro", "Open"]);
    expect(titles((await w.anonymous("GET", w.published())).body)).toEqual(["Guides", "Open"]);

    // The default section hidden from readers: the first visible one is theirs.
    await w.api("PATCH", `${w.at}/sections/${first.body.id}`, { condition: "visitor.claims.staff" });
    const seen = (await w.anonymous("GET", w.published())).body.structure.structure;
    expect(seen.map((item: any) => [item.title, item.default])).toEqual([["Open", true]]);
    // Members still see every section, with the stored default.
    const all = (await w.api("GET", w.published())).body.structure.structure;
    expect(all.map((item: any) => [item.title, item.default])).toEqual([
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
    const lookup = await w.anonymous("GET", `/urls/published?url=${encodeURIComponent(url)}`);
    expect(lookup.status).toBe(200);
    const token = lookup.body.apiToken as string;
    const as = (method: string, path: string, body?: unknown) =>
      w.test.request(method, path, { token, ...(body === undefined ? {} : { body }) });
    return { ...w, token, as, revision: lookup.body.revision as string };
  }

  it("reads the resolved space's content", async () => {
    const w = await resolved();
    const space = await w.as("GET", `/spaces/${w.docs}`);
    expect(space.status).toBe(200);
    expect(space.body.permissions.view).toBe(true);
    expect(space.body.permissions.edit).toBe(false);
    expect(space.body.permissions.admin).toBe(false);
    expect((await w.as("GET", `/spaces/${w.docs}/content`)).body.pages).toHaveLength(1);
    expect((await w.as("GET", `/spaces/${w.docs}/content/pages`)).status).toBe(200);
    expect((await w.as("GET", `/spaces/${w.docs}/content/page/${w.page}`)).body.title).toBe("Intro");
    expect((await w.as("GET", `/spaces/${w.docs}/content/path/intro`)).body.id).toBe(w.page);
    expect((await w.as("GET", `/spaces/${w.docs}/revisions/${w.revision}`)).status).toBe(200);
    expect((await w.as("GET", `/spaces/${w.docs}/search?query=hello`)).status).toBe(200);
  });

  it("is refused everything else with 403", async () => {
    const w = await resolved();
    const refusals: [string, string, unknown?][] = [
      ["GET", `/spaces/${w.reference}`],
      ["GET", `/spaces/${w.reference}/content`],
      ["POST", `/spaces/${w.docs}/content/pages`, { title: "Mine" }],
      ["PATCH", `/spaces/${w.docs}`, { title: "Mine" }],
      ["DELETE", `/spaces/${w.docs}`],
      ["GET", "/user"],
      ["GET", `/orgs/${w.org}`],
      ["GET", `/orgs/${w.org}/spaces`],
      ["GET", `${w.at}/published`],
      ["GET", `/spaces/${w.docs}/change-requests`],
      ["GET", `/spaces/${w.docs}/comments`],
    ];
    for (const [method, path, body] of refusals) {
      const answer = await w.as(method, path, body);
      expect([method, path, answer.status]).toEqual([method, path, 403]);
      expect(answer.body.error.message).toMatch(/only reads the published content of space/);
    }
    // Another revision of its own space is refused too (only the one it was issued with).
    await w.api("POST", `/spaces/${w.docs}/content/pages`, { title: "Later" });
    const later = (await w.api("GET", `/spaces/${w.docs}`)).body.revision as string;
    expect((await w.as("GET", `/spaces/${w.docs}/revisions/${later}`)).status).toBe(403);
    // The current content follows the space.
    expect((await w.as("GET", `/spaces/${w.docs}/content`)).body.pages).toHaveLength(2);
    // Nothing was written.
    expect((await w.api("GET", `/spaces/${w.docs}`)).body.title).toBe("Docs");
  });

  it("expires after its lifetime (401)", async () => {
    const w = await resolved();
    w.advance(SPACE_READER_LIFETIME_MS - 1000);
    expect((await w.as("GET", `/spaces/${w.docs}/content`)).status).toBe(200);
    w.advance(1000);
    expect((await w.as("GET", `/spaces/${w.docs}/content`)).status).toBe(401);
  });

  it("is swept from storage once expired, by later lookups", async () => {
    const w = await resolved();
    const readers = () =>
      w.storage.read((tx) => tx.list(tokensTable, { index: "byKind", where: ["space-reader"] }));
    expect(await readers()).toHaveLength(1);
    w.advance(SPACE_READER_LIFETIME_MS);
    const url = `http://docsbase.test/sites/${w.site}/`;
    await w.anonymous("GET", `/urls/published?url=${encodeURIComponent(url)}`);
    const left = await readers();
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ user: "", space: w.docs, kind: "space-reader" });
  });

  it("stops reading a space that is deleted", async () => {
    const w = await resolved();
    await w.api("DELETE", `/spaces/${w.docs}`);
    expect((await w.as("GET", `/spaces/${w.docs}/content`)).status).toBe(404);
  });
});

describe("getSpaceById with a shareKey", () => {
  it("fills urls.published for an active key of a published share-link site showing the space", async () => {
    const w = await setup();
    await w.patch({ visibility: "share-link", basename: "handbook" });
    await w.publish();
    const link = await w.shareLink();
    const get = async (space: string, key: string) =>
      (await w.api("GET", `/spaces/${space}?shareKey=${key}`)).body.urls.published;
    const siteSpaces = (await w.api("GET", `${w.at}/site-spaces`)).body.items as any[];
    const referencePath = siteSpaces.find((item) => item.space.id === w.reference).path;
    expect(await get(w.docs, link.token)).toBe(`http://docsbase.test/sites/handbook/?share=${link.token}`);
    expect(await get(w.reference, link.token)).toBe(
      `http://docsbase.test/sites/handbook/${referencePath}/?share=${link.token}`,
    );
    expect((await w.api("GET", `/spaces/${w.docs}`)).body.urls.published).toBeUndefined();
    expect(await get(w.docs, "unknown")).toBeUndefined();
    // A space the site does not show, an inactive key: no URL.
    const lone = await w.space({ title: "Lone" });
    expect(await get(lone, link.token)).toBeUndefined();
    await w.api("PATCH", `${w.at}/share-links/${link.id}`, { active: false });
    expect(await get(w.docs, link.token)).toBeUndefined();
  });
});

describe("organization defaultContent", () => {
  it("must name a site of the organization", async () => {
    const w = await setup();
    const set = (site: string) =>
      w.api("PATCH", `/orgs/${w.org}`, { defaultContent: { type: "site", site } });
    const ok = await set(w.site);
    expect(ok.status).toBe(200);
    expect(ok.body.defaultContent).toEqual({ type: "site", site: w.site });
    const other = await w.organization("Other");
    const foreign = (await w.api("POST", `/orgs/${other}/sites`, {})).body.id as string;
    for (const site of ["unknown", foreign]) {
      const refused = await set(site);
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(/^body\.defaultContent\.site: /);
    }
    expect((await w.stored(organizationsTable, w.org))?.defaultContent).toEqual({
      type: "site",
      site: w.site,
    });
    expect((await w.api("PATCH", `/orgs/${w.org}`, { defaultContent: null })).status).toBe(200);
  });
});
