import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";

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
  const site = (await w.api("POST", sites, { title: "Handbook", spaces: [docs] })).body.id as string;
  const at = `${sites}/${site}`;
  const anonymous = (method: string, path: string) => w.test.request(method, path, { token: null });
  const patch = (body: object) => w.api("PATCH", at, body);
  const publish = () => w.api("POST", `${at}/publish`);
  const shareLink = async (name = "Reviewers") =>
    (await w.api("POST", `${at}/share-links`, { name })).body as { id: string; token: string };
  /** The three reads, each with the titles of what it answers, in order. */
  const reads = {
    sections: {
      path: `${at}/sections`,
      titles: (body: any) => body.items.map((item: any) => item.title) as string[],
    },
    siteSpaces: {
      path: `${at}/site-spaces`,
      titles: (body: any) => body.items.map((item: any) => item.space.title) as string[],
    },
    structure: {
      path: `${at}/structure`,
      titles: (body: any) => body.structure.map((item: any) => item.title) as string[],
    },
  };
  /** Adds `reference` at the root of the site (before any section). */
  const addReference = async () =>
    expect((await w.api("POST", `${at}/site-spaces`, { spaceId: reference })).status).toBe(201);
  const withKey = (path: string, key?: string) =>
    key === undefined ? path : `${path}?shareKey=${encodeURIComponent(key)}`;
  return {
    ...w,
    sites,
    docs,
    reference,
    extra,
    site,
    at,
    anonymous,
    patch,
    publish,
    shareLink,
    reads,
    withKey,
    addReference,
  };
}

type Setup = Awaited<ReturnType<typeof setup>>;
type Caller = Setup["api"] | Setup["anonymous"];

/** Sections: "Guides" (docs, default), "Pro" (reference, hidden from readers without `plan`), "Open" (extra). */
async function withSections(w: Setup) {
  const guides = (await w.api("POST", `${w.at}/sections`, { spaceId: w.docs, title: "Guides" })).body;
  const pro = (await w.api("POST", `${w.at}/sections`, { spaceId: w.reference, title: "Pro" })).body;
  const open = (await w.api("POST", `${w.at}/sections`, { spaceId: w.extra, title: "Open" })).body;
  const hidden = await w.api("PATCH", `${w.at}/sections/${pro.id}`, {
    condition: 'visitor.claims.plan == "pro"',
  });
  expect(hidden.status).toBe(200);
  return { guides: guides.id as string, pro: pro.id as string, open: open.id as string };
}

/** The status of each of the three reads for this caller and key. */
async function statuses(w: Setup, as: Caller, key?: string) {
  return {
    sections: (await as("GET", w.withKey(w.reads.sections.path, key))).status,
    siteSpaces: (await as("GET", w.withKey(w.reads.siteSpaces.path, key))).status,
    structure: (await as("GET", w.withKey(w.reads.structure.path, key))).status,
  };
}
const all = (status: number) => ({ sections: status, siteSpaces: status, structure: status });

/** What a caller sees through each read: titles in order. */
async function seen(w: Setup, as: Caller, key?: string) {
  const sections = await as("GET", w.withKey(w.reads.sections.path, key));
  const siteSpaces = await as("GET", w.withKey(w.reads.siteSpaces.path, key));
  const structure = await as("GET", w.withKey(w.reads.structure.path, key));
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
    const reader = await w.member("read");
    for (const as of [w.api, reader]) {
      const got = await seen(w, as);
      expect(got.sections).toEqual(everything.sections);
      expect(got.siteSpaces).toEqual(everything.siteSpaces);
      expect(got.structure).toEqual(everything.sections);
      // The condition is shown to members as stored.
      expect(got.bodies.sections.items[1].condition).toBe('visitor.claims.plan == "pro"');
    }
    const admin = (await w.api("GET", w.reads.siteSpaces.path)).body.items[0].space.permissions;
    expect(admin.admin).toBe(true);
    const read = (await reader("GET", w.reads.siteSpaces.path)).body.items[0].space.permissions;
    expect(read.view).toBe(true);
    expect(read.admin).toBe(false);
    // A wrong key changes nothing for a member.
    expect(await statuses(w, reader, "unknown-key")).toEqual(all(200));
  });

  it("reads a visitor-auth site that non-members cannot", async () => {
    const w = await setup();
    await w.patch({ visibility: "visitor-auth" });
    await w.publish();
    expect(await statuses(w, w.api)).toEqual(all(200));
    expect(await statuses(w, w.anonymous)).toEqual(all(404));
    expect(await statuses(w, w.outsider)).toEqual(all(404));
  });
});

