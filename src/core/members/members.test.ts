import { describe, expect, it } from "vitest";
import { memoryStorage } from "../../adapters/memory/index.js";
import { createTestDocsbase } from "../../testing/double.js";
import { memberKey } from "../permissions/membership.js";
import { membersTable } from "./tables.js";
import { spacesTable } from "../spaces/tables.js";

/** An organization of `admin`, on a clock that ticks one second per read. */
async function setup() {
  let now = Date.parse("2025-01-01T00:00:00Z");
  const storage = memoryStorage();
  const test = await createTestDocsbase({ storage, clock: () => new Date((now += 1000)) });
  const admin = await test.createUser("Admin", "admin@acme.test");
  const org: string = (await test.request("POST", "/orgs", { token: admin.token, body: { title: "Acme" } }))
    .body.id;
  let users = 0;
  /** Accepts the user's one pending invitation. */
  const accept = async (token: string) => {
    const [invite] = (await test.request("GET", "/user/invites", { token })).body.items;
    expect((await test.request("POST", `/user/invites/${invite.id}/accept`, { token })).status).toBe(200);
  };
  /** A new user added to the organization with `role` (null: guest). */
  const join = async (name: string, role: string | null, email = `member${++users}@acme.test`) => {
    const user = await test.createUser(name, email);
    const added = await test.request("POST", `/orgs/${org}/invites`, {
      token: admin.token,
      body: { emails: [{ email, role }] },
    });
    expect(added.status).toBe(200);
    await accept(user.token);
    return user;
  };
  /** Every item of a paged list, following `next.page`, with `limit` per page. */
  const all = async (path: string, token: string, limit: number) => {
    const ids: string[] = [];
    let page: string | undefined;
    const separator = path.includes("?") ? "&" : "?";
    for (let i = 0; i < 100; i++) {
      const query = `limit=${limit}${page ? `&page=${page}` : ""}`;
      const response = await test.request("GET", `${path}${separator}${query}`, { token });
      expect(response.status).toBe(200);
      expect(response.body.items.length).toBeLessThanOrEqual(limit);
      ids.push(...response.body.items.map((item: { id: string }) => item.id));
      page = response.body.next?.page;
      if (!page) return { ids, count: response.body.count as number };
    }
    throw new Error("Too many pages");
  };
  return { test, storage, admin, org, join, accept, all };
}

describe("members: listing", () => {
  it("pages through members with order, sort, role and search", async () => {
    const { storage, admin, org, join, all } = await setup();
    const ann = await join("Ann Editor", "edit");
    const ben = await join("Ben Reader", "read", "BEN@Example.test");
    const cat = await join("Cat Guest", null);
    const dan = await join("Dan Editor", "edit");
    const eve = await join("Eve Reader", "read");
    const path = `/orgs/${org}/members`;

    const joined = [admin.id, ann.id, ben.id, cat.id, dan.id, eve.id];
    expect(await all(path, admin.token, 2)).toEqual({ ids: [...joined].reverse(), count: 6 });
    expect(await all(`${path}?order=asc`, admin.token, 4)).toEqual({ ids: joined, count: 6 });
    expect(await all(`${path}?role=edit`, admin.token, 1)).toEqual({ ids: [dan.id, ann.id], count: 2 });
    expect(await all(`${path}?role=guest&order=asc`, admin.token, 1)).toEqual({ ids: [cat.id], count: 1 });
    expect(await all(`${path}?search=READER&order=asc`, admin.token, 1)).toEqual({
      ids: [ben.id, eve.id],
      count: 2,
    });
    expect(await all(`${path}?search=example.TEST`, admin.token, 1)).toEqual({ ids: [ben.id], count: 1 });

    // Seen members sort by their last visit, the others by their join date.
    await storage.write(async (tx) => {
      for (const [user, seenAt] of [
        [ann.id, "2025-02-03T00:00:00.000Z"],
        [cat.id, "2025-02-01T00:00:00.000Z"],
      ] as const) {
        const member = (await tx.get(membersTable, memberKey(org, user)))!;
        await tx.put(membersTable, { ...member, lastSeenAt: seenAt, seenAt });
      }
    });
    expect(await all(`${path}?sort=lastSeenAt`, admin.token, 2)).toEqual({
      ids: [ann.id, cat.id, eve.id, dan.id, ben.id, admin.id],
      count: 6,
    });
    expect(await all(`${path}?sort=lastSeenAt&order=asc&role=edit`, admin.token, 1)).toEqual({
      ids: [dan.id, ann.id],
      count: 2,
    });
  });

  it("refuses bad queries and page tokens of another list with 400", async () => {
    const { test, admin, org } = await setup();
    for (const query of ["role=owner", "sort=title", "order=up", "limit=1001", "page=nonsense"]) {
      const response = await test.request("GET", `/orgs/${org}/members?${query}`, { token: admin.token });
      expect(response.status, query).toBe(400);
      expect(response.body.error.message).toMatch(/^query\./);
    }
  });

  it("hides members from guests (403) and non-members (404), matching listMembers", async () => {
    const { test, admin, org, join } = await setup();
    const guest = await join("Guest", null);
    const reader = await join("Reader", "read");
    const stranger = await test.createUser("Stranger");
    const flags = async (token: string) =>
      (await test.request("GET", `/orgs/${org}`, { token })).body.permissions.listMembers;
    expect(await flags(guest.token)).toBe(false);
    expect((await test.request("GET", `/orgs/${org}/members`, { token: guest.token })).status).toBe(403);
    expect(
      (await test.request("GET", `/orgs/${org}/members/${admin.id}`, { token: guest.token })).status,
    ).toBe(403);
    expect(await flags(reader.token)).toBe(true);
    expect((await test.request("GET", `/orgs/${org}/members`, { token: reader.token })).status).toBe(200);
    for (const path of ["/members", `/members/${admin.id}`, `/members/${admin.id}/teams`]) {
      expect((await test.request("GET", `/orgs/${org}${path}`, { token: stranger.token })).status).toBe(404);
    }
    expect(
      (await test.request("GET", `/orgs/${org}/members/${stranger.id}`, { token: admin.token })).status,
    ).toBe(404);
  });
});

