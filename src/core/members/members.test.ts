import { describe, expect, it } from "vitest";
import { memoryStorage } from "../../adapters/memory/index.js";
import { createTestDocsbase, type TestUser } from "../../testing/double.js";
import type { ClientInput } from "../client.js";
import type { Operations } from "../operations.js";
import { memberKey } from "../permissions/membership.js";
import type { Role } from "../shared/roles.js";
import { membersTable } from "./tables.js";
import { spacesTable } from "../spaces/tables.js";

type MemberQuery = Omit<ClientInput<Operations["listMembersInOrganizationById"]>, "organizationId">;

/** An organization of `admin`, on a clock that ticks one second per read. */
async function setup() {
  let now = Date.parse("2025-01-01T00:00:00Z");
  const storage = memoryStorage();
  const test = await createTestDocsbase({ storage, clock: () => new Date((now += 1000)) });
  const admin = await test.createUser("Admin", "admin@acme.test");
  const org = (await test.as(admin).createOrganization({ body: { title: "Acme" } })).id;
  let users = 0;
  /** Accepts the user's one pending invitation. */
  const accept = async (user: TestUser) => {
    const [invite] = (await test.as(user).listUserInvites()).items;
    await test.as(user).acceptUserInvite({ invitationId: invite!.id });
  };
  /** A new user added to the organization with `role` (null: guest). */
  const join = async (name: string, role: Role | null, email = `member${++users}@acme.test`) => {
    const user = await test.createUser(name, email);
    await test
      .as(admin)
      .inviteUsersToOrganization({ organizationId: org, body: { emails: [{ email, role }] } });
    await accept(user);
    return user;
  };
  /** Every member of a paged list, following `next.page`, with `limit` per page. */
  const all = async (query: MemberQuery, user: TestUser, limit: number) => {
    const ids: string[] = [];
    let page: string | undefined;
    for (let i = 0; i < 100; i++) {
      const list = await test
        .as(user)
        .listMembersInOrganizationById({ organizationId: org, ...query, limit, ...(page ? { page } : {}) });
      expect(list.items.length).toBeLessThanOrEqual(limit);
      ids.push(...list.items.map((item) => item.id));
      page = list.next?.page;
      if (!page) return { ids, count: list.count };
    }
    throw new Error("Too many pages");
  };
  /** A member as the admin sees it. */
  const member = (userId: string) =>
    test.as(admin).getMemberInOrganizationById({ organizationId: org, userId });
  return { test, storage, admin, org, join, accept, all, member };
}

