import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sqliteStorage } from "../src/adapters/sqlite/index.js";
import { memoryStorage } from "../src/adapters/memory/index.js";
import { tokensTable } from "../src/core/users/tables.js";
import { SPACE_READER_LIFETIME_MS } from "../src/core/users/tokens.js";
import type { RateLimitOptions } from "../src/http/rate-limit.js";
import { createTestDocsbase, type TestDocsbase } from "../src/testing/double.js";

/**
 * The reader tokens of published-content lookups (issue 28, item 4): they count against the
 * address that obtained them and against their site, lookups have a stricter limit of their own,
 * identical lookups share one token, and instances sharing a database accept each other's.
 */
async function setup(rateLimit: RateLimitOptions | false = false) {
  const storage = memoryStorage();
  let address = "203.0.113.7";
  const t = await createTestDocsbase({
    storage,
    ...(rateLimit ? { rateLimit } : {}),
    clientAddress: () => address,
    now: "2026-01-01T00:00:00.000Z",
  });
  const owner = await t.createUser("Owner");
  const api = (method: string, path: string, body?: unknown) =>
    t.request(method, path, { token: owner.token, ...(body === undefined ? {} : { body }) });
  const org = (await api("POST", "/orgs", { title: "Acme" })).body.id as string;
  const sites: string[] = [];
  /** A published public site over a space of its own; its id. */
  const site = async (title: string) => {
    const space = (await api("POST", `/orgs/${org}/spaces`, { title })).body.id as string;
    const created = await api("POST", `/orgs/${org}/sites`, { title, spaces: [space] });
    const id = created.body.id as string;
    expect((await api("POST", `/orgs/${org}/sites/${id}/publish`)).status).toBe(200);
    sites.push(id);
    return id;
  };
  const lookup = (siteId: string) =>
    t.request("GET", `/urls/published?url=${encodeURIComponent(`http://docsbase.test/sites/${siteId}/`)}`, {
      token: null,
    });
  /** The same lookup as `lookup`, by `POST /urls/published` (resolvePublishedContentByUrl). */
  const resolve = (siteId: string) =>
    t.request("POST", "/urls/published", {
      token: null,
      body: { url: `http://docsbase.test/sites/${siteId}/` },
    });
  const readerRows = () =>
    storage.read((tx) => tx.list(tokensTable, { index: "byKind", where: ["space-reader"] }));
  return {
    t,
    site,
    sites,
    lookup,
    resolve,
    readerRows,
    from: (next: string) => {
      address = next;
    },
  };
}

