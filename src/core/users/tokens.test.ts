import { describe, expect, it } from "vitest";
import { memoryStorage } from "../../adapters/memory/index.js";
import { createTestDocsbase, type TestUser } from "../../testing/double.js";
import type { ClientInput } from "../client.js";
import type { Operations } from "../operations.js";
import type { Storage } from "../storage/port.js";
import { tokensTable } from "./tables.js";
import { hashToken, LAST_USED_GRANULARITY_MS } from "./tokens.js";
import { MAX_TOKENS_PER_USER } from "./token-operations.js";

const START = Date.parse("2025-01-01T00:00:00.000Z");

/** A test docsbase on a clock that moves only when told, and two users with a token each. */
async function setup(storage: Storage = memoryStorage()) {
  let now = START;
  const test = await createTestDocsbase({ storage, clock: () => new Date(now) });
  const ada = await test.createUser("Ada", "ada@example.test");
  const bob = await test.createUser("Bob", "bob@example.test");
  /** Over HTTP: `GET /user` (is the token accepted?) and a revocation's 205 or 204. */
  const http = (token: string) => ({
    whoami: () => test.request("GET", "/user", { token }),
    revoke: (userId: string, tokenId: string) =>
      test.request("DELETE", `/users/${userId}/tokens/${tokenId}`, { token }),
  });
  const tokens = async (user: TestUser, userId: string) =>
    (await test.as(user).listUserTokens({ userId })).items;
  const advance = (ms: number) => (now += ms);
  return { test, ada, bob, http, tokens, advance, storage };
}

describe("tokens: listing and revocation", () => {
  it("lets a user list their tokens, never the secret, and revoke one, which fails at once", async () => {
    const { test, ada, http } = await setup();
    const created = await test.as(ada).createUserToken({ userId: ada.id, body: { label: "CI" } });
    expect(created).toMatchObject({ object: "api-token", label: "CI", createdAt: expect.any(String) });
    expect(created.token).toMatch(/^dbt_/);

    const list = await test.as(ada).listUserTokens({ userId: ada.id });
    expect(list.count).toBe(2);
    expect(list.items.map((item) => item.id)).toContain(created.id);
    for (const item of list.items) {
      const shown = ["object", "id", "createdAt", "expiresAt", "lastUsedAt", "label"];
      expect(shown).toEqual(expect.arrayContaining(Object.keys(item)));
      expect(JSON.stringify(item)).not.toContain(created.token);
      expect(JSON.stringify(item)).not.toContain(hashToken(created.token));
    }

    const second = created.token;
    expect((await http(second).whoami()).status).toBe(200);
    expect((await http(ada.token).revoke(ada.id, created.id)).status).toBe(205);
    // No cache keeps it alive: the very next request, over HTTP and in process, is refused.
    const refused = await http(second).whoami();
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: { code: 401, message: expect.any(String) } });
    expect((await http(ada.token).revoke(ada.id, created.id)).status).toBe(204);
    expect((await test.as(ada).listUserTokens({ userId: ada.id })).count).toBe(1);
    expect((await http(ada.token).whoami()).status).toBe(200);
  });

  it("fails an in-process client at once after revocation", async () => {
    const { test, ada } = await setup();
    const client = test.docsbase.as({ token: ada.token });
    const [mine] = (await client.listUserTokens({ userId: ada.id })).items;
    await client.getAuthenticatedUser();
    await client.deleteUserToken({ userId: ada.id, tokenId: mine!.id });
    await expect(client.getAuthenticatedUser()).rejects.toMatchObject({ code: "unauthorized" });
  });

  it("lets a user revoke the token the request is made with", async () => {
    const { ada, http, tokens } = await setup();
    const [mine] = await tokens(ada, ada.id);
    expect((await http(ada.token).revoke(ada.id, mine!.id)).status).toBe(205);
    expect((await http(ada.token).whoami()).status).toBe(401);
  });

  it("hides a user's tokens from everyone but them and the operator", async () => {
    const { test, ada, bob, http, tokens } = await setup();
    const [bobs] = await tokens(bob, bob.id);
    const asAda = test.as(ada);
    for (const call of [
      () => asAda.listUserTokens({ userId: bob.id }),
      () => asAda.deleteUserToken({ userId: bob.id, tokenId: bobs!.id }),
      () => asAda.createUserToken({ userId: bob.id }),
      // A user who does not exist answers the same.
      () => asAda.listUserTokens({ userId: "nobody" }),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: "not_found" });
    }
    // Another user's token id under one's own path names nothing there.
    expect((await http(ada.token).revoke(ada.id, bobs!.id)).status).toBe(204);
    expect((await http(bob.token).whoami()).status).toBe(200);

    await expect(tokens(test.operatorToken, "nobody")).rejects.toMatchObject({ code: "not_found" });
    expect(await tokens(test.operatorToken, bob.id)).toEqual([bobs]);
    expect((await http(test.operatorToken).revoke(bob.id, bobs!.id)).status).toBe(205);
    expect((await http(bob.token).whoami()).status).toBe(401);
  });

  it("pages the list like every other list, oldest first", async () => {
    const { test, ada, tokens, advance } = await setup();
    const ids = [(await tokens(ada, ada.id))[0]!.id];
    for (let i = 0; i < 3; i++) {
      advance(1000);
      ids.push((await test.as(ada).createUserToken({ userId: ada.id })).id);
    }
    const first = await test.as(ada).listUserTokens({ userId: ada.id, limit: 2 });
    expect(first.count).toBe(4);
    const rest = await test.as(ada).listUserTokens({ userId: ada.id, limit: 2, page: first.next!.page });
    expect(rest.next).toBeUndefined();
    expect([...first.items, ...rest.items].map((item) => item.id)).toEqual(ids);
  });

  it(`holds at most ${MAX_TOKENS_PER_USER} tokens per user`, async () => {
    const { test, ada } = await setup();
    const create = () => test.as(ada).createUserToken({ userId: ada.id });
    for (let i = 1; i < MAX_TOKENS_PER_USER; i++) await create();
    await expect(create()).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining(`${MAX_TOKENS_PER_USER} tokens`),
    });
    expect((await test.as(ada).listUserTokens({ userId: ada.id, limit: 0 })).count).toBe(MAX_TOKENS_PER_USER);
  });
});

