import { describe, expect, it } from "vitest";
import { memoryStorage } from "../../adapters/memory/index.js";
import { createTestDocsbase } from "../../testing/double.js";
import type { Storage } from "../storage/port.js";
import { watchWrites } from "../storage/watch.js";
import { tokensTable, usersTable, type TokenRecord } from "./tables.js";
import { DEFAULT_TOKEN_CACHE, TokenCache } from "./token-cache.js";
import { hashToken } from "./tokens.js";

const START = Date.parse("2025-01-01T00:00:00.000Z");

/** Memory storage that counts its transactions. */
function countingStorage() {
  const inner = memoryStorage();
  const counts = { read: 0, write: 0 };
  const storage: Storage = {
    init: (schema) => inner.init(schema),
    read: (fn) => (counts.read++, inner.read(fn)),
    write: (fn) => (counts.write++, inner.write(fn)),
    close: () => inner.close(),
  };
  return { storage, inner, counts };
}

/** A docsbase on a clock that moves only when told, over a storage that counts transactions. */
async function setup(options: { ttlMs?: number } = {}) {
  let now = START;
  const { storage, inner, counts } = countingStorage();
  const test = await createTestDocsbase({
    storage,
    clock: () => new Date(now),
    ...(options.ttlMs !== undefined ? { tokenCache: { ttlMs: options.ttlMs } } : {}),
  });
  const ada = await test.createUser("Ada", "ada@example.test");
  /** `GET /user` over HTTP: the request path whose authentication the cache serves. */
  const whoami = (token: string) => test.request("GET", "/user", { token });
  /** Transactions one request took. */
  const transactionsOf = async (request: () => Promise<unknown>) => {
    const before = counts.read + counts.write;
    await request();
    return counts.read + counts.write - before;
  };
  return { test, ada, inner, whoami, transactionsOf, advance: (ms: number) => (now += ms) };
}

const record = (hash: string): TokenRecord => ({
  hash,
  id: hash,
  user: "u",
  createdAt: "2025-01-01T00:00:00Z",
});