describe("reader tokens and lookups", () => {
  it("count a reader token's requests against the address that obtained it: a refused address gets nothing through fresh tokens", async () => {
    const w = await setup({ requests: { limit: 10, windowMs: 60_000 }, publicWrites: false });
    // A token from each of three sites (three different grants: three tokens).
    const readers: { apiToken: string; space: string }[] = [];
    for (const title of ["One", "Two", "Three"]) readers.push((await w.lookup(await w.site(title))).body);
    expect(new Set(readers.map((reader) => reader.apiToken)).size).toBe(3);
    let status = 200;
    while (status === 200) status = (await w.lookup(w.sites[0]!)).status;
    expect(status).toBe(429);
    // The refused address gets nothing through any of its tokens, nor does anyone else using them.
    for (const { apiToken, space } of readers) {
      expect((await w.t.request("GET", `/spaces/${space}`, { token: apiToken })).status).toBe(429);
    }
    w.from("198.51.100.1");
    const { apiToken, space } = readers[0]!;
    expect((await w.t.request("GET", `/spaces/${space}`, { token: apiToken })).status).toBe(429);
    // The other address's own requests are unaffected.
    expect((await w.lookup(w.sites[0]!)).status).toBe(200);
  });

  it("count reader tokens' requests against their site, whoever obtained them", async () => {
    const w = await setup({ readerRequestsPerSite: { limit: 5, windowMs: 60_000 }, publicWrites: false });
    const busy = await w.site("Busy");
    const quiet = await w.site("Quiet");
    const statuses: number[] = [];
    for (let index = 0; index < 8; index++) {
      w.from(`198.51.100.${index}`);
      const { apiToken, space } = (await w.lookup(busy)).body;
      statuses.push((await w.t.request("GET", `/spaces/${space}`, { token: apiToken })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    const { apiToken, space } = (await w.lookup(quiet)).body;
    expect((await w.t.request("GET", `/spaces/${space}`, { token: apiToken })).status).toBe(200);
  });

  it("limit lookups per address more strictly than other requests (publicWrites)", async () => {
    const w = await setup({ publicWrites: { limit: 3, windowMs: 60_000 } });
    const siteId = await w.site("Docs");
    const statuses: number[] = [];
    // Both lookups, GET and POST, count alike.
    for (let index = 0; index < 5; index++) {
      statuses.push((await (index % 2 ? w.resolve(siteId) : w.lookup(siteId))).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect((await w.resolve(siteId)).body.error.message).toMatch(/^Too many lookups/);
    const refused = await w.lookup(siteId);
    expect(refused.body.error.message).toMatch(/^Too many lookups/);
    expect(refused.headers.get("x-ratelimit-limit")).toBe("3");
    // Reads that need no token are not lookups.
    expect((await w.t.request("GET", "/openapi/none/none", { token: null })).status).toBe(404);
    const search = await w.t.request("POST", `/orgs/none/sites/${siteId}/search`, {
      token: null,
      body: { query: "docs" },
    });
    expect(search.status).not.toBe(429);
    w.from("192.0.2.1");
    expect((await w.lookup(siteId)).status).toBe(200);
  });

  it("hand out one token for identical lookups from one address while it has most of its life left", async () => {
    const w = await setup();
    const siteId = await w.site("Docs");
    const first = (await w.lookup(siteId)).body.apiToken as string;
    for (let index = 0; index < 20; index++) expect((await w.lookup(siteId)).body.apiToken).toBe(first);
    // Another address gets its own, which counts against it.
    w.from("192.0.2.1");
    expect((await w.lookup(siteId)).body.apiToken).not.toBe(first);
    w.from("203.0.113.7");
    // Past half its life a lookup gets a fresh token, which lives a whole lifetime.
    w.t.clock.advance(SPACE_READER_LIFETIME_MS / 2);
    const second = (await w.lookup(siteId)).body.apiToken as string;
    expect(second).not.toBe(first);
    expect((await w.lookup(siteId)).body.apiToken).toBe(second);
    // Site tokens are JWTs: nothing is stored per token.
    expect(await w.readerRows()).toEqual([]);
  });

  it("run in read transactions: the first lookup of a database writes the signing key, no lookup writes anything else", async () => {
    const inner = memoryStorage();
    let writes = 0;
    // The memory adapter, counting the write transactions docsbase opens on it.
    const storage = new Proxy(inner, {
      get(target, property) {
        if (property === "write") {
          return (body: Parameters<typeof inner.write>[0]) => {
            writes += 1;
            return target.write(body);
          };
        }
        const value: unknown = Reflect.get(target, property);
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const t = await createTestDocsbase({ storage, now: "2026-01-01T00:00:00.000Z" });
    const owner = await t.createUser("Owner");
    const organizationId = (await t.as(owner).createOrganization({ body: { title: "Acme" } })).id;
    const spaceId = (await t.as(owner).createSpace({ organizationId, body: { title: "Docs" } })).id;
    const siteId = (
      await t.as(owner).createSite({ organizationId, body: { title: "Docs", spaces: [spaceId] } })
    ).id;
    await t.as(owner).publishSite({ organizationId, siteId });
    const url = `http://docsbase.test/sites/${siteId}/`;
    const lookUp = async () => {
      const [viaGet, viaPost] = await Promise.all([
        t.request("GET", `/urls/published?url=${encodeURIComponent(url)}`, { token: null }),
        t.request("POST", "/urls/published", { token: null, body: { url: `${url}llms.txt` } }),
      ]);
      expect([viaGet.status, viaPost.status]).toEqual([200, 200]);
      return [viaGet.body.apiToken as string, viaPost.body.apiToken as string];
    };

    const before = writes;
    const first = await lookUp();
    // The key, once: the two concurrent first lookups each open a write that finds or makes it.
    expect(writes - before).toBeGreaterThanOrEqual(1);
    expect(writes - before).toBeLessThanOrEqual(2);
    const afterKey = writes;
    const later = [...(await lookUp()), ...(await lookUp())];
    expect(writes).toBe(afterKey);
    // The tokens signed before and after the key was stored read the space alike.
    for (const token of [...first, ...later]) {
      expect((await t.as(token).getCurrentRevision({ spaceId })).pages).toEqual([]);
    }
  });

  it("are accepted by every instance sharing the database, which all sign with one key", async () => {
    const directory = mkdtempSync(join(tmpdir(), "docsbase-site-tokens-"));
    const filename = join(directory, "shared.db");
    const open = () =>
      createTestDocsbase({ storage: sqliteStorage({ filename }), now: "2026-01-01T00:00:00.000Z" });
    // Both start together: the first lookups of each race to create the key.
    const [a, b] = await Promise.all([open(), open()]);
    try {
      const owner = await a.createUser("Owner");
      const onA = a.as(owner);
      const organizationId = (await onA.createOrganization({ body: { title: "Acme" } })).id;
      const spaceId = (await onA.createSpace({ organizationId, body: { title: "Docs" } })).id;
      const siteId = (await onA.createSite({ organizationId, body: { title: "Docs", spaces: [spaceId] } }))
        .id;
      await onA.publishSite({ organizationId, siteId });
      const url = `http://docsbase.test/sites/${siteId}/`;
      const lookUp = (on: TestDocsbase) =>
        on.request("GET", `/urls/published?url=${encodeURIComponent(url)}`, { token: null });
      const [fromA, fromB] = await Promise.all([lookUp(a), lookUp(b)]);
      expect([fromA.status, fromB.status]).toEqual([200, 200]);
      for (const [token, on] of [
        [fromA.body.apiToken as string, b],
        [fromB.body.apiToken as string, a],
      ] as const) {
        expect((await on.as(token).getCurrentRevision({ spaceId })).pages).toEqual([]);
      }
    } finally {
      await Promise.all([a.docsbase.close(), b.docsbase.close()]);
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
