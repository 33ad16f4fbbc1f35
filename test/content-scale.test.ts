import { describe, expect, it } from "vitest";
import { memoryStorage } from "../src/adapters/memory/index.js";
import type { ClientInput } from "../src/core/client.js";
import type { Operations } from "../src/core/operations.js";
import type { Storage, WriteTransaction } from "../src/core/storage/port.js";
import { createTestDocsbase } from "../src/testing/double.js";
import { seedLargeSpace } from "./support/large-space.js";

/**
 * Content at scale (issue 8): the work an edit does follows the edit, not the size of the space,
 * and the derived-value cache stays within its budget. Counted, never timed.
 */

/** A storage that counts the records every write transaction puts, and their JSON bytes. */
function counting(storage: Storage) {
  const written = { records: 0, bytes: 0 };
  const wrapped: Storage = {
    init: (schema) => storage.init(schema),
    read: (fn) => storage.read(fn),
    close: () => storage.close(),
    write: (fn) =>
      storage.write((tx) => {
        const counted: WriteTransaction = {
          get: (table, key) => tx.get(table, key),
          list: (table, query) => tx.list(table, query),
          count: (table, query) => tx.count(table, query),
          delete: (table, key) => tx.delete(table, key),
          put: (table, record) => {
            written.records++;
            written.bytes += JSON.stringify(record).length;
            return tx.put(table, record);
          },
        };
        return fn(counted);
      }),
  };
  return { storage: wrapped, written };
}

async function spaceOf(pages: number) {
  const base = memoryStorage();
  const { storage, written } = counting(base);
  const test = await createTestDocsbase({ storage });
  const owner = await test.createUser("Owner");
  const client = test.as(owner);
  const org = (await client.createOrganization({ body: { title: "Acme" } })).id;
  const space = (await client.createSpace({ organizationId: org, body: { title: "Docs" } })).id;
  const ids = await seedLargeSpace(base, space, pages, { markdownBytes: 256 });
  /** What one call wrote, and its answer (a refusal rejects). */
  const writes = async <T>(call: () => Promise<T>) => {
    written.records = 0;
    written.bytes = 0;
    const body = await call();
    return { ...written, body };
  };
  return { test, client, space, ids, writes };
}

