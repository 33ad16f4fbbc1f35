import { afterEach, describe, expect, it, vi } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import type { TestClient } from "../../testing/double.js";
import type { ClientInput } from "../client.js";
import type { Operations } from "../operations.js";
import { Postings } from "./postings.js";
import { excerpt, queryTerms } from "./search-index.js";
import { pageSections } from "./sections.js";

type PageOptions = Omit<ClientInput<Operations["createPage"]>["body"], "title" | "markdown">;
type SearchOptions = Omit<ClientInput<Operations["searchSpaceContent"]>, "spaceId" | "query">;

async function setup() {
  const w = await createWorkspace();
  const space = await w.space({ title: "Docs" });
  const page = async (title: string, markdown: string, options: PageOptions = {}, inSpace = space) =>
    (await w.client.createPage({ spaceId: inSpace, body: { title, markdown, ...options } })).id;
  const search = (query: string, options: SearchOptions = {}, inSpace = space, as: TestClient = w.client) =>
    as.searchSpaceContent({ spaceId: inSpace, query, ...options });
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
    const body = await s.search("kangaroo compiler");
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
    const intro = (await s.search("guides")).items[0]!;
    expect(intro.sections[0]).toMatchObject({
      id: guides,
      title: "Guides",
      path: "guides",
      body: "All the guides.",
    });
    expect((await s.search("kangar")).items[0]!.id).toBe(install);
    expect((await s.search("kangaro compiler")).items[0]!.id).toBe(install);
    expect(await s.search("platypus")).toEqual({ count: 0, items: [] });
  });

  it("ranks a title match above a body match", async () => {
    const s = await setup();
    const other = await s.page("Operations", "Before you deploy, read the checklist.");
    const deploy = await s.page("Deploy", "Ship it.");
    const ids = (await s.search("deploy")).items.map((item) => item.id);
    expect(ids).toEqual([deploy, other]);
  });

  it("pages through a word every page holds as the whole list orders it, with the count of every page", async () => {
    const s = await setup();
    for (let i = 0; i < 40; i++)
      await s.page(
        i % 9 === 0 ? `Gadget ${i}` : `Page ${i}`,
        `A gadget ${"and more words ".repeat(i % 7)}here.`,
      );
    const whole = await s.search("gadget");
    expect(whole.count).toBe(40);
    const seen: string[] = [];
    let options: SearchOptions = { limit: 3 };
    for (;;) {
      const body = await s.search("gadget", options);
      expect(body.count).toBe(40);
      seen.push(...body.items.map((item) => item.id));
      if (!body.next) break;
      options = { limit: 3, page: body.next.page };
    }
    expect(seen).toEqual(whole.items.map((item) => item.id));
    expect(await s.search("gadget", { limit: 0 })).toEqual({ count: 40, items: [] });
  });

  it("pages results and validates the query", async () => {
    const s = await setup();
    for (let i = 1; i <= 5; i++) await s.page(`Widget ${i}`, `The widget number ${i}.`);
    const seen: string[] = [];
    let options: SearchOptions = { limit: 2 };
    for (;;) {
      const body = await s.search("widget", options);
      expect(body.count).toBe(5);
      seen.push(...body.items.map((item) => item.id));
      if (!body.next) break;
      options = { limit: 2, page: body.next.page };
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);

    // Over HTTP: no client type allows a search without its query.
    expect((await s.api("GET", `/spaces/${s.space}/search`)).status).toBe(400);
    await expect(s.search("")).rejects.toMatchObject({ code: "bad_request" });
    await expect(s.search("x".repeat(513))).rejects.toMatchObject({
      code: "bad_request",
      message: expect.stringMatching(/^query\.query: /),
    });
    await s.search("x".repeat(512));
    await expect(s.search("widget", { limit: 1001 })).rejects.toMatchObject({ code: "bad_request" });
  });

  it("searches hidden pages, and answers 404 to callers who cannot read the space", async () => {
    const s = await setup();
    await s.page("Secret plans", "The hidden hedgehog.", { hidden: true });
    expect((await s.search("hedgehog")).count).toBe(1);
    const reader = await s.member("read");
    expect((await s.search("hedgehog", {}, s.space, reader.client)).count).toBe(1);
    const guest = await s.member(null);
    await expect(s.search("hedgehog", {}, s.space, guest.client)).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(s.search("hedgehog", {}, s.space, s.outsider.client)).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("searches every readable space of an organization", async () => {
    const s = await setup();
    const second = await s.newSpace({ title: "Handbook" });
    const gone = await s.newSpace({ title: "Archive" });
    await s.page("Llamas", "Llamas everywhere.");
    await s.page("Farm", "A llama farm.", {}, second);
    await s.page("Old llamas", "Llamas of old.", {}, gone);
    await s.page("Cows", "No camelids.", {}, second);
    // Over HTTP for its 205.
    expect((await s.api("DELETE", `/spaces/${gone}`)).status).toBe(205);

    type Options = Omit<ClientInput<Operations["searchOrganizationContent"]>, "organizationId" | "query">;
    const search = (as: TestClient = s.client, options: Options = {}) =>
      as.searchOrganizationContent({ organizationId: s.org, query: "llama", ...options });
    const body = await search();
    expect(body.count).toBe(2);
    // Spaces come best match first; scores of different spaces are close here, so sort to compare.
    const found = body.items.map((item) => [item.id, item.title, item.pages.map((p) => p.title)] as const);
    expect(found.sort((a, b) => a[1].localeCompare(b[1]))).toEqual([
      [s.space, "Docs", ["Llamas"]],
      [second, "Handbook", ["Farm"]],
    ]);
    const docs = body.items.find((item) => item.id === s.space)!;
    expect(docs.pages[0]!.sections[0]).toMatchObject({ title: "Llamas", body: "Llamas everywhere." });
    const first = await search(s.client, { limit: 1 });
    expect(first.items.map((item) => item.id)).toEqual([body.items[0]!.id]);
    const rest = await search(s.client, { limit: 1, page: first.next!.page });
    expect(rest.items.map((item) => item.id)).toEqual([body.items[1]!.id]);
    expect(rest.next).toBeUndefined();

    const reader = await s.member("read");
    expect((await search(reader.client)).count).toBe(2);
    // A guest reads no space, so no page of any space shows.
    const guest = await s.member(null);
    expect(await search(guest.client)).toEqual({ count: 0, items: [] });
    await expect(search(s.outsider.client)).rejects.toMatchObject({ code: "not_found" });
    // Over HTTP: no client type allows a search without its query.
    expect((await s.api("GET", `/orgs/${s.org}/search`)).status).toBe(400);

    // Spaces of another organization never show.
    const otherOrg = await s.organization("Other");
    const foreign = await s.newSpace({ title: "Foreign" }, otherOrg);
    await s.page("Llama facts", "Llamas.", {}, foreign);
    expect((await search()).count).toBe(2);
  });

  it("expands only the last word to longer words, and only a word no page holds to typos", async () => {
    const s = await setup();
    const titles = async (query: string) => (await s.search(query)).items.map((item) => item.title).sort();
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
    expect((await s.search("indexed")).count).toBe(1);
    expect((await s.search("once")).count).toBe(1);
    expect((await s.client.searchOrganizationContent({ organizationId: s.org, query: "once" })).count).toBe(
      1,
    );
    // One document per section, added once.
    expect(additions).toHaveBeenCalledTimes(2);
    await s.client.updatePage({ spaceId: s.space, pageId: page, body: { markdown: "Indexed twice." } });
    expect((await s.search("twice")).count).toBe(1);
    expect((await s.search("once")).count).toBe(0);
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
