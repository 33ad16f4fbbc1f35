import { describe, expect, it } from "vitest";
import { memoryStorage } from "../../adapters/memory/index.js";
import { createTestDocsbase } from "../../testing/double.js";
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
  const as = (token: string) => ({
    get: (path: string) => test.request("GET", path, { token }),
    post: (path: string, body?: unknown) =>
      test.request("POST", path, { token, ...(body !== undefined ? { body } : {}) }),
    delete: (path: string) => test.request("DELETE", path, { token }),
  });
  const advance = (ms: number) => (now += ms);
  return { test, ada, bob, as, advance, storage };
}

describe("tokens: listing and revocation", () => {
  it("lets a user list their tokens, never the secret, and revoke one, which fails at once", async () => {
    const { ada, as } = await setup();
    const created = await as(ada.token).post(`/users/${ada.id}/tokens`, { label: "CI" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ object: "api-token", label: "CI", createdAt: expect.any(String) });
    expect(created.body.token).toMatch(/^dbt_/);

    const list = await as(ada.token).get(`/users/${ada.id}/tokens`);
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(2);
    expect(list.body.items.map((item: { id: string }) => item.id)).toContain(created.body.id);
    for (const item of list.body.items) {
      const shown = ["object", "id", "createdAt", "expiresAt", "lastUsedAt", "label"];
      expect(shown).toEqual(expect.arrayContaining(Object.keys(item)));
      expect(JSON.stringify(item)).not.toContain(created.body.token);
      expect(JSON.stringify(item)).not.toContain(hashToken(created.body.token));
    }

    const second: string = created.body.token;
    expect((await as(second).get("/user")).status).toBe(200);
    expect((await as(ada.token).delete(`/users/${ada.id}/tokens/${created.body.id}`)).status).toBe(205);
    // No cache keeps it alive: the very next request, over HTTP and in process, is refused.
    const refused = await as(second).get("/user");
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: { code: 401, message: expect.any(String) } });
    expect((await as(ada.token).delete(`/users/${ada.id}/tokens/${created.body.id}`)).status).toBe(204);
    expect((await as(ada.token).get(`/users/${ada.id}/tokens`)).body.count).toBe(1);
    expect((await as(ada.token).get("/user")).status).toBe(200);
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
    const { ada, as } = await setup();
    const [mine] = (await as(ada.token).get(`/users/${ada.id}/tokens`)).body.items;
    expect((await as(ada.token).delete(`/users/${ada.id}/tokens/${mine.id}`)).status).toBe(205);
    expect((await as(ada.token).get("/user")).status).toBe(401);
  });

  it("hides a user's tokens from everyone but them and the operator", async () => {
    const { test, ada, bob, as } = await setup();
    const [bobs] = (await as(bob.token).get(`/users/${bob.id}/tokens`)).body.items;
    for (const answer of [
      await as(ada.token).get(`/users/${bob.id}/tokens`),
      await as(ada.token).delete(`/users/${bob.id}/tokens/${bobs.id}`),
      await as(ada.token).post(`/users/${bob.id}/tokens`),
      // A user who does not exist answers the same.
      await as(ada.token).get(`/users/nobody/tokens`),
    ]) {
      expect(answer.status).toBe(404);
    }
    // Another user's token id under one's own path names nothing there.
    expect((await as(ada.token).delete(`/users/${ada.id}/tokens/${bobs.id}`)).status).toBe(204);
    expect((await as(bob.token).get("/user")).status).toBe(200);

    const operator = as(test.operatorToken);
    expect((await operator.get(`/users/nobody/tokens`)).status).toBe(404);
    const listed = await operator.get(`/users/${bob.id}/tokens`);
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([bobs]);
    expect((await operator.delete(`/users/${bob.id}/tokens/${bobs.id}`)).status).toBe(205);
    expect((await as(bob.token).get("/user")).status).toBe(401);
  });

  it("pages the list like every other list, oldest first", async () => {
    const { ada, as, advance } = await setup();
    const ids = [(await as(ada.token).get(`/users/${ada.id}/tokens`)).body.items[0].id];
    for (let i = 0; i < 3; i++) {
      advance(1000);
      ids.push((await as(ada.token).post(`/users/${ada.id}/tokens`)).body.id);
    }
    const first = await as(ada.token).get(`/users/${ada.id}/tokens?limit=2`);
    expect(first.body.count).toBe(4);
    const rest = await as(ada.token).get(`/users/${ada.id}/tokens?limit=2&page=${first.body.next.page}`);
    expect(rest.body.next).toBeUndefined();
    expect([...first.body.items, ...rest.body.items].map((item: { id: string }) => item.id)).toEqual(ids);
  });

  it(`holds at most ${MAX_TOKENS_PER_USER} tokens per user`, async () => {
    const { ada, as } = await setup();
    for (let i = 1; i < MAX_TOKENS_PER_USER; i++) {
      expect((await as(ada.token).post(`/users/${ada.id}/tokens`)).status).toBe(201);
    }
    const refused = await as(ada.token).post(`/users/${ada.id}/tokens`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain(`${MAX_TOKENS_PER_USER} tokens`);
    expect((await as(ada.token).get(`/users/${ada.id}/tokens?limit=0`)).body.count).toBe(MAX_TOKENS_PER_USER);
  });
});

