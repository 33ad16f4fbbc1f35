import { describe, expect, it } from "vitest";
import { seedLargeSpace } from "../../../test/support/large-space.js";
import { createWorkspace } from "../../../test/support/workspace.js";
import { commitRevision, requireRevision } from "../content-tree/revisions.js";
import { DerivedCache } from "../shared/cache.js";
import { randomId, type World } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import { semanticChanges } from "./semantic-changes.js";
import { changeRequestsTable } from "./tables.js";

const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/**
 * A space holding Intro, Guide (with Setup below it) and Other, and a file; and a change request
 * of it, with helpers to write in it and to read its changes.
 */
async function setup() {
  const workspace = await createWorkspace();
  const { client } = workspace;
  const spaceId = await workspace.space({ title: "Docs" });
  const page = async (title: string, parent?: string) =>
    (await client.createPage({ spaceId, body: { title, markdown: title, ...(parent ? { parent } : {}) } }))
      .id;
  const intro = await page("Intro");
  const guide = await page("Guide");
  const setupPage = await page("Setup", guide);
  const other = await page("Other");
  const logo = await client.uploadFile({
    spaceId,
    body: { name: "logo.png", contentType: "image/png", data: PNG },
  });
  const changeRequest = await client.createChangeRequest({ spaceId, body: { subject: "Edit" } });
  const cr = { spaceId, changeRequestId: changeRequest.id };
  const changes = (limit?: number) =>
    client.getChangeRequestChanges({ ...cr, ...(limit === undefined ? {} : { limit }) });
  /** The changes as [type, page id and path, or file or reusable content id] rows. */
  const rows = async (limit = 100) =>
    (await changes(limit)).changes.map((change) =>
      "page" in change
        ? [change.type, change.page.id, change.page.path]
        : [change.type, "file" in change ? change.file.id : change.reusableContent.id],
    );
  return { ...workspace, spaceId, intro, guide, setupPage, other, logo, changeRequest, cr, changes, rows };
}

