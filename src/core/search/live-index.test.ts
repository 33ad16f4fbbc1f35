import { describe, expect, it } from "vitest";
import { comparableHits, indexContents } from "../../../test/support/index-contents.js";
import { createWorkspace } from "../../../test/support/workspace.js";
import type { TestClient } from "../../testing/double.js";
import type { ClientInput } from "../client.js";
import type { Operations } from "../operations.js";
import {
  commitRevision,
  requireRevision,
  type FullContent,
  type Revision,
} from "../content-tree/revisions.js";
import type { PageVersionRecord } from "../content-tree/tables.js";
import { randomId, type World } from "../shared/world.js";
import { spacesTable } from "../spaces/tables.js";
import { MOVE_LIMIT, withSearchIndex } from "./live-index.js";
import { buildSearchIndex, queryTerms, searchPages, type SearchIndex } from "./search-index.js";

/**
 * The live index of a space, moved from revision to revision by the pages that changed, answers
 * every query as a fresh build of the revision asked for would.
 */

type PageOptions = Omit<ClientInput<Operations["createPage"]>["body"], "title" | "markdown">;

const worldWithCache = () => ({ cache: new Map() }) as unknown as World;

async function setup() {
  const w = await createWorkspace();
  const space = await w.space({ title: "Docs" });
  const pages = new Map<string, string>();
  const create = async (title: string, markdown: string, options: PageOptions = {}) => {
    const created = await w.client.createPage({ spaceId: space, body: { title, markdown, ...options } });
    pages.set(title, created.id);
    return created.id;
  };
  const update = async (pageId: string, body: ClientInput<Operations["updatePage"]>["body"]) => {
    await w.client.updatePage({ spaceId: space, pageId, body });
  };
  const head = () =>
    w.storage.read(async (tx) =>
      requireRevision(tx, worldWithCache(), (await tx.get(spacesTable, space))!.revision),
    );
  /** A new version of `page` with `patch`, committed as the space's head (noIndex has no API). */
  const commit = (page: string, patch: Partial<PageVersionRecord>) =>
    w.storage.write(async (tx) => {
      const record = (await tx.get(spacesTable, space))!;
      const world = { ...worldWithCache(), ids: () => randomId(), clock: () => new Date() };
      const base = await requireRevision(tx, world, record.revision);
      const version = { ...(await base.page(page))!, ...patch, id: randomId() };
      const next = await commitRevision(tx, world, {
        space,
        base,
        changes: { pages: new Map([[page, version]]) },
      });
      await tx.put(spacesTable, { ...record, revision: next.record.id });
    });
  /** The live world's index at `content`, and a fresh build of `content`. */
  const live = worldWithCache();
  const indexes = (revision: Revision) =>
    w.storage.read(async (tx) => {
      // A revision is read in one transaction: load it again in this one.
      const at = await requireRevision(tx, worldWithCache(), revision.id);
      const content = await at.full();
      return {
        moved: await withSearchIndex(tx, live, at, (index) => snapshot(index, content)),
        fresh: snapshot(buildSearchIndex(worldWithCache(), content), content),
        index: live.cache.get(`search:space:${space}`) as SearchIndex,
      };
    });
  return { w, ...w, newSpace: w.space, space, pages, create, update, commit, head, indexes };
}

/**
 * Everything a query can see of an index, for every word of the revision's titles and text and
 * every prefix of three letters of them: the index's words with their statistics and postings,
 * and each query's pages, sections, scores and matched words.
 */
function snapshot(index: SearchIndex, content: FullContent) {
  const words = new Set<string>();
  for (const version of content.pages.values()) {
    for (const word of queryTerms(`${version.title} ${version.markdown}`)) {
      words.add(word);
      words.add(word.slice(0, 3));
    }
  }
  const queries = [...words].sort();
  queries.push("environment variables", "zebra deploy", "kangaro compiler");
  return {
    contents: indexContents(index),
    results: Object.fromEntries(
      queries.map((query) => [query, comparableHits(searchPages(index, query), 10)]),
    ),
  };
}