describe("token cache", () => {
  it("never holds more tokens than its bound, however many it is given", () => {
    const cache = new TokenCache({ maxEntries: 100 });
    for (let i = 0; i < 5_000; i++) {
      const hash = `h${i}`;
      cache.fill(
        hash,
        { caller: { userId: `u${i % 7}`, operator: false }, record: record(hash) },
        cache.begin(),
        0,
      );
      expect(cache.size).toBeLessThanOrEqual(100);
    }
    expect(cache.size).toBe(100);
    // The newest are kept, the oldest went first.
    expect(cache.get("h4999", 1)).toBeDefined();
    expect(cache.get("h0", 1)).toBeUndefined();
  });

  it("bounds the default cache too", () => {
    const cache = new TokenCache();
    for (let i = 0; i < DEFAULT_TOKEN_CACHE.maxEntries + 500; i++) {
      cache.fill(
        `h${i}`,
        { caller: { userId: "u", operator: false }, record: record(`h${i}`) },
        cache.begin(),
        0,
      );
    }
    expect(cache.size).toBe(DEFAULT_TOKEN_CACHE.maxEntries);
  });

  it("knows the hash of a token exactly as long as it holds the token's entry", () => {
    const cache = new TokenCache({ ttlMs: 1_000, maxEntries: 2 });
    const fill = (token: string) =>
      cache.fill(
        hashToken(token),
        { caller: { userId: `user-of-${token}`, operator: false }, record: record(hashToken(token)) },
        cache.begin(),
        0,
        token,
      );
    fill("t1");
    expect(cache.hashOf("t1")).toBe(hashToken("t1"));
    // Expired: the entry and the token's hash go together.
    expect(cache.get(hashToken("t1"), 1_000)).toBeUndefined();
    expect(cache.hashOf("t1")).toBeUndefined();
    // Forgotten, by hash or by a write to its user; evicted as the oldest.
    fill("t2");
    cache.forget(hashToken("t2"));
    expect(cache.hashOf("t2")).toBeUndefined();
    fill("t3");
    cache.forgetWritten(new Map([[usersTable.name, new Set(["user-of-t3"])]]));
    expect(cache.hashOf("t3")).toBeUndefined();
    fill("t4");
    fill("t5");
    fill("t6");
    expect([cache.hashOf("t4"), cache.hashOf("t5"), cache.hashOf("t6")]).toEqual([
      undefined,
      hashToken("t5"),
      hashToken("t6"),
    ]);
  });

  it("forgets an entry once its lifetime has passed", () => {
    const cache = new TokenCache({ ttlMs: 1_000 });
    cache.fill("h", { caller: { userId: "u", operator: false }, record: record("h") }, cache.begin(), 0);
    expect(cache.get("h", 999)).toBeDefined();
    expect(cache.get("h", 1_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("refuses a fill whose read began before a write to tokens or users committed", async () => {
    const cache = new TokenCache();
    const storage = watchWrites(memoryStorage(), [tokensTable, usersTable], (written) =>
      cache.forgetWritten(written),
    );
    await storage.init({ tables: [tokensTable, usersTable] });
    const mark = cache.begin();
    await storage.write((tx) => tx.delete(tokensTable, "other"));
    cache.fill("h", { caller: { userId: "u", operator: false }, record: record("h") }, mark, 0);
    expect(cache.get("h", 1)).toBeUndefined();
  });

  it("drops every token of a user whose record is written", async () => {
    const cache = new TokenCache();
    const storage = watchWrites(memoryStorage(), [tokensTable, usersTable], (written) =>
      cache.forgetWritten(written),
    );
    await storage.init({ tables: [tokensTable, usersTable] });
    for (const [hash, userId] of [
      ["a1", "ada"],
      ["a2", "ada"],
      ["b1", "bob"],
    ] as const) {
      cache.fill(hash, { caller: { userId, operator: false }, record: record(hash) }, cache.begin(), 0);
    }
    await storage.write((tx) =>
      tx.put(usersTable, {
        id: "ada",
        displayName: "Ada",
        email: "ada@example.test",
        emailKey: "ada@example.test",
        kind: "user",
        createdAt: "2025-01-01T00:00:00Z",
      }),
    );
    expect([cache.get("a1", 1), cache.get("a2", 1)]).toEqual([undefined, undefined]);
    expect(cache.get("b1", 1)).toBeDefined();
  });
});

describe("token cache in a docsbase", () => {
  it("serves a known token without a transaction of its own: one per request", async () => {
    const { ada, whoami, transactionsOf } = await setup();
    // The first request reads the token, then records its first use (a write); later ones neither.
    expect((await whoami(ada.token)).status).toBe(200);
    expect((await whoami(ada.token)).status).toBe(200);
    expect(await transactionsOf(() => whoami(ada.token))).toBe(1);
  });

  it("reads every token when turned off", async () => {
    let now = START;
    const { storage, counts } = countingStorage();
    const test = await createTestDocsbase({ storage, clock: () => new Date(now), tokenCache: false });
    const ada = await test.createUser("Ada", "ada@example.test");
    await test.request("GET", "/user", { token: ada.token });
    now += 1;
    const before = counts.read + counts.write;
    await test.request("GET", "/user", { token: ada.token });
    expect(counts.read + counts.write - before).toBe(2);
  });

  it("refuses a token revoked on this instance at once", async () => {
    const { test, ada, whoami } = await setup();
    expect((await whoami(ada.token)).status).toBe(200);
    expect((await whoami(ada.token)).status).toBe(200);
    const tokens = (await test.as(ada).listUserTokens({ userId: ada.id })).items;
    expect(tokens).toHaveLength(1);
    await test.as(test.operatorToken).deleteUserToken({ userId: ada.id, tokenId: tokens[0]!.id });
    expect((await whoami(ada.token)).status).toBe(401);
  });

  it("applies a role change at once", async () => {
    const { test, ada } = await setup();
    const reader = await test.createUser("Reader", "reader@example.test");
    const organizationId = (await test.as(ada).createOrganization({ body: { title: "Acme" } })).id;
    await test.as(ada).inviteUsersToOrganization({
      organizationId,
      body: { emails: [{ email: "reader@example.test", role: "admin" }] },
    });
    const [invite] = (await test.as(reader).listUserInvites()).items;
    await test.as(reader).acceptUserInvite({ invitationId: invite!.id });
    const rename = (title: string) =>
      test.as(reader).updateOrganizationById({ organizationId, body: { title } });
    expect((await rename("Renamed")).title).toBe("Renamed");
    expect((await rename("Renamed again")).title).toBe("Renamed again");
    await test
      .as(ada)
      .updateMemberInOrganizationById({ organizationId, userId: reader.id, body: { role: "read" } });
    await expect(rename("Refused")).rejects.toMatchObject({ code: "forbidden" });
  });

  it("refuses a cached token once it expires", async () => {
    const { test, ada, whoami, advance } = await setup();
    const { token } = await test.as(ada).createUserToken({ userId: ada.id, body: { expiresIn: 3600 } });
    expect((await whoami(token)).status).toBe(200);
    advance(3_600_000);
    expect((await whoami(token)).status).toBe(401);
  });

  it("sees a revocation it did not write (another instance's) once the cache lifetime has passed", async () => {
    const { ada, inner, whoami, advance } = await setup({ ttlMs: 2_000 });
    expect((await whoami(ada.token)).status).toBe(200);
    expect((await whoami(ada.token)).status).toBe(200);
    // Straight to the storage underneath, as an instance sharing the database would write.
    await inner.write(async (tx) => void (await tx.delete(tokensTable, hashToken(ada.token))));
    advance(1_999);
    expect((await whoami(ada.token)).status).toBe(200);
    advance(1);
    expect((await whoami(ada.token)).status).toBe(401);
  });
});