describe("members: listing", () => {
  it("pages through members with order, sort, role and search", async () => {
    const { storage, admin, org, join, all } = await setup();
    const ann = await join("Ann Editor", "edit");
    const ben = await join("Ben Reader", "read", "BEN@Example.test");
    const cat = await join("Cat Guest", null);
    const dan = await join("Dan Editor", "edit");
    const eve = await join("Eve Reader", "read");

    const joined = [admin.id, ann.id, ben.id, cat.id, dan.id, eve.id];
    expect(await all({}, admin, 2)).toEqual({ ids: [...joined].reverse(), count: 6 });
    expect(await all({ order: "asc" }, admin, 4)).toEqual({ ids: joined, count: 6 });
    expect(await all({ role: "edit" }, admin, 1)).toEqual({ ids: [dan.id, ann.id], count: 2 });
    expect(await all({ role: "guest", order: "asc" }, admin, 1)).toEqual({ ids: [cat.id], count: 1 });
    expect(await all({ search: "READER", order: "asc" }, admin, 1)).toEqual({
      ids: [ben.id, eve.id],
      count: 2,
    });
    expect(await all({ search: "example.TEST" }, admin, 1)).toEqual({ ids: [ben.id], count: 1 });

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
    expect(await all({ sort: "lastSeenAt" }, admin, 2)).toEqual({
      ids: [ann.id, cat.id, eve.id, dan.id, ben.id, admin.id],
      count: 6,
    });
    expect(await all({ sort: "lastSeenAt", order: "asc", role: "edit" }, admin, 1)).toEqual({
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
    const { test, admin, org, join, member } = await setup();
    const guest = await join("Guest", null);
    const reader = await join("Reader", "read");
    const stranger = await test.createUser("Stranger");
    const flags = async (user: TestUser) =>
      (await test.as(user).getOrganizationById({ organizationId: org })).permissions.listMembers;
    const organizationId = org;
    const list = (user: TestUser) => test.as(user).listMembersInOrganizationById({ organizationId });
    const get = (user: TestUser) =>
      test.as(user).getMemberInOrganizationById({ organizationId, userId: admin.id });
    const teams = (user: TestUser) =>
      test.as(user).listTeamsForOrganizationMember({ organizationId, userId: admin.id });
    expect(await flags(guest)).toBe(false);
    await expect(list(guest)).rejects.toMatchObject({ code: "forbidden" });
    await expect(get(guest)).rejects.toMatchObject({ code: "forbidden" });
    expect(await flags(reader)).toBe(true);
    await list(reader);
    for (const read of [list, get, teams]) {
      await expect(read(stranger)).rejects.toMatchObject({ code: "not_found" });
    }
    await expect(member(stranger.id)).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("members: changes", () => {
  it("lets only admins change roles, and always keeps an admin", async () => {
    const { test, admin, org, join } = await setup();
    const reader = await join("Reader", "read");
    const patch = (user: TestUser, userId: string, role: Role | null) =>
      test.as(user).updateMemberInOrganizationById({ organizationId: org, userId, body: { role } });

    await expect(patch(reader, reader.id, "admin")).rejects.toMatchObject({ code: "forbidden" });
    await expect(patch(admin, admin.id, "edit")).rejects.toMatchObject({ code: "conflict" });
    const chief = await test.request("PATCH", `/orgs/${org}/members/${reader.id}`, {
      token: admin.token,
      body: { role: "chief" },
    });
    expect(chief.body.error.message).toMatch(/^body\.role/);
    expect(await patch(admin, reader.id, null)).toMatchObject({ id: reader.id, role: null });
    expect((await patch(admin, reader.id, "admin")).role).toBe("admin");
    // With a second admin, the first may step down; the second is then the last one.
    expect((await patch(admin, admin.id, "read")).role).toBe("read");
    await expect(patch(reader, reader.id, "read")).rejects.toMatchObject({ code: "conflict" });
    await expect(
      test.as(reader).removeMemberFromOrganizationById({ organizationId: org, userId: reader.id }),
    ).rejects.toMatchObject({ code: "conflict" });
  });

  it("lets admins remove members and members leave, with their team memberships", async () => {
    const { test, admin, org, join, accept, member } = await setup();
    const alice = await join("Alice", "edit");
    const bob = await join("Bob", "read");
    const team = await test
      .as(admin)
      .createOrganizationTeam({ organizationId: org, body: { title: "Team", members: [alice.id, bob.id] } });
    const teamMembers = async () =>
      (await test.as(admin).getTeamInOrganizationById({ organizationId: org, teamId: team.id })).members;
    expect((await member(bob.id)).teams).toBe(1);
    // Over HTTP for the statuses: 205 when a member went, 204 when there was none.
    const remove = (userId: string, token: string) =>
      test.request("DELETE", `/orgs/${org}/members/${userId}`, { token });

    expect((await remove(bob.id, alice.token)).status).toBe(403);
    expect((await remove(bob.id, bob.token)).status).toBe(205);
    await expect(test.as(bob).getOrganizationById({ organizationId: org })).rejects.toMatchObject({
      code: "not_found",
    });
    expect(await teamMembers()).toBe(1);
    expect((await remove(alice.id, admin.token)).status).toBe(205);
    expect((await remove(alice.id, admin.token)).status).toBe(204);
    expect(await teamMembers()).toBe(0);

    // Rejoining starts with no team.
    await test
      .as(admin)
      .inviteUsersToOrganization({ organizationId: org, body: { emails: ["member1@acme.test"] } });
    await accept(alice);
    expect((await member(alice.id)).teams).toBe(0);
  });

  it("counts the live spaces each member can access", async () => {
    const { storage, admin, org, join, member } = await setup();
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
    const spaces = async (userId: string) => (await member(userId)).spaces;
    expect(await spaces(admin.id)).toBe(2);
    expect(await spaces(reader.id)).toBe(2);
    expect(await spaces(guest.id)).toBe(0);
  });
});
