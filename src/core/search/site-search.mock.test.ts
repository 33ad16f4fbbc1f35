import { describe, expect, it, vi } from "vitest";
import { createWorkspace, type Requester } from "../../../test/support/workspace.js";
import * as searchIndex from "./search-index.js";

// A pass-through spy: the cost test counts the rankings a site search runs.
vi.mock("./search-index.js", { spy: true });

/**
 * `searchSiteContent` (site-search.ts, docs/sites.md "Search"): a site of two sections, "Guides"
 * showing Docs (its default) and Tutorials, "API" showing Reference; each space has a page about
 * wombats.
 */
async function setup() {
  const w = await createWorkspace();
  const docs = await w.space({ title: "Docs" });
  const tutorials = await w.space({ title: "Tutorials" });
  const reference = await w.space({ title: "Reference" });
  const page = (spaceId: string, title: string, markdown: string) =>
    w.client.createPage({ spaceId, body: { title, markdown } });
  await page(docs, "Install", "Install the wombat toolkit.");
  await page(tutorials, "Wombat tour", "A tour of the wombat burrow.\n\n## Burrows\n\nEvery wombat digs.");
  await page(reference, "Wombat API", "The wombat endpoint.");
  const params = { organizationId: w.org, siteId: "" };
  const site = (
    await w.client.createSite({
      organizationId: w.org,
      body: { title: "Handbook", spaces: [docs, tutorials] },
    })
  ).id;
  params.siteId = site;
  await w.client.addSectionToSite({ ...params, body: { spaceId: docs, title: "Guides" } });
  const apiSection = await w.client.addSectionToSite({
    ...params,
    body: { spaceId: reference, title: "API" },
  });
  const siteSpaces = (await w.client.listSiteSpaces(params)).items;
  const siteSpaceOf = (space: string) => siteSpaces.find((item) => item.space.id === space)!.id;
  const path = `/orgs/${w.org}/sites/${site}/search`;
  /** A search over HTTP as `as` (`null`: anonymous), by default the owner: its status and body. */
  const post = (body: object, as: Requester | null = w.api, query = "") =>
    as === null
      ? w.test.request("POST", `${path}${query}`, { token: null, body })
      : as("POST", `${path}${query}`, body);
  /** The ids of the spaces a search found, in the order answered. */
  const found = async (body: object, as: Requester | null = w.api, query = "") => {
    const answer = await post(body, as, query);
    expect(answer.status).toBe(200);
    return (answer.body.items as { id: string }[]).map((item) => item.id);
  };
  const publish = async (visibility: "public" | "unlisted" | "share-link" = "public") => {
    await w.client.updateSiteById({ ...params, body: { visibility } });
    await w.client.publishSite(params);
  };
  return {
    ...w,
    docs,
    tutorials,
    reference,
    site,
    params,
    apiSection,
    siteSpaceOf,
    path,
    post,
    found,
    publish,
  };
}

const sorted = (ids: string[]) => [...ids].sort();

