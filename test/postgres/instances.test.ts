import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresStorage } from "../../src/adapters/postgres/index.js";
import { DEFAULT_TOKEN_CACHE } from "../../src/core/users/token-cache.js";
import { createTestDocsbase, type TestDocsbase } from "../../src/testing/double.js";
import { freshDatabase } from "../support/postgres.js";

/**
 * Two docsbase instances in one process on one database, each with its own derived-value cache:
 * what one instance has cached never hides what the other writes (materialized content, search
 * indexes, link graphs, rendered comment documents), and a token revoked on one is refused by the
 * other once the other's token cache has let it go (its `ttlMs`, docs/scaling.md). The
 * multi-process test (multi-instance.test.ts) covers concurrency; this one covers what each
 * instance keeps in memory.
 */
describe("two instances on one PostgreSQL database", () => {
  let a: TestDocsbase;
  let b: TestDocsbase;
  // Instance A's clock runs ahead when the test says, to move past its token cache's lifetime.
  let aheadMs = 0;
  beforeAll(async () => {
    const url = await freshDatabase("instances");
    [a, b] = await Promise.all([
      createTestDocsbase({
        storage: postgresStorage({ connectionString: url, poolSize: 3 }),
        clock: () => new Date(Date.now() + aheadMs),
      }),
      createTestDocsbase({ storage: postgresStorage({ connectionString: url, poolSize: 3 }) }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a.docsbase.close(), b.docsbase.close()]);
  });

  it("sees the other instance's edits through its caches", async () => {
    const owner = await a.createUser("Owner", "owner@instances.test");
    const on = (instance: TestDocsbase) => (method: string, path: string, body?: unknown) =>
      instance.request(method, path, { token: owner.token, ...(body !== undefined ? { body } : {}) });
    const [onA, onB] = [on(a), on(b)];
    const org = (await onA("POST", "/orgs", { title: "Shared" })).body.id as string;
    const space = (await onA("POST", `/orgs/${org}/spaces`, { title: "Manual" })).body.id as string;
    const page = (
      await onA("POST", `/spaces/${space}/content/pages`, {
        title: "Guide",
        markdown: "The zebra lives here. See [the reference](reference.md).",
      })
    ).body.id as string;
    await onA("POST", `/spaces/${space}/content/pages`, { title: "Reference", markdown: "Facts." });

    // Instance A reads everything once, filling its caches for the current revision.
    const search = async (on: typeof onA, query: string) =>
      (await on("GET", `/spaces/${space}/search?query=${query}`)).body.count as number;
    expect(await search(onA, "zebra")).toBe(1);
    const links = async (on: typeof onA) =>
      ((await on("GET", `/spaces/${space}/links`)).body.items as { status: string }[]).map((l) => l.status);
    expect(await links(onA)).toEqual(["ok"]);
    const markdown = async (on: typeof onA) =>
      (await on("GET", `/spaces/${space}/content/page/${page}?format=markdown`)).body.markdown as string;
    expect(await markdown(onA)).toContain("zebra");

    // Instance B edits the page; A must answer from the new revision, not from what it cached.
    const edited = await onB("PATCH", `/spaces/${space}/content/page/${page}`, {
      markdown: "The okapi lives here. See [nothing](missing.md).",
    });
    expect(edited.status).toBe(200);
    expect(await search(onA, "okapi")).toBe(1);
    expect(await search(onA, "zebra")).toBe(0);
    expect(await links(onA)).toEqual(["broken"]);
    expect(await markdown(onA)).toContain("okapi");

    // Comments: A renders one as a document, B edits it, A renders the new text.
    const comment = (await onA("POST", `/spaces/${space}/comments`, { body: { markdown: "First thought" } }))
      .body.id as string;
    const rendered = async (on: typeof onA) =>
      JSON.stringify((await on("GET", `/spaces/${space}/comments/${comment}?format=document`)).body.body);
    expect(await rendered(onA)).toContain("First thought");
    expect(
      (await onB("PUT", `/spaces/${space}/comments/${comment}`, { body: { markdown: "Second thought" } }))
        .status,
    ).toBe(200);
    expect(await rendered(onA)).toContain("Second thought");
  });

  it("refuses on one instance a token revoked on the other, within the token cache's lifetime", async () => {
    const user = await a.createUser("Revoked", "revoked@instances.test");
    const whoami = (instance: TestDocsbase) => instance.request("GET", "/user", { token: user.token });
    expect((await whoami(a)).status).toBe(200);
    // The first use was recorded (a write on A, which let A's cache drop the token): now A caches it.
    expect((await whoami(a)).status).toBe(200);
    const tokens = await b.request("GET", `/users/${user.id}/tokens`, { token: user.token });
    expect(tokens.status).toBe(200);
    for (const token of tokens.body.items as { id: string }[]) {
      expect(
        (await b.request("DELETE", `/users/${user.id}/tokens/${token.id}`, { token: b.operatorToken }))
          .status,
      ).toBeLessThan(300);
    }
    // A may still have it cached (for up to the cache's lifetime: how long that is in real time
    // depends on the machine, so it is not asserted); once that lifetime has passed, A refuses it.
    aheadMs += DEFAULT_TOKEN_CACHE.ttlMs;
    expect((await whoami(a)).status).toBe(401);
    // B, where it was revoked, refused it at once.
    expect((await whoami(b)).status).toBe(401);
  });
});