describe("changes of a change request", () => {
  it("lists nothing for a change request that changed nothing", async () => {
    const { changes } = await setup();
    expect(await changes()).toEqual({ changes: [], more: 0 });
  });

  it("lists created, edited, moved and deleted pages in reading order, then files by name", async () => {
    const { client, cr, intro, guide, setupPage, other, logo, changes, rows } = await setup();
    await client.updatePageInChangeRequest({
      ...cr,
      pageId: intro,
      body: { title: "Introduction", markdown: "Welcome", description: "Start here" },
    });
    const created = await client.createPageInChangeRequest({ ...cr, body: { title: "New", parent: guide } });
    await client.deletePageInChangeRequest({ ...cr, pageId: setupPage });
    await client.updatePageInChangeRequest({ ...cr, pageId: other, body: { parent: guide } });
    await client.updatePageInChangeRequest({ ...cr, pageId: guide, body: { slug: "handbook" } });
    const file = await client.uploadFileInChangeRequest({
      ...cr,
      body: { name: "a.txt", contentType: "text/plain", data: btoa("hi") },
    });
    await client.deleteFileInChangeRequest({ ...cr, fileId: logo.id });

    expect(await rows()).toEqual([
      ["page_edited", intro, "intro"],
      ["page_edited", guide, "handbook"],
      // Setup stood first under Guide in the base; New and Other were put last.
      ["page_deleted", setupPage, "guide/setup"],
      ["page_created", created.id, "handbook/new"],
      ["page_moved", other, "handbook/other"],
      ["file_created", file.id],
      ["file_deleted", logo.id],
    ]);
    const { changes: list } = await changes(100);
    expect(list[0]).toEqual({
      type: "page_edited",
      page: { id: intro, type: "document", title: "Introduction", path: "intro" },
      attributes: {
        title: { before: "Intro", after: "Introduction" },
        description: { after: "Start here" },
        document: { before: expect.any(String), after: expect.any(String) },
      },
    });
    expect(list[1]).toMatchObject({ attributes: { slug: { before: "guide", after: "handbook" } } });
    expect(Object.keys((list[1] as { attributes: object }).attributes)).toEqual(["slug"]);
    expect(list[4]).toEqual({
      type: "page_moved",
      page: { id: other, type: "document", title: "Other", path: "handbook/other" },
      // Other was at the root: no parent before.
      parent: { after: { id: guide, type: "document", title: "Guide", path: "handbook" } },
    });
    expect(list[6]).toEqual({
      type: "file_deleted",
      file: { id: logo.id, name: "logo.png", contentType: "image/png", downloadURL: logo.downloadURL },
    });
  });

  it("reports a move together with an edit of the same page, and a move back to the root", async () => {
    const { client, cr, setupPage, guide, changes } = await setup();
    await client.updatePageInChangeRequest({
      ...cr,
      pageId: setupPage,
      body: { parent: null, title: "Setup guide" },
    });
    const { changes: list } = await changes();
    expect(list.map((change) => change.type)).toEqual(["page_moved", "page_edited"]);
    expect(list[0]).toMatchObject({
      parent: { before: { id: guide, path: "guide" } },
      page: { path: "setup" },
    });
    expect((list[0] as { parent: object }).parent).not.toHaveProperty("after");
    expect(list[1]).toMatchObject({ attributes: { title: { before: "Setup", after: "Setup guide" } } });
  });

  it("lists only its own changes when the space moved on, before and after an update", async () => {
    const { client, spaceId, cr, intro, other, rows } = await setup();
    await client.updatePageInChangeRequest({ ...cr, pageId: intro, body: { markdown: "Mine" } });
    await client.updatePage({ spaceId, pageId: other, body: { markdown: "Theirs" } });
    await client.createPage({ spaceId, body: { title: "Live page" } });
    expect(await rows()).toEqual([["page_edited", intro, "intro"]]);
    expect((await client.updateChangeRequest(cr)).result).toBe("update");
    expect(await rows()).toEqual([["page_edited", intro, "intro"]]);
    // Merged, it still lists what it changed.
    expect((await client.mergeChangeRequest(cr)).result).toBe("merge");
    expect(await rows()).toEqual([["page_edited", intro, "intro"]]);
  });

  it("gives the first `limit` changes (10 by default) and counts the rest in `more`", async () => {
    const { client, cr, changes } = await setup();
    for (let i = 0; i < 12; i++) await client.createPageInChangeRequest({ ...cr, body: { title: `P${i}` } });
    const all = await changes(100);
    expect(all.more).toBe(0);
    const first = await changes();
    expect(first.changes).toEqual(all.changes.slice(0, 10));
    expect(first.more).toBe(2);
    expect(await changes(3)).toEqual({ changes: all.changes.slice(0, 3), more: 9 });
    expect(await changes(0)).toEqual({ changes: [], more: 12 });
    await expect(changes(-1)).rejects.toMatchObject({
      code: "bad_request",
      message: expect.stringContaining("limit"),
    });
  });

  it("reports a new version of a file as file_edited with the attributes that differ", async () => {
    const { storage, cr, logo, changeRequest, changes } = await setup();
    // The API's uploads always make a new file; a new version of one comes from a merge of trees.
    const world = {
      clock: () => new Date("2025-01-02T00:00:00.000Z"),
      ids: () => randomId(),
      cache: new DerivedCache(1024 * 1024),
    } as unknown as World;
    await storage.write(async (tx) => {
      const head = await requireRevision(tx, world, changeRequest.revision);
      const version = (await head.file(logo.id))!;
      const renamed = { ...version, id: randomId(), name: "logo-dark.png", size: version.size + 1 };
      const next = await commitRevision(tx, world, {
        space: cr.spaceId,
        base: head,
        changes: { files: new Map([[logo.id, renamed]]) },
      });
      const record = (await tx.get(changeRequestsTable, changeRequest.id))!;
      await tx.put(changeRequestsTable, { ...record, revision: next.id });
    });
    const { changes: list } = await changes();
    expect(list).toEqual([
      {
        type: "file_edited",
        file: expect.objectContaining({ id: logo.id, name: "logo-dark.png" }),
        attributes: {
          name: { before: "logo.png", after: "logo-dark.png" },
          size: { before: logo.size, after: logo.size + 1 },
        },
      },
    ]);
  });

  it("lists reusable contents created, edited and deleted after files, by title then id", async () => {
    const { client, spaceId, cr, intro, rows, changes } = await setup();
    const kept = await client.createReusableContent({ spaceId, body: { title: "Warning", markdown: "a" } });
    const gone = await client.createReusableContent({ spaceId, body: { title: "Tip", markdown: "t" } });
    const renamed = await client.createReusableContent({ spaceId, body: { title: "Note", markdown: "n" } });
    const same = await client.createReusableContent({ spaceId, body: { title: "Same", markdown: "s" } });
    // The change request is older than these: bring them in, so that they are its base.
    expect((await client.updateChangeRequest(cr)).result).toBe("update");
    expect(await rows()).toEqual([]);

    await client.updatePageInChangeRequest({ ...cr, pageId: intro, body: { markdown: "b" } });
    const edited = await client.updateReusableContentInChangeRequest({
      ...cr,
      reusableContentId: kept.id,
      body: { markdown: "b" },
    });
    const titled = await client.updateReusableContentInChangeRequest({
      ...cr,
      reusableContentId: renamed.id,
      body: { title: "A note" },
    });
    // Same title and markdown: a new version, but no change to list.
    const rewritten = await client.updateReusableContentInChangeRequest({
      ...cr,
      reusableContentId: same.id,
      body: { markdown: "s" },
    });
    expect(rewritten.document).not.toBe(same.document);
    await client.deleteReusableContentInChangeRequest({ ...cr, reusableContentId: gone.id });
    const made = await client.createReusableContentInChangeRequest({
      ...cr,
      body: { title: "Banner", markdown: "x" },
    });
    expect(await rows()).toEqual([
      ["page_edited", intro, "intro"],
      ["reusable_content_edited", renamed.id],
      ["reusable_content_created", made.id],
      ["reusable_content_deleted", gone.id],
      ["reusable_content_edited", kept.id],
    ]);
    const list = (await changes(100)).changes;
    expect(list[1]).toEqual({
      type: "reusable_content_edited",
      reusableContent: { id: renamed.id, title: "A note", document: titled.document },
      attributes: { title: { before: "Note", after: "A note" } },
    });
    expect(list[2]).toEqual({ type: "reusable_content_created", reusableContent: made });
    // A deleted one is named by its last version, whose document was the one it had.
    expect(list[3]).toEqual({ type: "reusable_content_deleted", reusableContent: gone });
    expect(list[4]).toEqual({
      type: "reusable_content_edited",
      reusableContent: edited,
      attributes: { document: { before: kept.document, after: edited.document } },
    });
  });

  it("needs read on the space: 404 for outsiders and for a missing change request", async () => {
    const { client, cr, spaceId, intro, member, outsider } = await setup();
    await client.updatePageInChangeRequest({ ...cr, pageId: intro, body: { markdown: "b" } });
    const reader = await member("read");
    expect((await reader.client.getChangeRequestChanges(cr)).changes).toHaveLength(1);
    await expect(outsider.client.getChangeRequestChanges(cr)).rejects.toMatchObject({ code: "not_found" });
    await expect(client.getChangeRequestChanges({ spaceId, changeRequestId: "99" })).rejects.toMatchObject({
      code: "not_found",
      message: expect.stringContaining('"99"'),
    });
  });
});

