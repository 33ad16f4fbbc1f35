import { describe, expect, it } from "vitest";
import { answerOf } from "../../../test/support/limits.js";
import { createWorkspace } from "../../../test/support/workspace.js";
import type { TestClient } from "../../testing/double.js";
import type { ClientInput, ClientOutput } from "../client.js";
import type { Operations } from "../operations.js";

type Sections = ClientOutput<Operations["listSiteSections"]>;
type SiteSpaces = ClientOutput<Operations["listSiteSpaces"]>;
type Structure = ClientOutput<Operations["getSiteStructure"]>;
type SiteUpdate = ClientInput<Operations["updateSiteById"]>["body"];
/** The query of the list reads. */
type ReadQuery = { shareKey?: string; limit?: number; page?: string };
/**
 * Who reads: a typed client, or `null` for an anonymous request, sent over HTTP (a typed client
 * always carries a token).
 */
type Caller = TestClient | null;

/**
 * Who reads a site's structure (`listSiteSections`, `listSiteSpaces`, `getSiteStructure`), and what
 * they see: the reader rule of published content (readers.ts, docs/sites.md "Reading a published
 * site"). Members read the structure as stored; anyone else a published public or unlisted site, or
 * a published share-link site with an active key of its own, filtered by conditions with no claims.
 */
async function setup() {
  const w = await createWorkspace();
  const sites = `/orgs/${w.org}/sites`;
  const docs = await w.space({ title: "Docs" });
  const reference = await w.space({ title: "Reference" });
  const extra = await w.space({ title: "Extra" });
  const site = (
    await w.client.createSite({ organizationId: w.org, body: { title: "Handbook", spaces: [docs] } })
  ).id;
  const at = `${sites}/${site}`;
  /** The site's path parameters, for its typed calls. */
  const params = { organizationId: w.org, siteId: site };
  const patch = (body: SiteUpdate) => w.client.updateSiteById({ ...params, body });
  const publish = () => w.client.publishSite(params);
  const shareLink = async (name = "Reviewers") => {
    const { id, token } = await w.client.createSiteShareLink({ ...params, body: { name } });
    return { id, token: token! };
  };
  /** A read as `as`: its status and body (a refusal's error body), anonymous ones over HTTP. */
  async function read<T>(
    as: Caller,
    path: string,
    query: ReadQuery,
    call: (client: TestClient) => Promise<T>,
  ) {
    if (as !== null) return (await answerOf(call(as))) as { status: number; body: T };
    const search = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
    const target = search.size === 0 ? path : `${path}?${search}`;
    return w.test.request<T>("GET", target, { token: null });
  }
  /** The three reads, each with the titles of what it answers, in order. */
  const reads = {
    sections: {
      read: (as: Caller, query: ReadQuery = {}) =>
        read(as, `${at}/sections`, query, (client) => client.listSiteSections({ ...params, ...query })),
      titles: (body: Sections) => body.items.map((item) => item.title),
    },
    siteSpaces: {
      read: (as: Caller, query: ReadQuery = {}) =>
        read(as, `${at}/site-spaces`, query, (client) => client.listSiteSpaces({ ...params, ...query })),
      titles: (body: SiteSpaces) => body.items.map((item) => item.space.title),
    },
    structure: {
      read: (as: Caller, query: Pick<ReadQuery, "shareKey"> = {}) =>
        read(as, `${at}/structure`, query, (client) => client.getSiteStructure({ ...params, ...query })),
      titles: (body: Structure) => body.structure.map((item) => item.title),
    },
  };
  /** Adds `reference` at the root of the site (before any section). */
  const addReference = () => w.client.addSpaceToSite({ ...params, body: { spaceId: reference } });
  return {
    ...w,
    sites,
    docs,
    reference,
    extra,
    site,
    at,
    params,
    patch,
    publish,
    shareLink,
    reads,
    addReference,
  };
}

type Setup = Awaited<ReturnType<typeof setup>>;