describe("tokens: expiry", () => {
  it("stops authenticating an expiring token at its expiry, like an unknown one", async () => {
    const { ada, as, advance } = await setup();
    const created = await as(ada.token).post(`/users/${ada.id}/tokens`, { expiresIn: 3600 });
    expect(created.status).toBe(201);
    expect(created.body.expiresAt).toBe(new Date(START + 3600_000).toISOString());
    const token: string = created.body.token;
    advance(3600_000 - 1);
    expect((await as(token).get("/user")).status).toBe(200);
    advance(1);
    const expired = await as(token).get("/user");
    const unknown = await as("dbt_unknown_token").get("/user");
    expect(expired).toMatchObject({ status: 401, body: unknown.body });
    // Still listed, with its expiry, until revoked.
    const listed = (await as(ada.token).get(`/users/${ada.id}/tokens`)).body.items;
    expect(listed.find((item: { id: string }) => item.id === created.body.id)?.expiresAt).toBe(
      created.body.expiresAt,
    );
  });

  it("takes an absolute expiry with a time zone", async () => {
    const { ada, as, advance } = await setup();
    const created = await as(ada.token).post(`/users/${ada.id}/tokens`, {
      expiresAt: "2025-01-02T02:00:00+02:00",
    });
    expect(created.status).toBe(201);
    expect(created.body.expiresAt).toBe("2025-01-02T00:00:00.000Z");
    advance(86_400_000);
    expect((await as(created.body.token).get("/user")).status).toBe(401);
  });

  it("refuses lifetimes out of bounds, naming the field", async () => {
    const { ada, as } = await setup();
    const post = (body: unknown) => as(ada.token).post(`/users/${ada.id}/tokens`, body);
    const cases: [unknown, string][] = [
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
      const answer = await post(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.message).toContain(field);
    }
    expect((await as(ada.token).get(`/users/${ada.id}/tokens`)).body.count).toBe(1);
    expect((await post({ expiresIn: 365 * 86_400 })).status).toBe(201);
  });
});

describe("tokens: lastUsedAt", () => {
  const lastUsed = async (s: Awaited<ReturnType<typeof setup>>, token: string) => {
    const record = await s.storage.read(async (tx) => tx.get(tokensTable, hashToken(token)));
    return record?.lastUsedAt;
  };

  it("records a use, at most once a minute per token", async () => {
    const s = await setup();
    const { ada, as, advance } = s;
    const created = await as(ada.token).post(`/users/${ada.id}/tokens`);
    const token: string = created.body.token;
    expect(await lastUsed(s, token)).toBeUndefined();
    expect(created.body).not.toHaveProperty("lastUsedAt");

    advance(5000);
    const firstUse = new Date(START + 5000).toISOString();
    await as(token).get("/user");
    expect(await lastUsed(s, token)).toBe(firstUse);
    advance(LAST_USED_GRANULARITY_MS - 1);
    await as(token).get("/user");
    expect(await lastUsed(s, token)).toBe(firstUse);
    advance(1);
    await as(token).get("/user");
    expect(await lastUsed(s, token)).toBe(new Date(START + 5000 + LAST_USED_GRANULARITY_MS).toISOString());

    const listed = (await as(ada.token).get(`/users/${ada.id}/tokens`)).body.items;
    expect(listed.find((item: { id: string }) => item.id === created.body.id)?.lastUsedAt).toBe(
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
    const { ada, as } = await setup(counting);
    await as(ada.token).get("/user");
    const before = writes;
    for (let i = 0; i < 10; i++) expect((await as(ada.token).get("/user")).status).toBe(200);
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
    expect((await s.as(s.ada.token).get("/user")).status).toBe(200);
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
    expect((await s.as(s.bob.token).get("/user")).status).toBe(200);
    expect(await inner.read((tx) => tx.get(tokensTable, hash))).toBeUndefined();
    expect((await s.as(s.bob.token).get("/user")).status).toBe(401);
  });
});