describe("tokens: expiry", () => {
  it("stops authenticating an expiring token at its expiry, like an unknown one", async () => {
    const { test, ada, http, tokens, advance } = await setup();
    const created = await test.as(ada).createUserToken({ userId: ada.id, body: { expiresIn: 3600 } });
    expect(created.expiresAt).toBe(new Date(START + 3600_000).toISOString());
    advance(3600_000 - 1);
    expect((await http(created.token).whoami()).status).toBe(200);
    advance(1);
    const expired = await http(created.token).whoami();
    const unknown = await http("dbt_unknown_token").whoami();
    expect(expired).toMatchObject({ status: 401, body: unknown.body });
    // Still listed, with its expiry, until revoked.
    const listed = await tokens(ada, ada.id);
    expect(listed.find((item) => item.id === created.id)?.expiresAt).toBe(created.expiresAt);
  });

  it("takes an absolute expiry with a time zone", async () => {
    const { test, ada, http, advance } = await setup();
    const created = await test
      .as(ada)
      .createUserToken({ userId: ada.id, body: { expiresAt: "2025-01-02T02:00:00+02:00" } });
    expect(created.expiresAt).toBe("2025-01-02T00:00:00.000Z");
    advance(86_400_000);
    expect((await http(created.token).whoami()).status).toBe(401);
  });

  it("refuses lifetimes out of bounds, naming the field", async () => {
    const { test, ada, tokens } = await setup();
    type Body = NonNullable<ClientInput<Operations["createUserToken"]>["body"]>;
    const post = (body: Body) => test.as(ada).createUserToken({ userId: ada.id, body });
    const cases: [Body, string][] = [
      [{ expiresIn: 59 }, "body.expiresIn"],
      [{ expiresIn: 365 * 86_400 + 1 }, "body.expiresIn"],
      [{ expiresIn: 60.5 }, "body.expiresIn"],
      [{ expiresAt: "2024-12-31T00:00:00Z" }, "body.expiresAt"],
      [{ expiresAt: "2026-01-02T00:00:00Z" }, "body.expiresAt"],
      [{ expiresAt: "tomorrow" }, "body.expiresAt"],
      [{ expiresIn: 3600, expiresAt: "2025-01-02T00:00:00Z" }, "body.expiresAt"],
      [{ label: "x".repeat(101) }, "body.label"],
      [{ label: "line\nbreak" }, "body.label"],
    ];
    for (const [body, field] of cases) {
      await expect(post(body), JSON.stringify(body)).rejects.toMatchObject({
        code: "bad_request",
        message: expect.stringContaining(field),
      });
    }
    expect(await tokens(ada, ada.id)).toHaveLength(1);
    await post({ expiresIn: 365 * 86_400 });
  });
});