/** Sections: "Guides" (docs, default), "Pro" (reference, hidden from readers without `plan`), "Open" (extra). */
async function withSections(w: Setup) {
  const add = (spaceId: string, title: string) =>
    w.client.addSectionToSite({ ...w.params, body: { spaceId, title } });
  const guides = await add(w.docs, "Guides");
  const pro = await add(w.reference, "Pro");
  const open = await add(w.extra, "Open");
  await w.client.updateSiteSectionById({
    ...w.params,
    siteSectionId: pro.id,
    body: { condition: 'visitor.claims.plan == "pro"' },
  });
  return { guides: guides.id, pro: pro.id, open: open.id };
}

/** The status of each of the three reads for this caller and key. */
async function statuses(w: Setup, as: Caller, key?: string) {
  const query = key === undefined ? {} : { shareKey: key };
  return {
    sections: (await w.reads.sections.read(as, query)).status,
    siteSpaces: (await w.reads.siteSpaces.read(as, query)).status,
    structure: (await w.reads.structure.read(as, query)).status,
  };
}
const all = (status: number) => ({ sections: status, siteSpaces: status, structure: status });

/** What a caller sees through each read: titles in order. */
async function seen(w: Setup, as: Caller, key?: string) {
  const query = key === undefined ? {} : { shareKey: key };
  const sections = await w.reads.sections.read(as, query);
  const siteSpaces = await w.reads.siteSpaces.read(as, query);
  const structure = await w.reads.structure.read(as, query);
  for (const response of [sections, siteSpaces, structure]) expect(response.status).toBe(200);
  return {
    sections: w.reads.sections.titles(sections.body),
    siteSpaces: w.reads.siteSpaces.titles(siteSpaces.body),
    structure: w.reads.structure.titles(structure.body),
    bodies: { sections: sections.body, siteSpaces: siteSpaces.body, structure: structure.body },
  };
}

const everything = { sections: ["Guides", "Pro", "Open"], siteSpaces: ["Docs", "Reference", "Extra"] };
const visible = { sections: ["Guides", "Open"], siteSpaces: ["Docs", "Extra"] };

describe("reading a site's structure as a member", () => {
  it("reads everything as stored, unpublished, with no key, with the member's own permissions", async () => {
    const w = await setup();
    await withSections(w);
    await w.patch({ visibility: "share-link" });
    const reader = (await w.member("read")).client;
    for (const as of [w.client, reader]) {
      const got = await seen(w, as);
      expect(got.sections).toEqual(everything.sections);
      expect(got.siteSpaces).toEqual(everything.siteSpaces);
      expect(got.structure).toEqual(everything.sections);
      // The condition is shown to members as stored.
      expect(got.bodies.sections.items[1]!.condition).toBe('visitor.claims.plan == "pro"');
    }
    const admin = (await w.client.listSiteSpaces(w.params)).items[0]!.space.permissions;
    expect(admin.admin).toBe(true);
    const read = (await reader.listSiteSpaces(w.params)).items[0]!.space.permissions;
    expect(read.view).toBe(true);
    expect(read.admin).toBe(false);
    // A wrong key changes nothing for a member.
    expect(await statuses(w, reader, "unknown-key")).toEqual(all(200));
  });

  it("reads a visitor-auth site that non-members cannot", async () => {
    const w = await setup();
    await w.patch({ visibility: "visitor-auth" });
    await w.publish();
    expect(await statuses(w, w.client)).toEqual(all(200));
    expect(await statuses(w, null)).toEqual(all(404));
    expect(await statuses(w, w.outsider.client)).toEqual(all(404));
  });
});

