import { describe, expect, it } from "vitest";
import { answerOf } from "../../../test/support/limits.js";
import { createWorkspace } from "../../../test/support/workspace.js";
import { parserRuns } from "../document/markdown.js";
import { mapGet, NodeStore } from "../content-tree/hamt.js";
import { pageVersionsTable, revisionsTable } from "../content-tree/tables.js";
import { DerivedCache } from "../shared/cache.js";
import { createTestDocsbase } from "../../testing/double.js";

/**
 * Markdown limits (nesting, parser work) are enforced when markdown is written. A page stored
 * before they existed must not fail, or stall, any read: of itself (read as plain text) or of
 * other content (search, links, backlinks). Issue 9, defects 1 and 3.
 */

const DEEP_QUOTES = `${">".repeat(65)} kangaroo`;
const LIST_LINES = "> - x\n".repeat(8_192);
const STARS = "*a".repeat(150_000);

async function setup() {
  const w = await createWorkspace();
  const space = await w.space({ title: "Docs" });
  const page = async (title: string, markdown: string) =>
    (await w.client.createPage({ spaceId: space, body: { title, markdown } })).id;
  return { ...w, space, page };
}

describe("markdown limits at write time", () => {
  it.each([
    ["65 nested quotes", DEEP_QUOTES, "nests deeper than 64 levels"],
    ["a quote of 8,192 list items", LIST_LINES, "over the limit of 32000000"],
    ["300 KB of *a", STARS, "over the limit of 32000000"],
  ])("refuses %s with 400 naming body.markdown and the limit", async (_, markdown, rule) => {
    const s = await setup();
    const created = await answerOf(
      s.client.createPage({ spaceId: s.space, body: { title: "Bad", markdown } }),
    );
    expect(created.status).toBe(400);
    expect(created.body.error.message).toContain("markdown");
    expect(created.body.error.message).toContain(rule);
    const fine = await s.page("Fine", "Hello");
    const updated = await answerOf(
      s.client.updatePage({ spaceId: s.space, pageId: fine, body: { markdown } }),
    );
    expect(updated.status).toBe(400);
    expect(updated.body.error.message).toContain(rule);
  });
});

describe("a legacy page over the limits", () => {
  it.each([
    ["65 nested quotes", DEEP_QUOTES],
    ["a quote of 8,192 list items", LIST_LINES],
    ["300 KB of *a", STARS],
  ])("(%s) reads as text and breaks no read of other content", async (_, legacy) => {
    const s = await setup();
    const target = await s.page("Target", "The kangaroo target.");
    const source = await s.page("Source", "See [the target](target.md) about kangaroo.");
    const old = await s.page("Old", "placeholder [target](target.md)");
    // Store the over-limit markdown as the page's version, as a page written before the limit.
    const revision = (await s.client.getSpaceById({ spaceId: s.space })).revision;
    const record = await s.stored(revisionsTable, revision);
    const versionId = await s.storage.read((tx) =>
      mapGet(new NodeStore(tx, new DerivedCache()), record!.tree!.pages, old),
    );
    expect(versionId).toEqual(expect.any(String));
    await s.storage.write(async (tx) => {
      const version = await tx.get(pageVersionsTable, versionId!);
      await tx.put(pageVersionsTable, { ...version!, markdown: legacy });
    });
    // A fresh instance over the same storage: nothing derived from the old markdown is cached.
    const fresh = await createTestDocsbase({ storage: s.storage });
    const owner = fresh.as(s.owner);
    const spaceId = s.space;

    const page = await owner.getPageById({ spaceId, pageId: old });
    // The document is typed `unknown` by its schema.
    expect((page.document as { nodes: { type: string }[] }).nodes[0]!.type).toBe("paragraph");
    const search = await owner.searchOrganizationContent({ organizationId: s.org, query: "kangaroo" });
    const found = search.items.flatMap((item) => item.pages.map((hit) => hit.id));
    expect(found).toEqual(expect.arrayContaining([target, source]));
    await owner.searchSpaceContent({ spaceId, query: "kangaroo" });
    expect((await owner.listSpaceLinks({ spaceId })).items.length).toBeGreaterThan(0);
    await owner.listPageLinksInSpace({ spaceId, pageId: source });
    await owner.listPageLinksInSpace({ spaceId, pageId: old });
    const backlinks = await owner.listSpacePageBacklinks({ spaceId, pageId: target });
    expect(backlinks.items.map((item) => (item.kind === "page" ? item.page.id : undefined))).toContain(
      source,
    );
    const cr = await owner.createChangeRequest({ spaceId });
    await owner.listChangeRequestLinks({ spaceId, changeRequestId: cr.id });
  });
});

describe("document cache", () => {
  it("converts a page version once, however often it is read", async () => {
    const s = await setup();
    const id = await s.page("Page", "# Title\n\nSome *text*.\n");
    const read = () => s.client.getPageById({ spaceId: s.space, pageId: id });
    // The document is typed `unknown` by its schema.
    const nodes = async () => ((await read()).document as { nodes: unknown[] }).nodes.length;
    await read();
    const before = parserRuns.count;
    for (let index = 0; index < 5; index++) expect(await nodes()).toBe(2);
    expect(parserRuns.count).toBe(before);
    await s.client.updatePage({ spaceId: s.space, pageId: id, body: { markdown: "Changed\n" } });
    expect(await nodes()).toBe(1);
  });
});