describe("the live search index", () => {
  it("equals a fresh build after updates, creates, deletes, moves and renames of an ancestor", async () => {
    const s = await setup();
    const guides = await s.create(
      "Guides",
      "All the guides, for every deploy.\n\n# Install\n\nThe kangaroo compiler.",
    );
    const deploy = await s.create("Deploy", "Ship it.\n\n# Rollback\n\nUndo a deploy.", { parent: guides });
    const config = await s.create("Configuration", "# Environment variables\n\nSet them before you deploy.");
    const old = await s.create("Old notes", "Forgotten deploy notes about the compiler.");
    const first = await s.indexes(await s.head());
    expect(first.moved).toEqual(first.fresh);
    const index = first.index;

    const edits: [string, () => Promise<unknown>][] = [
      [
        "update the text",
        () => s.update(deploy, { markdown: "Ship it today.\n\n# Preview\n\nA preview per branch." }),
      ],
      ["create a page", () => s.create("Troubleshooting", "# Deploy hangs\n\nA deploy waits on a lock.")],
      ["create a child", () => s.create("Cache", "Clear the build cache.", { parent: config })],
      ["delete a page", () => s.client.deletePage({ spaceId: s.space, pageId: old })],
      ["move a page", () => s.update(deploy, { parent: config })],
      ["rename an ancestor", () => s.update(config, { title: "Settings", slug: "settings" })],
      ["retitle a page", () => s.update(guides, { title: "Handbook of guides" })],
      ["leave a page out (noIndex)", () => s.commit(guides, { noIndex: true })],
      ["put it back", () => s.commit(guides, { noIndex: false })],
    ];
    for (const [edit, run] of edits) {
      await run();
      const { moved, fresh, index: now } = await s.indexes(await s.head());
      expect(moved, edit).toEqual(fresh);
      // Moved in place, never rebuilt.
      expect(now, edit).toBe(index);
    }
    expect(index.pages.size).toBe(5);
  });

  it("answers an older revision with that revision's results after newer edits", async () => {
    const s = await setup();
    const page = await s.create("Deploy", "The kangaroo compiler.");
    await s.create("Other", "Unrelated text.");
    const before = await s.head();
    expect((await s.indexes(before)).moved).toEqual((await s.indexes(before)).fresh);
    await s.update(page, { markdown: "The platypus assembler." });
    await s.create("Third", "A kangaroo again.");
    const after = await s.head();
    const moved = await s.indexes(after);
    expect(moved.moved).toEqual(moved.fresh);
    // The older revision, then the newer again: each as its own fresh build.
    const older = await s.indexes(before);
    expect(older.moved).toEqual(older.fresh);
    expect(older.moved.results["kangaroo"]!.map((hit) => hit.page)).toEqual([page]);
    const newer = await s.indexes(after);
    expect(newer.moved).toEqual(newer.fresh);
    expect(newer.moved.results["kangaroo"]!.map((hit) => hit.page)).not.toContain(page);
  });

  it("builds an older revision out of reach apart, leaving the live index where it is", async () => {
    const s = await setup();
    await s.create("Deploy", "The kangaroo compiler.");
    const before = await s.head();
    // One commit of more pages than a move takes (MOVE_LIMIT).
    await s.w.storage.write(async (tx) => {
      const record = (await tx.get(spacesTable, s.space))!;
      const world = { ...worldWithCache(), ids: () => randomId(), clock: () => new Date() };
      const base = await requireRevision(tx, world, record.revision);
      const template = [...(await base.full()).pages.values()][0]!;
      const pages = new Map<string, PageVersionRecord>();
      for (let i = 0; i <= MOVE_LIMIT; i++) {
        const page = `bulk${i}`;
        pages.set(page, { ...template, id: randomId(), page, slug: page, title: `Kangaroo ${i}` });
      }
      const next = await commitRevision(tx, world, { space: s.space, base, changes: { pages } });
      await tx.put(spacesTable, { ...record, revision: next.record.id });
    });
    const after = await s.head();
    const newer = await s.indexes(after);
    expect(newer.moved).toEqual(newer.fresh);
    const older = await s.indexes(before);
    expect(older.moved).toEqual(older.fresh);
    expect(older.index).toBe(newer.index);
    expect(older.index.at.id).toBe(after.id);
  });

  it("shows each hit's path as of the revision searched, after a rename or move of an ancestor", async () => {
    const s = await setup();
    const guides = await s.create("Guides", "Guides.");
    const deploy = await s.create("Deploy", "The kangaroo compiler.", { parent: guides });
    const search = async () =>
      (await s.client.searchSpaceContent({ spaceId: s.space, query: "kangaroo" })).items[0];
    expect(await search()).toMatchObject({ path: "guides/deploy", ancestors: [{ title: "Guides" }] });
    await s.update(guides, { title: "Handbook", slug: "handbook" });
    expect(await search()).toMatchObject({
      path: "handbook/deploy",
      ancestors: [{ title: "Handbook" }],
      sections: [{ path: "handbook/deploy" }],
    });
    const other = await s.create("Other", "Other.");
    await s.update(deploy, { parent: other });
    expect(await search()).toMatchObject({ path: "other/deploy", ancestors: [{ title: "Other" }] });
  });

  it("keeps organization search within what the caller can read, through edits", async () => {
    const s = await setup();
    const second = await s.newSpace({ title: "Handbook" });
    const page = await s.create("Llamas", "Llamas everywhere.");
    await s.client.createPage({ spaceId: second, body: { title: "Farm", markdown: "A llama farm." } });
    const reader = await s.member("read");
    const search = (as: TestClient = s.client) =>
      as.searchOrganizationContent({ organizationId: s.org, query: "alpaca" });
    expect((await search(reader.client)).count).toBe(0);
    await s.update(page, { markdown: "Alpacas everywhere." });
    await s.client.createPage({ spaceId: second, body: { title: "Alpaca farm", markdown: "Alpacas." } });
    const found = await search(reader.client);
    expect(found.items.map((item) => item.id).sort()).toEqual([s.space, second].sort());
    // A reader turned guest reads no space any more, however warm the indexes.
    await s.client.updateMemberInOrganizationById({
      organizationId: s.org,
      userId: reader.userId,
      body: { role: null },
    });
    expect(await search(reader.client)).toEqual({ count: 0, items: [] });
    // A deleted space leaves the results; another organization's space never enters them.
    expect((await s.api("DELETE", `/spaces/${second}`)).status).toBe(205);
    expect((await search()).items.map((item) => item.id)).toEqual([s.space]);
    const foreign = await s.newSpace({ title: "Foreign" }, await s.organization("Other"));
    await s.client.createPage({ spaceId: foreign, body: { title: "Alpacas", markdown: "Alpacas." } });
    expect((await search()).items.map((item) => item.id)).toEqual([s.space]);
  });
});