describe("changes of a change request at scale", () => {
  /** A space of `pages` pages and a change request that edited 3 of them; its changes, read cold. */
  async function readsFor(pages: number) {
    const workspace = await createWorkspace();
    const { client, storage } = workspace;
    const spaceId = await workspace.space({ title: "Docs" });
    const ids = await seedLargeSpace(storage, spaceId, pages, { markdownBytes: 256 });
    const changeRequest = await client.createChangeRequest({ spaceId, body: {} });
    for (const index of [1, Math.floor(pages / 2), pages - 1]) {
      await client.updatePageInChangeRequest({
        spaceId,
        changeRequestId: changeRequest.id,
        pageId: ids[index]!,
        body: { markdown: `Edit ${index}` },
      });
    }
    const record = (await workspace.stored(changeRequestsTable, changeRequest.id))!;
    // A new cache, so that every record the walk needs is read from storage and counted.
    const world = { baseUrl: "http://docsbase.test", cache: new DerivedCache(64 * 1024 * 1024) } as World;
    let reads = 0;
    const changes = await storage.read(async (inner) => {
      const tx: ReadTransaction = {
        get: (table, key) => (reads++, inner.get(table, key)),
        list: (table, query) => (reads++, inner.list(table, query)),
        count: (table, query) => (reads++, inner.count(table, query)),
      };
      const [base, head] = await Promise.all([
        requireRevision(tx, world, record.revisionInitial),
        requireRevision(tx, world, record.revision),
      ]);
      return semanticChanges(world, base, head);
    });
    expect(changes.map((change) => change.type)).toEqual(["page_edited", "page_edited", "page_edited"]);
    return reads;
  }

  it("reads about as much in a space of 10,000 pages as in one of 10", async () => {
    const small = await readsFor(10);
    const large = await readsFor(10_000);
    // The tree nodes where the two revisions differ (a few levels deeper in the large space, in
    // the pages map and in the ancestors' lookups), the 3 pages' versions on both sides and their
    // folders' for paths: tens of records, where loading the space would read over 10,000.
    expect(large).toBeLessThanOrEqual(small + 30);
    expect(large).toBeLessThan(60);
  }, 60_000);
});