describe("members: changes", () => {
  it("lets only admins change roles, and always keeps an admin", async () => {
    const { test, admin, org, join } = await setup();
    const reader = await join("Reader", "read");
    const patch = (token: string, user: string, body: unknown) =>
      test.request("PATCH", `/orgs/${org}/members/${user}`, { token, body });

    expect((await patch(reader.token, reader.id, { role: "admin" })).status).toBe(403);
    expect((await patch(admin.token, admin.id, { role: "edit" })).status).toBe(409);
    expect((await patch(admin.token, reader.id, { role: "chief" })).body.error.message).toMatch(
      /^body\.role/,
    );
    const guest = await patch(admin.token, reader.id, { role: null });
    expect(guest.body).toMatchObject({ id: reader.id, role: null });
    expect((await patch(admin.token, reader.id, { role: "admin" })).body.role).toBe("admin");
    // With a second admin, the first may step down; the second is then the last one.
    expect((await patch(admin.token, admin.id, { role: "read" })).body.role).toBe("read");
    expect((await patch(reader.token, reader.id, { role: "read" })).status).toBe(409);
    const removal = await test.request("DELETE", `/orgs/${org}/members/${reader.id}`, {
      token: reader.token,
    });
    expect(removal.status).toBe(409);
  });

  it("lets admins remove members and members leave, with their team memberships", async () => {
    const { test, admin, org, join, accept } = await setup();
    const alice = await join("Alice", "edit");
    const bob = await join("Bob", "read");
    const team = await test.request("PUT", `/orgs/${org}/teams`, {
      token: admin.token,
      body: { title: "Team", members: [alice.id, bob.id] },
    });
    const teamPath = `/orgs/${org}/teams/${team.body.id}`;
    expect(
      (await test.request("GET", `/orgs/${org}/members/${bob.id}`, { token: admin.token })).body.teams,
    ).toBe(1);

    expect(
      (await test.request("DELETE", `/orgs/${org}/members/${bob.id}`, { token: alice.token })).status,
    ).toBe(403);
    expect(
      (await test.request("DELETE", `/orgs/${org}/members/${bob.id}`, { token: bob.token })).status,
    ).toBe(205);
    expect((await test.request("GET", `/orgs/${org}`, { token: bob.token })).status).toBe(404);
    expect((await test.request("GET", teamPath, { token: admin.token })).body.members).toBe(1);
    expect(
      (await test.request("DELETE", `/orgs/${org}/members/${alice.id}`, { token: admin.token })).status,
    ).toBe(205);
    expect(
      (await test.request("DELETE", `/orgs/${org}/members/${alice.id}`, { token: admin.token })).status,
    ).toBe(204);
    expect((await test.request("GET", teamPath, { token: admin.token })).body.members).toBe(0);

    // Rejoining starts with no team.
    await test.request("POST", `/orgs/${org}/invites`, {
      token: admin.token,
      body: { emails: ["member1@acme.test"] },
    });
    await accept(alice.token);
    expect(
      (await test.request("GET", `/orgs/${org}/members/${alice.id}`, { token: admin.token })).body.teams,
    ).toBe(0);
  });

  it("counts the live spaces each member can access", async () => {
    const { test, storage, admin, org, join } = await setup();
    const reader = await join("Reader", "read");
    const guest = await join("Guest", null);
    await storage.write(async (tx) => {
      for (const [id, state] of [
        ["s1", "live"],
        ["s2", "live"],
        ["s3", "deleted"],
      ] as const) {
        await tx.put(spacesTable, {
          id,
          organization: org,
          parent: "",
          state,
          position: id,
          title: id,
          emoji: "",
          visibility: "private",
          editMode: "live",
          defaultLevel: null,
          mergeRules: { type: "inherit" },
          revision: "",
          createdAt: "2025-01-01T00:00:00.000Z",
          updatedAt: "2025-01-01T00:00:00.000Z",
          ...(state === "deleted" ? { deletedAt: "2025-01-01T00:00:00.000Z" } : {}),
          counters: { comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 },
        });
      }
    });
    const spaces = async (user: string) =>
      (await test.request("GET", `/orgs/${org}/members/${user}`, { token: admin.token })).body.spaces;
    expect(await spaces(admin.id)).toBe(2);
    expect(await spaces(reader.id)).toBe(2);
    expect(await spaces(guest.id)).toBe(0);
  });
});
