import { afterEach, describe, expect, it, vi } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { Postings } from "./postings.js";
import { excerpt, queryTerms } from "./search-index.js";
import { pageSections } from "./sections.js";

async function setup() {
  const w = await createWorkspace();
  const space = await w.space({ title: "Docs" });
  const page = async (title: string, markdown: string, options: object = {}, inSpace = space) =>
    (await w.api("POST", `/spaces/${inSpace}/content/pages`, { title, markdown, ...options })).body
      .id as string;
  const search = async (query: string, extra = "", inSpace = space, as = w.api) =>
    as("GET", `/spaces/${inSpace}/search?query=${encodeURIComponent(query)}${extra}`);
  return { ...w, newSpace: w.space, space, page, search };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("search", () => {
  it("finds a phrase of a page body in the section under its heading", async () => {
    const s = await setup();
    const guides = await s.page("Guides", "All the guides.");
    const install = await s.page(
      "Install",
      "How to install.\n\n## Requirements\n\nYou need a working **kangaroo compiler** first.\n\n## Usage\n\nRun it.",
      { parent: guides },
    );
    const { status, body } = await s.search("kangaroo compiler");
    expect(status).toBe(200);
    expect(body.count).toBe(1);
    expect(body.items[0]).toEqual({
      id: install,
      title: "Install",
      path: "guides/install",
      sections: [
        {
          id: `${install}#requirements`,
          title: "Requirements",
          path: "guides/install#requirements",
          body: "You need a working kangaroo compiler first.",
          urls: { app: `http://docsbase.test/s/${s.space}/guides/install#requirements` },
        },
      ],
      ancestors: [{ title: "Guides" }],
      urls: { app: `http://docsbase.test/s/${s.space}/guides/install` },
    });
    // The introduction is a section titled with the page title; prefixes and a typo still match.
    const intro = (await s.search("guides")).body.items[0];
    expect(intro.sections[0]).toMatchObject({
      id: guides,
      title: "Guides",
      path: "guides",
      body: "All the guides.",
    });
    expect((await s.search("kangar")).body.items[0].id).toBe(install);
    expect((await s.search("kangaro compiler")).body.items[0].id).toBe(install);
    expect((await s.search("platypus")).body).toEqual({ count: 0, items: [] });
  });

  it("ranks a title match above a body match", async () => {
    const s = await setup();
    const other = await s.page("Operations", "Before you deploy, read the checklist.");
    const deploy = await s.page("Deploy", "Ship it.");
    const ids = (await s.search("deploy")).body.items.map((item: { id: string }) => item.id);
    expect(ids).toEqual([deploy, other]);
  });

  it("pages results and validates the query", async () => {
    const s = await setup();
    for (let i = 1; i <= 5; i++) await s.page(`Widget ${i}`, `The widget number ${i}.`);
    const seen: string[] = [];
    let extra = "&limit=2";
    for (;;) {
      const { body } = await s.search("widget", extra);
      expect(body.count).toBe(5);
      seen.push(...body.items.map((item: { id: string }) => item.id));
      if (!body.next) break;
      extra = `&limit=2&page=${body.next.page}`;
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);

    expect((await s.api("GET", `/spaces/${s.space}/search`)).status).toBe(400);
    expect((await s.search("")).status).toBe(400);
    const tooLong = await s.search("x".repeat(513));
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.message).toMatch(/^query\.query: /);
    expect((await s.search("x".repeat(512))).status).toBe(200);
    expect((await s.search("widget", "&limit=1001")).status).toBe(400);
  });

  it("searches hidden pages, and answers 404 to callers who cannot read the space", async () => {
    const s = await setup();
    await s.page("Secret plans", "The hidden hedgehog.", { hidden: true });
    expect((await s.search("hedgehog")).body.count).toBe(1);
    const reader = await s.member("read");
    expect((await s.search("hedgehog", "", s.space, reader)).body.count).toBe(1);
    const guest = await s.member(null);
    expect((await s.search("hedgehog", "", s.space, guest)).status).toBe(404);
    expect((await s.search("hedgehog", "", s.space, s.outsider)).status).toBe(404);
  });

  it("searches every readable space of an organization", async () => {
    const s = await setup();
    const second = await s.newSpace({ title: "Handbook" });
    const gone = await s.newSpace({ title: "Archive" });
    await s.page("Llamas", "Llamas everywhere.");
    await s.page("Farm", "A llama farm.", {}, second);
    await s.page("Old llamas", "Llamas of old.", {}, gone);
    await s.page("Cows", "No camelids.", {}, second);
    expect((await s.api("DELETE", `/spaces/${gone}`)).status).toBe(205);

    const search = (as = s.api, extra = "") => as("GET", `/orgs/${s.org}/search?query=llama${extra}`);
    const { body } = await search();
    expect(body.count).toBe(2);
    // Spaces come best match first; scores of different spaces are close here, so sort to compare.
    const found = body.items.map((item: any) => [item.id, item.title, item.pages.map((p: any) => p.title)]);
    expect(found.sort((a: any, b: any) => a[1].localeCompare(b[1]))).toEqual([
      [s.space, "Docs", ["Llamas"]],
      [second, "Handbook", ["Farm"]],
    ]);
    const docs = body.items.find((item: any) => item.id === s.space);
    expect(docs.pages[0].sections[0]).toMatchObject({ title: "Llamas", body: "Llamas everywhere." });
    const first = (await search(s.api, "&limit=1")).body;
    expect(first.items.map((item: any) => item.id)).toEqual([body.items[0].id]);
    const rest = (await search(s.api, `&limit=1&page=${first.next.page}`)).body;
    expect(rest.items.map((item: any) => item.id)).toEqual([body.items[1].id]);
    expect(rest.next).toBeUndefined();

    const reader = await s.member("read");
    expect((await search(reader)).body.count).toBe(2);
    // A guest reads no space, so no page of any space shows.
    const guest = await s.member(null);
    expect((await search(guest)).body).toEqual({ count: 0, items: [] });
    expect((await search(s.outsider)).status).toBe(404);
    expect((await s.api("GET", `/orgs/${s.org}/search`)).status).toBe(400);

    // Spaces of another organization never show.
    const otherOrg = await s.organization("Other");
    const foreign = await s.newSpace({ title: "Foreign" }, otherOrg);
    await s.page("Llama facts", "Llamas.", {}, foreign);
    expect((await search()).body.count).toBe(2);
  });

  it("expands only the last word to longer words, and only a word no page holds to typos", async () => {
    const s = await setup();
    const titles = async (query: string) =>
      (await s.search(query)).body.items.map((item: { title: string }) => item.title).sort();
    await s.page("Zoo", "The wombat sleeps.");
    await s.page("Bed", "Everyone sleeps.");
    // The last word, as typed, from three letters.
    expect(await titles("womb")).toEqual(["Zoo"]);
    expect(await titles("wo")).toEqual([]);
    expect(await titles("sleeps womb")).toEqual(["Zoo"]);
    // "womb" is not the last word: it matches nothing, so any word may match.
    expect(await titles("womb sleeps")).toEqual(["Bed", "Zoo"]);
    // A word some page holds matches itself alone; one no page holds, with a typo.
    await s.page("Airport", "A plane lands.");
    await s.page("Roadmap", "Our plans.");
    expect(await titles("plane")).toEqual(["Airport"]);
    expect(await titles("plant")).toEqual(["Airport", "Roadmap"]);
    // A prefix expands to the 50 shortest longer words of the space.
    const near = Array.from({ length: 50 }, (_, i) => `quux${i + 10}`).join(" ");
    await s.page("Near", `${near}.`);
    await s.page("Far", "quuxxxxxxxxxxx.");
    expect(await titles("quux")).toEqual(["Near"]);
    expect(await titles("quuxx")).toEqual(["Far"]);
  });

  it("builds a space's index once, and moves it by the pages an edit changed", async () => {
    const s = await setup();
    const page = await s.page("Cache", "Indexed once.");
    await s.page("Other", "Not edited.");
    const additions = vi.spyOn(Postings.prototype, "add");
    const removals = vi.spyOn(Postings.prototype, "remove");
    expect((await s.search("indexed")).body.count).toBe(1);
    expect((await s.search("once")).body.count).toBe(1);
    expect((await s.api("GET", `/orgs/${s.org}/search?query=once`)).body.count).toBe(1);
    // One document per section, added once.
    expect(additions).toHaveBeenCalledTimes(2);
    await s.api("PATCH", `/spaces/${s.space}/content/page/${page}`, { markdown: "Indexed twice." });
    expect((await s.search("twice")).body.count).toBe(1);
    expect((await s.search("once")).body.count).toBe(0);
    // The edited page's one section left and came back; the other page was not touched.
    expect(removals).toHaveBeenCalledTimes(1);
    expect(removals.mock.calls[0]![0]).toHaveLength(1);
    expect(additions).toHaveBeenCalledTimes(3);
  });
});

describe("sections and excerpts", () => {
  it("splits a page at its top-level headings, with unique anchors and plain text", () => {
    const markdown = [
      "Intro with a [link](a.md) and `code`.",
      "# Setup",
      "- one\n- two",
      '{% hint style="info" %}\nA hint.\n{% endhint %}',
      "## Setup",
      "```js\nconst x = 1;\n```",
      "> quoted",
    ].join("\n\n");
    expect(pageSections("Title", markdown)).toEqual([
      { title: "Title", body: "Intro with a link and code." },
      { anchor: "setup", title: "Setup", body: "one two A hint." },
      { anchor: "setup-1", title: "Setup", body: "const x = 1; quoted" },
    ]);
  });

  it("keeps the excerpt around the first match and drops common words", () => {
    const body = `${"lorem ipsum ".repeat(40)}the needle is here ${"dolor sit ".repeat(40)}`;
    const text = excerpt(body, ["needle"]);
    expect(text).toContain("the needle is here");
    expect(text.length).toBeLessThanOrEqual(242);
    expect(text.startsWith("…")).toBe(true);
    expect(queryTerms("The Café of the year")).toEqual(["cafe", "year"]);
    expect(queryTerms("the")).toEqual(["the"]);
  });
});