describe("reading a site's structure as a visitor", () => {
  it("is 404 on an unpublished site, whatever the visibility and key", async () => {
    const w = await setup();
    const guest = (await w.member(null)).client;
    const link = await w.shareLink();
    for (const visibility of ["public", "unlisted", "share-link"] as const) {
      await w.patch({ visibility });
      for (const as of [null, w.outsider.client, guest]) {
        expect(await statuses(w, as)).toEqual(all(404));
        expect(await statuses(w, as, link.token)).toEqual(all(404));
      }
    }
  });

  it("reads a published public or unlisted site, anonymously or as a non-member, with a reader's permissions", async () => {
    const w = await setup();
    await w.addReference();
    await w.publish();
    const guest = (await w.member(null)).client;
    for (const visibility of ["public", "unlisted"] as const) {
      await w.patch({ visibility });
      for (const as of [null, w.outsider.client, guest]) {
        const got = await seen(w, as);
        // A site without sections: no sections, its site spaces at the root.
        expect(got.sections).toEqual([]);
        expect(got.siteSpaces).toEqual(["Docs", "Reference"]);
        expect(got.bodies.structure.type).toBe("siteSpaces");
        const permissions = got.bodies.siteSpaces.items[0]!.space.permissions;
        expect(
          Object.entries(permissions)
            .filter(([, value]) => value === true)
            .map(([key]) => key)
            .sort(),
        ).toEqual(["access", "view"]);
      }
    }
    await w.client.unpublishSite(w.params);
    expect(await statuses(w, null)).toEqual(all(404));
  });

  it("opens a published share-link site with an active key of this site only", async () => {
    const w = await setup();
    await withSections(w);
    await w.patch({ visibility: "share-link" });
    await w.publish();
    const link = await w.shareLink();
    const closed = await w.shareLink("Closed");
    const activate = (shareLinkId: string, active: boolean) =>
      w.client.updateSiteShareLinkById({ ...w.params, shareLinkId, body: { active } });
    await activate(closed.id, false);
    const gone = await w.shareLink("Gone");
    // Over HTTP for its 205.
    expect((await w.api("DELETE", `${w.at}/share-links/${gone.id}`)).status).toBe(205);
    const otherSite = await w.client.createSite({
      organizationId: w.org,
      body: { title: "Other", spaces: [w.docs] },
    });
    const other = { organizationId: w.org, siteId: otherSite.id };
    await w.client.updateSiteById({ ...other, body: { visibility: "share-link" } });
    await w.client.publishSite(other);
    const foreign = (await w.client.createSiteShareLink({ ...other, body: { name: "Theirs" } })).token!;

    for (const as of [null, w.outsider.client]) {
      const got = await seen(w, as, link.token);
      expect(got.sections).toEqual(visible.sections);
      expect(got.siteSpaces).toEqual(visible.siteSpaces);
      expect(got.structure).toEqual(visible.sections);
      for (const refused of [undefined, closed.token, gone.token, foreign, "unknown-key", ""]) {
        expect(await statuses(w, as, refused), String(refused)).toEqual(all(404));
      }
    }
    // The other site's key opens the other site (anonymously, over HTTP).
    expect(
      (
        await w.test.request("GET", `${w.sites}/${other.siteId}/structure?shareKey=${foreign}`, {
          token: null,
        })
      ).status,
    ).toBe(200);
    // Deactivated, the key closes the site again; reactivated, it opens it.
    await activate(link.id, false);
    expect(await statuses(w, null, link.token)).toEqual(all(404));
    await activate(link.id, true);
    expect(await statuses(w, null, link.token)).toEqual(all(200));
    // Unpublished, the active key opens nothing.
    await w.client.unpublishSite(w.params);
    expect(await statuses(w, null, link.token)).toEqual(all(404));
    // Members never need a key.
    expect(await statuses(w, w.client)).toEqual(all(200));
  });

  it("does not see a section hidden by its condition, nor its site spaces", async () => {
    const w = await setup();
    const { guides, pro } = await withSections(w);
    await w.publish();
    const got = await seen(w, null);
    expect(got.sections).toEqual(visible.sections);
    expect(got.siteSpaces).toEqual(visible.siteSpaces);
    expect(got.structure).toEqual(visible.sections);
    expect(got.bodies.structure.type).toBe("sections");
    expect(got.bodies.siteSpaces.items.map((item) => item.section)).not.toContain(pro);

    // The default section hidden from readers: the first visible one is theirs.
    await w.client.updateSiteSectionById({
      ...w.params,
      siteSectionId: guides,
      body: { condition: "visitor.claims.staff" },
    });
    const promoted = await seen(w, null);
    expect(promoted.bodies.sections.items.map((item) => [item.title, item.default])).toEqual([
      ["Open", true],
    ]);
    expect(promoted.structure).toEqual(["Open"]);
    expect(promoted.siteSpaces).toEqual(["Extra"]);
    // Members still see every section with the stored default.
    const stored = await seen(w, w.client);
    expect(stored.bodies.sections.items.map((item) => [item.title, item.default])).toEqual([
      ["Guides", true],
      ["Pro", false],
      ["Open", false],
    ]);
  });

  it("does not see a site space hidden by its condition, and the default filter follows what it sees", async () => {
    const w = await setup();
    await w.addReference();
    await w.publish();
    const listed = (await w.client.listSiteSpaces(w.params)).items;
    const [docs] = listed;
    // The default site space hidden: the next visible one is the reader's default.
    await w.client.updateSiteSpaceById({
      ...w.params,
      siteSpaceId: docs!.id,
      body: { condition: "visitor.claims.staff" },
    });
    const got = await seen(w, null);
    expect(got.siteSpaces).toEqual(["Reference"]);
    expect(got.structure).toEqual(["Reference"]);
    // Anonymous reads, over HTTP.
    const defaults = await w.test.request("GET", `${w.at}/site-spaces?default=true`, { token: null });
    expect(defaults.body.items.map((item: any) => item.space.title)).toEqual(["Reference"]);
    expect(
      (await w.test.request("GET", `${w.at}/site-spaces?default=false`, { token: null })).body.items,
    ).toEqual([]);
    // Members see both, with the stored default.
    const member = await w.client.listSiteSpaces({ ...w.params, default: true });
    expect(member.items.map((item) => item.space.title)).toEqual(["Docs"]);
  });

  it("pages over what the visitor sees", async () => {
    const w = await setup();
    const { guides } = await withSections(w);
    const more = await w.space({ title: "More" });
    await w.client.addSpaceToSite({ ...w.params, body: { spaceId: more, sectionId: guides } });
    await w.publish();
    async function pages<T extends { count: number; next?: { page: string } }>(
      as: Caller,
      list: { read: (as: Caller, query: ReadQuery) => Promise<{ status: number; body: T }> },
      titles: (body: T) => string[],
    ) {
      const collected: string[] = [];
      const counts: number[] = [];
      let query: ReadQuery = { limit: 1 };
      for (let i = 0; i < 10; i++) {
        const { status, body } = await list.read(as, query);
        expect(status).toBe(200);
        collected.push(...titles(body));
        counts.push(body.count);
        if (!body.next) break;
        query = { limit: 1, page: body.next.page };
      }
      return { collected, counts: [...new Set(counts)] };
    }
    const sections = await pages(null, w.reads.sections, w.reads.sections.titles);
    expect(sections).toEqual({ collected: ["Guides", "Open"], counts: [2] });
    const siteSpaces = await pages(null, w.reads.siteSpaces, w.reads.siteSpaces.titles);
    expect(siteSpaces).toEqual({ collected: ["Docs", "More", "Extra"], counts: [3] });
    // Members page over everything.
    expect(await pages(w.client, w.reads.sections, w.reads.sections.titles)).toEqual({
      collected: ["Guides", "Pro", "Open"],
      counts: [3],
    });
    expect(await pages(w.client, w.reads.siteSpaces, w.reads.siteSpaces.titles)).toEqual({
      collected: ["Docs", "More", "Reference", "Extra"],
      counts: [4],
    });
  });
});
