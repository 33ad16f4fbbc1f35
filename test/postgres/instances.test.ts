import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresStorage } from "../../src/adapters/postgres/index.js";
import { DEFAULT_TOKEN_CACHE } from "../../src/core/users/token-cache.js";
import { createTestDocsbase, type TestClient, type TestDocsbase } from "../../src/testing/double.js";
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
    const [onA, onB] = [a.as(owner), b.as(owner)];
    const org = (await onA.createOrganization({ body: { title: "Shared" } })).id;
    const spaceId = (await onA.createSpace({ organizationId: org, body: { title: "Manual" } })).id;
    const pageId = (
      await onA.createPage({
        spaceId,
        body: { title: "Guide", markdown: "The zebra lives here. See [the reference](reference.md)." },
      })
    ).id;
    await onA.createPage({ spaceId, body: { title: "Reference", markdown: "Facts." } });

    // Instance A reads everything once, filling its caches for the current revision.
    const search = async (on: TestClient, query: string) =>
      (await on.searchSpaceContent({ spaceId, query })).count;
    expect(await search(onA, "zebra")).toBe(1);
    const links = async (on: TestClient) => (await on.listSpaceLinks({ spaceId })).items.map((l) => l.status);
    expect(await links(onA)).toEqual(["ok"]);
    const markdown = async (on: TestClient) =>
      (await on.getPageById({ spaceId, pageId, format: "markdown" })).markdown;
    expect(await markdown(onA)).toContain("zebra");

    // Instance B edits the page; A must answer from the new revision, not from what it cached.
    await onB.updatePage({
      spaceId,
      pageId,
      body: { markdown: "The okapi lives here. See [nothing](missing.md)." },
    });
    expect(await search(onA, "okapi")).toBe(1);
    expect(await search(onA, "zebra")).toBe(0);
    expect(await links(onA)).toEqual(["broken"]);
    expect(await markdown(onA)).toContain("okapi");

    // Comments: A renders one as a document, B edits it, A renders the new text.
    const commentId = (
      await onA.postCommentInSpace({ spaceId, body: { body: { markdown: "First thought" } } })
    ).id;
    const rendered = async (on: TestClient) =>
      JSON.stringify((await on.getCommentInSpace({ spaceId, commentId, format: "document" })).body);
    expect(await rendered(onA)).toContain("First thought");
    await onB.updateCommentInSpace({ spaceId, commentId, body: { body: { markdown: "Second thought" } } });
    expect(await rendered(onA)).toContain("Second thought");
  });

  it("refuses on one instance a token revoked on the other, within the token cache's lifetime", async () => {
    const user = await a.createUser("Revoked", "revoked@instances.test");
    const whoami = (instance: TestDocsbase) => instance.request("GET", "/user", { token: user.token });
    expect((await whoami(a)).status).toBe(200);
    // The first use was recorded (a write on A, which let A's cache drop the token): now A caches it.
    expect((await whoami(a)).status).toBe(200);
    const tokens = await b.as(user).listUserTokens({ userId: user.id });
    for (const token of tokens.items) {
      await b.as(b.operatorToken).deleteUserToken({ userId: user.id, tokenId: token.id });
    }
    // A may still have it cached (for up to the cache's lifetime: how long that is in real time
    // depends on the machine, so it is not asserted); once that lifetime has passed, A refuses it.
    aheadMs += DEFAULT_TOKEN_CACHE.ttlMs;
    expect((await whoami(a)).status).toBe(401);
    // B, where it was revoked, refused it at once.
    expect((await whoami(b)).status).toBe(401);
  });
});