describe("searchSiteContent", () => {
  it("finds pages across the sections and site spaces, grouped per space in the reference's shape", async () => {
    const s = await setup();
    const body = await s.client.searchSiteContent({
      ...s.params,
      body: { query: "wombat", scope: { mode: "all" } },
    });
    expect(sorted(body.items.map((item) => item.id))).toEqual(sorted([s.docs, s.tutorials, s.reference]));
    const tour = body.items.find((item) => item.id === s.tutorials)!;
    expect(tour.title).toBe("Tutorials");
    expect(tour.pages[0]).toMatchObject({
      title: "Wombat tour",
      path: "wombat-tour",
      urls: { app: `http://docsbase.test/s/${s.tutorials}/wombat-tour` },
    });
    expect(tour.pages[0]!.sections.map((section) => section.path)).toContain("wombat-tour#burrows");
    // The space with the best page first (a title match outranks a body match).
    expect(body.items.at(-1)!.id).toBe(s.docs);
    expect(await s.found({ query: "platypus", scope: { mode: "all" } })).toEqual([]);
  });

  it("searches the scope asked for, and the older mode and siteSpaceIds alike", async () => {
    const s = await setup();
    const tutorials = s.siteSpaceOf(s.tutorials);
    const defaults = sorted([s.docs, s.reference]);
    const withCurrent = sorted([s.docs, s.tutorials, s.reference]);
    const cases: [object, string[]][] = [
      [{ scope: { mode: "all" } }, withCurrent],
      [{ mode: "all" }, withCurrent],
      [{ scope: { mode: "default" } }, defaults],
      [{ scope: { mode: "default", currentSiteSpace: tutorials } }, withCurrent],
      [{ mode: "current", siteSpaceId: tutorials }, withCurrent],
      [{ scope: { mode: "specific", siteSpaceIds: [tutorials] } }, [s.tutorials]],
      [{ mode: "specific", siteSpaceIds: [tutorials] }, [s.tutorials]],
      [{ siteSpaceIds: [tutorials, s.siteSpaceOf(s.reference)] }, sorted([s.tutorials, s.reference])],
    ];
    for (const [scope, expected] of cases) {
      expect(sorted(await s.found({ query: "wombat", ...scope })), JSON.stringify(scope)).toEqual(expected);
    }
  });

  it("takes, in the default scope, each other section's site space in the current one's language", async () => {
    const s = await setup();
    const french = await s.space({ title: "Tutoriels", language: "fr" });
    const referenceFr = await s.space({ title: "Référence", language: "fr" });
    await s.client.createPage({ spaceId: french, body: { title: "Wombat", markdown: "Le wombat." } });
    await s.client.createPage({
      spaceId: referenceFr,
      body: { title: "API wombat", markdown: "Le wombat." },
    });
    const guides = (await s.client.listSiteSpaces(s.params)).items.find((item) => item.space.id === s.docs)!;
    await s.client.addSpaceToSite({ ...s.params, body: { spaceId: french, sectionId: guides.section! } });
    await s.client.addSpaceToSite({
      ...s.params,
      body: { spaceId: referenceFr, sectionId: s.apiSection.id },
    });
    const current = (await s.client.listSiteSpaces(s.params)).items.find(
      (item) => item.space.id === french,
    )!.id;
    const ids = await s.found({ query: "wombat", scope: { mode: "default", currentSiteSpace: current } });
    expect(sorted(ids)).toEqual(sorted([french, referenceFr]));
    // Without a language, each other section gives its default.
    const english = await s.found({
      query: "wombat",
      mode: "current",
      siteSpaceId: s.siteSpaceOf(s.tutorials),
    });
    expect(sorted(english)).toEqual(sorted([s.docs, s.tutorials, s.reference]));
  });

  it("pages through the groups", async () => {
    const s = await setup();
    const first = await s.post({ query: "wombat", scope: { mode: "all" } }, s.api, "?limit=2");
    expect(first.body.items).toHaveLength(2);
    const rest = await s.post(
      { query: "wombat", scope: { mode: "all" } },
      s.api,
      `?limit=2&page=${encodeURIComponent(first.body.next.page)}`,
    );
    expect(rest.body.items).toHaveLength(1);
    expect(rest.body.next).toBeUndefined();
  });

  it("refuses a bad body with 400 naming the field, and a site space it does not show", async () => {
    const s = await setup();
    const tutorials = s.siteSpaceOf(s.tutorials);
    const cases: [object, string][] = [
      [{ query: "", scope: { mode: "all" } }, "body.query"],
      [{ query: "w".repeat(513), scope: { mode: "all" } }, "body.query"],
      [{ scope: { mode: "all" } }, "body.query"],
      [{ query: "wombat" }, "body.scope"],
      [{ query: "wombat", scope: { mode: "everything" } }, "body.scope"],
      [{ query: "wombat", scope: { mode: "specific", siteSpaceIds: [] } }, "body.scope.siteSpaceIds"],
      [{ query: "wombat", scope: { mode: "specific", siteSpaceIds: ["nope"] } }, "body.scope.siteSpaceIds"],
      [
        { query: "wombat", scope: { mode: "default", currentSiteSpace: "nope" } },
        "body.scope.currentSiteSpace",
      ],
      [{ query: "wombat", scope: { mode: "all" }, mode: "all" }, "body.mode"],
      [{ query: "wombat", mode: "current" }, "body.siteSpaceId"],
      [{ query: "wombat", mode: "current", siteSpaceId: "nope" }, "body.siteSpaceId"],
      [{ query: "wombat", mode: "specific" }, "body.siteSpaceIds"],
      [{ query: "wombat", siteSpaceIds: [tutorials, "nope"] }, "body.siteSpaceIds"],
      [{ query: "wombat", siteSpaceIds: Array.from({ length: 1001 }, () => tutorials) }, "body.siteSpaceIds"],
    ];
    for (const [body, field] of cases) {
      const answer = await s.post(body);
      expect(answer.status, JSON.stringify(body).slice(0, 100)).toBe(400);
      expect(answer.body.error.message).toContain(field);
    }
    // Another site's site space is not this site's.
    const other = await s.client.createSite({
      organizationId: s.org,
      body: { title: "Other", spaces: [s.docs] },
    });
    const elsewhere = (await s.client.listSiteSpaces({ ...s.params, siteId: other.id })).items[0]!.id;
    const answer = await s.post({ query: "wombat", scope: { mode: "specific", siteSpaceIds: [elsewhere] } });
    expect(answer.status).toBe(400);
  });

  it("answers members who can view the site, and readers of a published public, unlisted or share-link site", async () => {
    const s = await setup();
    const all = { query: "wombat", scope: { mode: "all" } };
    expect((await s.found(all, await s.member("read"))).length).toBe(3);
    // Unpublished: members only.
    expect((await s.post(all, null)).status).toBe(404);
    expect((await s.post(all, s.outsider)).status).toBe(404);
    await s.publish("unlisted");
    expect((await s.found(all, null)).length).toBe(3);
    expect((await s.found(all, s.outsider)).length).toBe(3);
    await s.client.updateSiteById({ ...s.params, body: { visibility: "share-link" } });
    expect((await s.post(all, null)).status).toBe(404);
    const { token: key } = await s.client.createSiteShareLink({ ...s.params, body: { name: "Team" } });
    expect((await s.found(all, null, `?shareKey=${key}`)).length).toBe(3);
    expect((await s.post(all, null, "?shareKey=nope")).status).toBe(404);
    // An unknown site, or one of another organization, is not found.
    expect((await s.api("POST", `/orgs/${s.org}/sites/nope/search`, all)).status).toBe(404);
  });

  it("lets a lookup's reader token search its own site, and no other", async () => {
    const s = await setup();
    await s.publish();
    const { urls } = await s.client.getSiteById(s.params);
    const lookup = await s.client.getPublishedContentByUrl({ url: urls.published! });
    if (!("apiToken" in lookup)) throw new Error("expected published content");
    const all = { query: "wombat", scope: { mode: "all" } };
    expect((await s.found(all, s.as(lookup.apiToken))).length).toBe(3);
    const other = await s.client.createSite({
      organizationId: s.org,
      body: { title: "Other", spaces: [s.docs] },
    });
    await s.client.updateSiteById({ ...s.params, siteId: other.id, body: { visibility: "public" } });
    await s.client.publishSite({ ...s.params, siteId: other.id });
    const elsewhere = await s.test.request("POST", `/orgs/${s.org}/sites/${other.id}/search`, {
      token: lookup.apiToken,
      body: all,
    });
    expect(elsewhere.status).toBe(403);
  });

  it("does not search for a visitor what conditions hide from them, nor name it", async () => {
    const s = await setup();
    await s.publish();
    const tutorials = s.siteSpaceOf(s.tutorials);
    await s.client.updateSiteSpaceById({
      ...s.params,
      siteSpaceId: tutorials,
      body: { condition: "visitor.claims.unsigned.beta == true" },
    });
    await s.client.updateSiteSectionById({
      ...s.params,
      siteSectionId: s.apiSection.id,
      body: { condition: "visitor.claims.unsigned.beta == true" },
    });
    expect(await s.found({ query: "wombat", scope: { mode: "all" } }, null)).toEqual([s.docs]);
    const named = await s.post(
      { query: "wombat", scope: { mode: "specific", siteSpaceIds: [tutorials] } },
      null,
    );
    expect(named.status).toBe(400);
    expect(named.body.error.message).toContain(`no site space "${tutorials}"`);
    // Members search the site as stored.
    expect((await s.found({ query: "wombat", scope: { mode: "all" } })).length).toBe(3);
    // A lookup's token searches what its visitor saw: with the claims that show them, everything.
    const { urls } = await s.client.getSiteById(s.params);
    const lookUp = async (unsignedClaims: Record<string, unknown>) => {
      const answer = await s.test.request("POST", "/urls/published", {
        token: null,
        body: { url: urls.published!, visitor: { unsignedClaims } },
      });
      expect(answer.status).toBe(200);
      return s.as(answer.body.apiToken as string);
    };
    const all = { query: "wombat", scope: { mode: "all" } };
    expect(sorted(await s.found(all, await lookUp({ beta: true })))).toEqual(
      sorted([s.docs, s.tutorials, s.reference]),
    );
    expect(await s.found(all, await lookUp({ beta: false }))).toEqual([s.docs]);
  });

  it("searches a space once however many site spaces show it", async () => {
    const s = await setup();
    // Docs is also shown in the API section.
    await s.client.addSpaceToSite({ ...s.params, body: { spaceId: s.docs, sectionId: s.apiSection.id } });
    const ranked = vi.mocked(searchIndex.rankPages);
    ranked.mockClear();
    const ids = await s.found({ query: "wombat", scope: { mode: "all" } });
    expect(sorted(ids)).toEqual(sorted([s.docs, s.tutorials, s.reference]));
    expect(ranked).toHaveBeenCalledTimes(3);
  });
});