describe("content at scale", () => {
  it("writes as many records for an edit in a 10,000-page space as in a 10-page one", async () => {
    const small = await spaceOf(10);
    const large = await spaceOf(10_000);
    const edit = (space: Awaited<ReturnType<typeof spaceOf>>, pageId: string, n: number) =>
      space.writes(() =>
        space.client.updatePage({ spaceId: space.space, pageId, body: { markdown: `# Edit ${n}\n` } }),
      );
    const smallWrites = [];
    const largeWrites = [];
    // Forty edits: more than any interval at which a whole-space record would be written.
    for (let n = 0; n < 40; n++) {
      smallWrites.push(await edit(small, small.ids[1 + (n % 9)]!, n));
      largeWrites.push(await edit(large, large.ids[1 + ((n * 1999) % 9999)]!, n));
    }
    // The page version, the tree nodes on its path (log32 of the size: one more level at most),
    // the revision record, the space record and its revision counter.
    const most = (list: { records: number }[]) => Math.max(...list.map((entry) => entry.records));
    expect(most(largeWrites)).toBeLessThanOrEqual(most(smallWrites) + 2);
    expect(most(largeWrites)).toBeLessThanOrEqual(9);
    // A full copy of the large space's page map alone would be hundreds of kilobytes.
    for (const entry of largeWrites) expect(entry.bytes).toBeLessThan(8_000);

    // Moving a page and renaming one write a bounded number of records too: a leaf and a path of the
    // children lists of the two parents change, and two paths of the slug index, not the space.
    const update = (pageId: string, body: ClientInput<Operations["updatePage"]>["body"]) =>
      large.writes(() => large.client.updatePage({ spaceId: large.space, pageId, body }));
    const moved = await update(large.ids[250]!, { parent: large.ids[5100]! });
    expect(moved.records).toBeLessThanOrEqual(22);
    expect(moved.bytes).toBeLessThan(24_000);
    const renamed = await update(large.ids[251]!, { slug: "renamed" });
    expect(renamed.records).toBeLessThanOrEqual(18);
    const { path } = await large.client.getPageById({ spaceId: large.space, pageId: large.ids[251]! });
    expect(path).toBe("folder-2/renamed");
  });

  it("writes a merge's records by what both sides changed, not by what the change request did", async () => {
    const large = await spaceOf(10_000);
    /** Merges a change request that edited `count` pages, after one edit on the space. */
    const { client, space: spaceId } = large;
    const merge = async (count: number, offset: number) => {
      const cr = await client.createChangeRequest({ spaceId, body: { subject: "Bulk" } });
      const changeRequest = { spaceId, changeRequestId: cr.id };
      for (let i = 0; i < count; i++) {
        const pageId = large.ids[1 + ((offset + i * 37) % 9999)]!;
        await client.updatePageInChangeRequest({
          ...changeRequest,
          pageId,
          body: { markdown: `# Change ${i}\n` },
        });
      }
      const main = { spaceId, pageId: large.ids[9999]!, body: { title: `Main ${offset}` } };
      await large.writes(() => client.updatePage(main));
      const merged = await large.writes(() => client.mergeChangeRequest(changeRequest));
      expect(merged.body.result).toBe("merge");
      return merged;
    };
    const few = await merge(2, 0);
    const many = await merge(300, 1);
    // The revision, the space, the change request and their bookkeeping, and the tree nodes on the
    // paths where both sides changed the maps: about a leaf per page touched, before trees merged.
    expect(many.records).toBeLessThanOrEqual(few.records + 2);
    expect(many.records).toBeLessThanOrEqual(20);
    const changed = { spaceId, pageId: large.ids[1 + (1 + 37 * 5)]!, format: "markdown" as const };
    expect(await client.getPageById(changed)).toMatchObject({
      markdown: expect.stringContaining("Change 5"),
    });
  });

  it("never holds more than its cache budget while reading many distinct revisions", async () => {
    const budget = 256 * 1024;
    const test = await createTestDocsbase({ cacheBytes: budget });
    const client = test.as(await test.createUser("Owner"));
    const org = (await client.createOrganization({ body: { title: "Acme" } })).id;
    const spaceId = (await client.createSpace({ organizationId: org, body: { title: "Docs" } })).id;
    const pages: string[] = [];
    for (let i = 0; i < 20; i++) {
      const body = { title: `Page ${i}`, markdown: `# Page ${i}\n\n${"Some text. ".repeat(200)}` };
      pages.push((await client.createPage({ spaceId, body })).id);
    }
    const revisions: string[] = [];
    for (let i = 0; i < 60; i++) {
      await client.updatePage({ spaceId, pageId: pages[i % 20]!, body: { markdown: `Edit ${i}\n` } });
      revisions.push((await client.getSpaceById({ spaceId })).revision);
    }
    let peak = 0;
    for (const revisionId of revisions) {
      for (const [name, read] of [
        ["getRevisionById", () => client.getRevisionById({ spaceId, revisionId })],
        [
          "getPageInRevisionById",
          () => client.getPageInRevisionById({ spaceId, revisionId, pageId: pages[3]! }),
        ],
        ["searchSpaceContent", () => client.searchSpaceContent({ spaceId, query: "text" })],
      ] as const) {
        await expect(read(), name).resolves.toBeDefined();
        peak = Math.max(peak, test.docsbase.cache.bytes);
        expect(test.docsbase.cache.bytes).toBeLessThanOrEqual(budget);
      }
    }
    // The cache was used (and full): the budget, not a lack of entries, kept it small. Sixty
    // materialized revisions of twenty 2 KB pages would take several times the budget.
    expect(peak).toBeGreaterThan(budget / 2);
    expect(test.docsbase.cache.maxBytes).toBe(budget);
  });
});
