import { describe, expect, it } from "vitest";
import { memoryStorage } from "../adapters/memory/index.js";
import { createTestDocsbase, type TestDocsbase } from "./double.js";

/** A double with a user, an organization, a space and a page in it. */
async function world(test: TestDocsbase) {
  const alice = await test.createUser("Alice");
  const client = test.as(alice);
  const org = await client.createOrganization({ body: { title: "Acme" } });
  const space = await client.createSpace({ organizationId: org.id, body: { title: "Handbook" } });
  const page = await client.createPage({ spaceId: space.id, body: { title: "Intro", markdown: "# Hello" } });
  const markdown = async (on = test) =>
    (await on.as(alice).getPageById({ spaceId: space.id, pageId: page.id, format: "markdown" })).markdown;
  const title = async (on = test) => (await on.as(alice).getSpaceById({ spaceId: space.id })).title;
  return { alice, client, org, space, page, markdown, title };
}

describe("test double: snapshots, restore, fork and reset", () => {
  it("restores a snapshot: what was written after it reads as before, over HTTP and in process", async () => {
    const test = await createTestDocsbase();
    const { alice, client, space, page, markdown, title } = await world(test);
    expect(await markdown()).toContain("# Hello"); // read once, so that derived caches hold it
    const snapshot = await test.snapshot();
    await client.updateSpaceById({ spaceId: space.id, body: { title: "Renamed" } });
    await client.updatePage({ spaceId: space.id, pageId: page.id, body: { markdown: "Edited" } });
    expect([await title(), await markdown()]).toEqual(["Renamed", expect.stringContaining("Edited")]);
    expect(test.docsbase.cache.size).toBeGreaterThan(0);
    await test.restore(snapshot);
    expect(test.docsbase.cache.size).toBe(0); // nothing derived from the state left behind answers
    expect(await title()).toBe("Handbook");
    expect(await markdown()).toContain("# Hello");
    expect((await test.request("GET", `/spaces/${space.id}`, { token: alice.token })).body.title).toBe(
      "Handbook",
    );
    // Restored twice: the writes after the first restore did not reach the snapshot.
    await client.updateSpaceById({ spaceId: space.id, body: { title: "Again" } });
    await test.restore(snapshot);
    expect(await title()).toBe("Handbook");
  });

  it("forgets the tokens and users of the state it leaves: a token made after the snapshot answers 401", async () => {
    const test = await createTestDocsbase();
    const alice = await test.createUser("Alice");
    const snapshot = await test.snapshot();
    const bob = await test.createUser("Bob");
    const { token } = await test.as(alice).createUserToken({ userId: alice.id, body: {} });
    // Used once each, so that the token cache holds them.
    expect((await test.request("GET", "/user", { token })).status).toBe(200);
    expect((await test.as(bob).getAuthenticatedUser()).displayName).toBe("Bob");
    await test.restore(snapshot);
    expect((await test.request("GET", "/user", { token })).status).toBe(401);
    await expect(test.as(bob).getAuthenticatedUser()).rejects.toMatchObject({ code: "unauthorized" });
    expect((await test.as(alice).getAuthenticatedUser()).displayName).toBe("Alice");
  });

  it("forgets rate-limit counts on restore", async () => {
    const test = await createTestDocsbase({ rateLimit: { requests: { limit: 2, windowMs: 60_000 } } });
    const snapshot = await test.snapshot();
    for (let i = 0; i < 2; i++) expect((await test.request("GET", "/user")).status).toBe(200);
    expect((await test.request("GET", "/user")).status).toBe(429);
    await test.restore(snapshot);
    expect((await test.request("GET", "/user")).status).toBe(200);
  });

  it("refuses a snapshot of another double", async () => {
    const test = await createTestDocsbase();
    const other = await createTestDocsbase();
    await expect(test.restore(await other.snapshot())).rejects.toThrow(
      "test.restore() takes a snapshot that this double's test.snapshot() returned",
    );
  });

  it("forks an independent double: same options, this one's state, its own journal and no faults", async () => {
    const test = await createTestDocsbase({ baseUrl: "http://docs.example" });
    const { alice, client, space, page, markdown, title } = await world(test);
    test.fault({ operationId: "getSpaceById", status: 503, times: 100 });
    const other = await test.fork();
    expect(other.endpoint).toBe("http://docs.example");
    expect(other.calls()).toEqual([]);
    expect(await title(other)).toBe("Handbook"); // no fault on the fork
    await other.as(alice).updateSpaceById({ spaceId: space.id, body: { title: "Forked" } });
    await client.updatePage({ spaceId: space.id, pageId: page.id, body: { markdown: "Edited here" } });
    expect(await title(other)).toBe("Forked");
    await expect(title()).rejects.toMatchObject({ code: "unavailable" }); // the fault stays here
    expect(await markdown(other)).toContain("# Hello");
    expect(await markdown()).toContain("Edited here");
    expect(other.calls({ operationId: "updateSpaceById" })).toHaveLength(1);
    expect(test.calls({ operationId: "updateSpaceById" })).toHaveLength(0);
  });

  it("resets to the state createTestDocsbase returned, with no journal and no faults", async () => {
    const test = await createTestDocsbase();
    const { alice, space } = await world(test);
    await test.reset();
    expect(test.calls()).toEqual([]);
    await expect(test.as(alice).getAuthenticatedUser()).rejects.toMatchObject({ code: "unauthorized" });
    expect((await test.request("GET", `/spaces/${space.id}`)).status).toBe(404);
    await world(test);
    test.fault({ operationId: "getSpaceById", status: 500 });
    await test.reset();
    expect(await (await world(test)).title()).toBe("Handbook"); // the fault went with the reset
  });

  it("resets to the fixture's state and to the clock as it was created", async () => {
    const ada = { id: "u-ada", displayName: "Ada", token: "tok-ada-0123456789abcdef" };
    const test = await createTestDocsbase({
      now: "2026-01-01T00:00:00.000Z",
      fixture: {
        users: [ada],
        organizations: [{ id: "org-acme", title: "Acme", members: [{ user: "u-ada", role: "admin" }] }],
        spaces: [{ id: "space-handbook", organization: "org-acme", title: "Handbook" }],
      },
    });
    const handbook = { spaceId: "space-handbook" };
    await test.clock.advance("3d");
    await test.as(ada).updateSpaceById({ ...handbook, body: { title: "Renamed" } });
    await test.reset();
    expect(test.clock.now().toISOString()).toBe("2026-01-01T00:00:00.000Z");
    const space = await test.as(ada).getSpaceById(handbook);
    expect(space).toMatchObject({ title: "Handbook", updatedAt: "2026-01-01T00:00:00.000Z" });
  });

  it("keeps the clock on restore, and starts a fork at the clock where it is", async () => {
    const test = await createTestDocsbase({ now: "2026-01-01T00:00:00.000Z" });
    const snapshot = await test.snapshot();
    await test.clock.advance("1d");
    await test.restore(snapshot);
    expect(test.clock.now().toISOString()).toBe("2026-01-02T00:00:00.000Z");
    const frozen = await test.fork();
    expect(frozen.clock.now().toISOString()).toBe("2026-01-02T00:00:00.000Z");
    await frozen.clock.advance("1h");
    expect(test.clock.now().toISOString()).toBe("2026-01-02T00:00:00.000Z"); // each its own clock

    const following = await createTestDocsbase();
    await following.clock.advance("10d");
    const fork = await following.fork();
    const shift = fork.clock.now().getTime() - Date.now();
    expect(shift).toBeGreaterThan(10 * 86_400_000 - 60_000);
    expect(shift).toBeLessThanOrEqual(10 * 86_400_000);
  });

  it("says that another storage cannot snapshot", async () => {
    const test = await createTestDocsbase({ storage: { ...memoryStorage() } });
    const message = "needs the double's memory storage: the `storage` option gave another adapter";
    await expect(test.snapshot()).rejects.toThrow(`test.snapshot() ${message}`);
    await expect(test.fork()).rejects.toThrow(`test.fork() ${message}`);
    await expect(test.reset()).rejects.toThrow(`test.reset() ${message}`);
  });
});
