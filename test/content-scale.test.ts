import { describe, expect, it } from "vitest";
import { memoryStorage } from "../src/adapters/memory/index.js";
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
  const api = <T = any>(method: string, path: string, body?: unknown) =>
    test.request<T>(method, path, { token: owner.token, ...(body !== undefined ? { body } : {}) });
  const org = (await api("POST", "/orgs", { title: "Acme" })).body.id as string;
  const space = (await api("POST", `/orgs/${org}/spaces`, { title: "Docs" })).body.id as string;
  const ids = await seedLargeSpace(base, space, pages, { markdownBytes: 256 });
  /** What one request wrote. */
  const writes = async (method: string, path: string, body?: unknown) => {
    written.records = 0;
    written.bytes = 0;
    const response = await api(method, `/spaces/${space}/content${path}`, body);
    expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
    return { ...written };
  };
  /** What one request wrote (any path). */
  const writesOf = async (method: string, path: string, body?: unknown) => {
    written.records = 0;
    written.bytes = 0;
    const response = await api(method, path, body);
    expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
    return { ...written, body: response.body };
  };
  return { test, api, space, ids, writes, writesOf };
}

describe("content at scale", () => {
  it("writes as many records for an edit in a 10,000-page space as in a 10-page one", async () => {
    const small = await spaceOf(10);
    const large = await spaceOf(10_000);
    const edit = (space: Awaited<ReturnType<typeof spaceOf>>, page: string, n: number) =>
      space.writes("PATCH", `/page/${page}`, { markdown: `# Edit ${n}\n` });
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

    // Moving a page and renaming one write a bounded number of records too: the children lists of
    // the two parents change, not the space.
    const moved = await large.writes("PATCH", `/page/${large.ids[250]}`, { parent: large.ids[5100] });
    expect(moved.records).toBeLessThanOrEqual(14);
    expect(moved.bytes).toBeLessThan(24_000);
    const renamed = await large.writes("PATCH", `/page/${large.ids[251]}`, { slug: "renamed" });
    expect(renamed.records).toBeLessThanOrEqual(12);
    const path = (await large.api("GET", `/spaces/${large.space}/content/page/${large.ids[251]}`)).body.path;
    expect(path).toBe("folder-2/renamed");
  });

  it("writes a merge's records by what both sides changed, not by what the change request did", async () => {
    const large = await spaceOf(10_000);
    /** Merges a change request that edited `count` pages, after one edit on the space. */
    const merge = async (count: number, offset: number) => {
      const cr = (await large.api("POST", `/spaces/${large.space}/change-requests`, { subject: "Bulk" }))
        .body;
      for (let i = 0; i < count; i++) {
        const page = large.ids[1 + ((offset + i * 37) % 9999)]!;
        const path = `/spaces/${large.space}/change-requests/${cr.id}/content/page/${page}`;
        expect((await large.api("PATCH", path, { markdown: `# Change ${i}\n` })).status).toBe(200);
      }
      await large.writes("PATCH", `/page/${large.ids[9999]}`, { title: `Main ${offset}` });
      const merged = await large.writesOf("POST", `/spaces/${large.space}/change-requests/${cr.id}/merge`);
      expect(merged.body.result).toBe("merge");
      return merged;
    };
    const few = await merge(2, 0);
    const many = await merge(300, 1);
    // The revision, the space, the change request and their bookkeeping, and the tree nodes on the
    // paths where both sides changed the maps: about a leaf per page touched, before trees merged.
    expect(many.records).toBeLessThanOrEqual(few.records + 2);
    expect(many.records).toBeLessThanOrEqual(20);
    const changed = `/spaces/${large.space}/content/page/${large.ids[1 + (1 + 37 * 5)]}?format=markdown`;
    expect((await large.api("GET", changed)).body.markdown).toContain("Change 5");
  });

  it("never holds more than its cache budget while reading many distinct revisions", async () => {
    const budget = 256 * 1024;
    const test = await createTestDocsbase({ cacheBytes: budget });
    const owner = await test.createUser("Owner");
    const api = <T = any>(method: string, path: string, body?: unknown) =>
      test.request<T>(method, path, { token: owner.token, ...(body !== undefined ? { body } : {}) });
    const org = (await api("POST", "/orgs", { title: "Acme" })).body.id as string;
    const space = (await api("POST", `/orgs/${org}/spaces`, { title: "Docs" })).body.id as string;
    const pages: string[] = [];
    for (let i = 0; i < 20; i++) {
      const body = { title: `Page ${i}`, markdown: `# Page ${i}\n\n${"Some text. ".repeat(200)}` };
      pages.push((await api("POST", `/spaces/${space}/content/pages`, body)).body.id);
    }
    const revisions: string[] = [];
    for (let i = 0; i < 60; i++) {
      await api("PATCH", `/spaces/${space}/content/page/${pages[i % 20]}`, { markdown: `Edit ${i}\n` });
      revisions.push((await api("GET", `/spaces/${space}`)).body.revision);
    }
    let peak = 0;
    for (const revision of revisions) {
      for (const path of [
        `/spaces/${space}/revisions/${revision}`,
        `/spaces/${space}/revisions/${revision}/page/${pages[3]}`,
        `/spaces/${space}/search?query=text`,
      ]) {
        expect((await api("GET", path)).status, path).toBe(200);
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