describe("reading a site's structure as a visitor", () => {
  it("is 404 on an unpublished site, whatever the visibility and key", async () => {
    const w = await setup();
    const guest = await w.member(null);
    const link = await w.shareLink();
    for (const visibility of ["public", "unlisted", "share-link"]) {
      await w.patch({ visibility });
      for (const as of [w.anonymous, w.outsider, guest]) {
        expect(await statuses(w, as)).toEqual(all(404));
        expect(await statuses(w, as, link.token)).toEqual(all(404));
      }
    }
  });

  it("reads a published public or unlisted site, anonymously or as a non-member, with a reader's permissions", async () => {
    const w = await setup();
    await w.addReference();
    await w.publish();
    const guest = await w.member(null);
    for (const visibility of ["public", "unlisted"]) {
      await w.patch({ visibility });
      for (const as of [w.anonymous, w.outsider, guest]) {
        const got = await seen(w, as);
        // A site without sections: no sections, its site spaces at the root.
        expect(got.sections).toEqual([]);
        expect(got.siteSpaces).toEqual(["Docs", "Reference"]);
        expect(got.bodies.structure.type).toBe("siteSpaces");
        const permissions = got.bodies.siteSpaces.items[0].space.permissions;
        expect(
          Object.entries(permissions)
            .filter(([, value]) => value === true)
            .map(([key]) => key)
            .sort(),
        ).toEqual(["access", "view"]);
      }
    }
    await w.api("POST", `${w.at}/unpublish`);
    expect(await statuses(w, w.anonymous)).toEqual(all(404));
  });

  it("opens a published share-link site with an active key of this site only", async () => {
    const w = await setup();
    await withSections(w);
    await w.patch({ visibility: "share-link" });
    await w.publish();
    const link = await w.shareLink();
    const closed = await w.shareLink("Closed");
    expect((await w.api("PATCH", `${w.at}/share-links/${closed.id}`, { active: false })).status).toBe(200);
    const gone = await w.shareLink("Gone");
    expect((await w.api("DELETE", `${w.at}/share-links/${gone.id}`)).status).toBe(205);
    const other = (await w.api("POST", w.sites, { title: "Other", spaces: [w.docs] })).body.id as string;
    await w.api("PATCH", `${w.sites}/${other}`, { visibility: "share-link" });
    await w.api("POST", `${w.sites}/${other}/publish`);
    const foreign = (await w.api("POST", `${w.sites}/${other}/share-links`, { name: "Theirs" })).body
      .token as string;

    for (const as of [w.anonymous, w.outsider]) {
      const got = await seen(w, as, link.token);
      expect(got.sections).toEqual(visible.sections);
      expect(got.siteSpaces).toEqual(visible.siteSpaces);
      expect(got.structure).toEqual(visible.sections);
      for (const refused of [undefined, closed.token, gone.token, foreign, "unknown-key", ""]) {
        expect(await statuses(w, as, refused), String(refused)).toEqual(all(404));
      }
    }
    // The other site's key opens the other site.
    expect((await w.anonymous("GET", `${w.sites}/${other}/structure?shareKey=${foreign}`)).status).toBe(200);
    // Deactivated, the key closes the site again; reactivated, it opens it.
    await w.api("PATCH", `${w.at}/share-links/${link.id}`, { active: false });
    expect(await statuses(w, w.anonymous, link.token)).toEqual(all(404));
    await w.api("PATCH", `${w.at}/share-links/${link.id}`, { active: true });
    expect(await statuses(w, w.anonymous, link.token)).toEqual(all(200));
    // Unpublished, the active key opens nothing.
    await w.api("POST", `${w.at}/unpublish`);
    expect(await statuses(w, w.anonymous, link.token)).toEqual(all(404));
    // Members never need a key.
    expect(await statuses(w, w.api)).toEqual(all(200));
  });

  it("does not see a section hidden by its condition, nor its site spaces", async () => {
    const w = await setup();
    const { guides, pro } = await withSections(w);
    await w.publish();
    const got = await seen(w, w.anonymous);
    expect(got.sections).toEqual(visible.sections);
    expect(got.siteSpaces).toEqual(visible.siteSpaces);
    expect(got.structure).toEqual(visible.sections);
    expect(got.bodies.structure.type).toBe("sections");
    expect(got.bodies.siteSpaces.items.map((item: any) => item.section)).not.toContain(pro);

    // The default section hidden from readers: the first visible one is theirs.
    await w.api("PATCH", `${w.at}/sections/${guides}`, { condition: "visitor.claims.staff" });
    const promoted = await seen(w, w.anonymous);
    expect(promoted.bodies.sections.items.map((item: any) => [item.title, item.default])).toEqual([
      ["Open", true],
    ]);
    expect(promoted.structure).toEqual(["Open"]);
    expect(promoted.siteSpaces).toEqual(["Extra"]);
    // Members still see every section with the stored default.
    const stored = await seen(w, w.api);
    expect(stored.bodies.sections.items.map((item: any) => [item.title, item.default])).toEqual([
      ["Guides", true],
      ["Pro", false],
      ["Open", false],
    ]);
  });

  it("does not see a site space hidden by its condition, and the default filter follows what it sees", async () => {
    const w = await setup();
    await w.addReference();
    await w.publish();
    const listed = (await w.api("GET", w.reads.siteSpaces.path)).body.items as any[];
    const [docs] = listed;
    // The default site space hidden: the next visible one is the reader's default.
    expect(
      (await w.api("PATCH", `${w.at}/site-spaces/${docs.id}`, { condition: "visitor.claims.staff" })).status,
    ).toBe(200);
    const got = await seen(w, w.anonymous);
    expect(got.siteSpaces).toEqual(["Reference"]);
    expect(got.structure).toEqual(["Reference"]);
    const defaults = await w.anonymous("GET", `${w.reads.siteSpaces.path}?default=true`);
    expect(defaults.body.items.map((item: any) => item.space.title)).toEqual(["Reference"]);
    expect((await w.anonymous("GET", `${w.reads.siteSpaces.path}?default=false`)).body.items).toEqual([]);
    // Members see both, with the stored default.
    const member = await w.api("GET", `${w.reads.siteSpaces.path}?default=true`);
    expect(member.body.items.map((item: any) => item.space.title)).toEqual(["Docs"]);
  });

  it("pages over what the visitor sees", async () => {
    const w = await setup();
    const { guides } = await withSections(w);
    const more = await w.space({ title: "More" });
    await w.api("POST", `${w.at}/site-spaces`, { spaceId: more, sectionId: guides });
    await w.publish();
    async function pages(as: Caller, path: string, titles: (body: any) => string[]) {
      const collected: string[] = [];
      const counts: number[] = [];
      let url = `${path}?limit=1`;
      for (let i = 0; i < 10; i++) {
        const { status, body } = await as("GET", url);
        expect(status).toBe(200);
        collected.push(...titles(body));
        counts.push(body.count);
        if (!body.next) break;
        url = `${path}?limit=1&page=${encodeURIComponent(body.next.page)}`;
      }
      return { collected, counts: [...new Set(counts)] };
    }
    const sections = await pages(w.anonymous, w.reads.sections.path, w.reads.sections.titles);
    expect(sections).toEqual({ collected: ["Guides", "Open"], counts: [2] });
    const siteSpaces = await pages(w.anonymous, w.reads.siteSpaces.path, w.reads.siteSpaces.titles);
    expect(siteSpaces).toEqual({ collected: ["Docs", "More", "Extra"], counts: [3] });
    // Members page over everything.
    expect(await pages(w.api, w.reads.sections.path, w.reads.sections.titles)).toEqual({
      collected: ["Guides", "Pro", "Open"],
      counts: [3],
    });
    expect(await pages(w.api, w.reads.siteSpaces.path, w.reads.siteSpaces.titles)).toEqual({
      collected: ["Docs", "More", "Reference", "Extra"],
      counts: [4],
    });
  });
});