describe("tokens: lastUsedAt", () => {
  const lastUsed = async (s: Awaited<ReturnType<typeof setup>>, token: string) => {
    const record = await s.storage.read(async (tx) => tx.get(tokensTable, hashToken(token)));
    return record?.lastUsedAt;
  };

  it("records a use, at most once a minute per token", async () => {
    const s = await setup();
    const { test, ada, http, tokens, advance } = s;
    const created = await test.as(ada).createUserToken({ userId: ada.id });
    const token = created.token;
    expect(await lastUsed(s, token)).toBeUndefined();
    expect(created).not.toHaveProperty("lastUsedAt");

    advance(5000);
    const firstUse = new Date(START + 5000).toISOString();
    await http(token).whoami();
    expect(await lastUsed(s, token)).toBe(firstUse);
    advance(LAST_USED_GRANULARITY_MS - 1);
    await http(token).whoami();
    expect(await lastUsed(s, token)).toBe(firstUse);
    advance(1);
    await http(token).whoami();
    expect(await lastUsed(s, token)).toBe(new Date(START + 5000 + LAST_USED_GRANULARITY_MS).toISOString());

    const listed = await tokens(ada, ada.id);
    expect(listed.find((item) => item.id === created.id)?.lastUsedAt).toBe(
      new Date(START + 5000 + LAST_USED_GRANULARITY_MS).toISOString(),
    );
  });

  it("writes nothing for the uses within the minute", async () => {
    let writes = 0;
    const inner = memoryStorage();
    const counting: Storage = {
      init: (schema) => inner.init(schema),
      read: (fn) => inner.read(fn),
      write: (fn) => (writes++, inner.write(fn)),
      close: () => inner.close(),
    };
    const { ada, http } = await setup(counting);
    await http(ada.token).whoami();
    const before = writes;
    for (let i = 0; i < 10; i++) expect((await http(ada.token).whoami()).status).toBe(200);
    expect(writes).toBe(before);
  });

  it("does not fail the request when recording the use fails", async () => {
    let failWrites = false;
    const inner = memoryStorage();
    const flaky: Storage = {
      init: (schema) => inner.init(schema),
      read: (fn) => inner.read(fn),
      write: (fn) => (failWrites ? Promise.reject(new Error("disk full")) : inner.write(fn)),
      close: () => inner.close(),
    };
    const s = await setup(flaky);
    failWrites = true;
    expect((await s.http(s.ada.token).whoami()).status).toBe(200);
    failWrites = false;
    expect(await lastUsed(s, s.ada.token)).toBeUndefined();
  });

  it("never brings back a token revoked between its lookup and the recording of its use", async () => {
    let beforeNextWrite: (() => Promise<void>) | undefined;
    const inner = memoryStorage();
    const racing: Storage = {
      init: (schema) => inner.init(schema),
      read: (fn) => inner.read(fn),
      async write(fn) {
        const hook = beforeNextWrite;
        beforeNextWrite = undefined;
        await hook?.();
        return inner.write(fn);
      },
      close: () => inner.close(),
    };
    const s = await setup(racing);
    const hash = hashToken(s.bob.token);
    // Bob's token has never been used, so this request records its use; the token is revoked
    // after the lookup found it and before that write.
    beforeNextWrite = () => inner.write(async (tx) => void (await tx.delete(tokensTable, hash)));
    expect((await s.http(s.bob.token).whoami()).status).toBe(200);
    expect(await inner.read((tx) => tx.get(tokensTable, hash))).toBeUndefined();
    expect((await s.http(s.bob.token).whoami()).status).toBe(401);
  });
});
