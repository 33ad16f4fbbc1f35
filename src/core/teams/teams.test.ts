import { describe, expect, it } from "vitest";
import { createTestDocsbase, type TestUser } from "../../testing/double.js";
import type { ClientInput } from "../client.js";
import type { Operations } from "../operations.js";

/** An organization with an admin, a team owner, a reader and a guest, and one team "Docs". */
async function setup() {
  let now = Date.parse("2025-01-01T00:00:00Z");
  const test = await createTestDocsbase({ clock: () => new Date((now += 1000)) });
  const admin = await test.createUser("Admin", "admin@acme.test");
  const organizationId = (await test.as(admin).createOrganization({ body: { title: "Acme" } })).id;
  const owner = await test.createUser("Owner", "owner@acme.test");
  const reader = await test.createUser("Reader", "reader@acme.test");
  const guest = await test.createUser("Guest", "guest@acme.test");
  await test.as(admin).inviteUsersToOrganization({
    organizationId,
    body: { emails: ["owner@acme.test", "reader@acme.test", { email: "guest@acme.test", role: null }] },
  });
  for (const user of [owner, reader, guest]) {
    const [invite] = (await test.as(user).listUserInvites()).items;
    await test.as(user).acceptUserInvite({ invitationId: invite!.id });
  }
  /** Over HTTP, for what only HTTP shows (a delete's 205 or 204, input no client type allows). */
  const call = (token: string, method: string, path: string, body?: unknown) =>
    test.request(method, `/orgs/${organizationId}${path}`, {
      token,
      ...(body !== undefined ? { body } : {}),
    });
  const team = (
    await test
      .as(admin)
      .createOrganizationTeam({ organizationId, body: { title: "Docs", members: [owner.id] } })
  ).id;
  await test.as(admin).addMemberToOrganizationTeamById({
    organizationId,
    teamId: team,
    userId: owner.id,
    body: { role: "owner" },
  });
  /** The typed client of `user` for the organization and its team: `organizationId` and `teamId` given. */
  const as = (user: TestUser) => ({
    client: test.as(user),
    org: { organizationId },
    team: { organizationId, teamId: team },
  });
  return { test, organizationId, admin, owner, reader, guest, team, call, as };
}

describe("teams: roles", () => {
  it("lets a read member view teams but not manage them", async () => {
    const { reader, team, as } = await setup();
    const { client, org, team: ids } = as(reader);
    expect((await client.listTeamsInOrganizationById(org)).items[0]!.permissions).toEqual({
      admin: false,
      view: true,
    });
    await client.listTeamMembersInOrganizationById(ids);
    for (const call of [
      () => client.createOrganizationTeam({ ...org, body: { title: "Mine" } }),
      () => client.updateTeamInOrganizationById({ ...ids, body: { title: "Renamed" } }),
      () => client.addMemberToOrganizationTeamById({ ...ids, userId: reader.id, body: {} }),
      () => client.updateMembersInOrganizationTeam({ ...ids, body: { add: [reader.id] } }),
      () => client.removeTeamFromOrganizationById(ids),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: "forbidden" });
    }
    expect(await client.getTeamInOrganizationById({ ...org, teamId: team })).toMatchObject({
      title: "Docs",
      members: 1,
    });
  });

  it("lets a team owner manage their team, not others, and not delete it", async () => {
    const { admin, owner, reader, team, call, as } = await setup();
    const { client, org, team: ids } = as(owner);
    const other = (await as(admin).client.createOrganizationTeam({ ...org, body: { title: "Other" } })).id;
    expect((await client.getTeamInOrganizationById(ids)).permissions).toEqual({ admin: true, view: true });
    expect((await client.getTeamInOrganizationById({ ...org, teamId: other })).permissions).toEqual({
      admin: false,
      view: true,
    });
    expect((await client.updateTeamInOrganizationById({ ...ids, body: { title: "Docs team" } })).title).toBe(
      "Docs team",
    );
    await client.addMemberToOrganizationTeamById({ ...ids, userId: reader.id, body: { role: "owner" } });
    expect((await call(owner.token, "DELETE", `/teams/${team}/members/${reader.id}`)).status).toBe(205);
    for (const refused of [
      () => client.updateTeamInOrganizationById({ ...org, teamId: other, body: { title: "Taken" } }),
      () => client.addMemberToOrganizationTeamById({ ...org, teamId: other, userId: owner.id, body: {} }),
      () => client.removeTeamFromOrganizationById(ids),
    ]) {
      await expect(refused()).rejects.toMatchObject({ code: "forbidden" });
    }
    // `ownTeam` on the organization tells the same story.
    expect((await client.getOrganizationById(org)).permissions.ownTeam).toBe(true);
    expect((await as(reader).client.getOrganizationById(org)).permissions.ownTeam).toBe(false);
  });

  it("lets a team member leave the team", async () => {
    const { admin, reader, team, call, as } = await setup();
    await as(admin).client.addMemberToOrganizationTeamById({
      ...as(admin).team,
      userId: reader.id,
      body: {},
    });
    expect((await call(reader.token, "DELETE", `/teams/${team}/members/${reader.id}`)).status).toBe(205);
    expect((await call(reader.token, "DELETE", `/teams/${team}/members/${reader.id}`)).status).toBe(204);
  });

  it("hides teams from guests (403) and non-members (404)", async () => {
    const { test, admin, guest, as } = await setup();
    const { client, org, team: ids } = as(guest);
    expect((await client.getOrganizationById(org)).permissions.listTeams).toBe(false);
    for (const call of [
      () => client.listTeamsInOrganizationById(org),
      () => client.getTeamInOrganizationById(ids),
      () => client.listTeamMembersInOrganizationById(ids),
      () => client.listTeamsForOrganizationMember({ ...org, userId: admin.id }),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: "forbidden" });
    }
    const stranger = as(await test.createUser("Stranger")).client;
    for (const call of [
      () => stranger.listTeamsInOrganizationById(org),
      () => stranger.getTeamInOrganizationById(ids),
      () => stranger.updateTeamInOrganizationById({ ...ids, body: { title: "x" } }),
      () => stranger.removeTeamFromOrganizationById(ids),
      () => stranger.listTeamMembersInOrganizationById(ids),
    ]) {
      await expect(call(), String(call)).rejects.toMatchObject({ code: "not_found" });
    }
    await expect(
      as(admin).client.getTeamInOrganizationById({ ...org, teamId: "unknown" }),
    ).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("lets a guest who owns a team see and manage that team only", async () => {
    const { admin, guest, as } = await setup();
    await as(admin).client.addMemberToOrganizationTeamById({
      ...as(admin).team,
      userId: guest.id,
      body: { role: "owner" },
    });
    const { client, org, team: ids } = as(guest);
    expect((await client.getTeamInOrganizationById(ids)).permissions).toEqual({ admin: true, view: true });
    expect((await client.updateTeamInOrganizationById({ ...ids, body: { title: "Guests" } })).title).toBe(
      "Guests",
    );
    await client.listTeamMembersInOrganizationById(ids);
    await expect(client.listTeamsInOrganizationById(org)).rejects.toMatchObject({ code: "forbidden" });
  });

  it("filters teams by the member who can manage them and by title", async () => {
    const { admin, owner, reader, team, as } = await setup();
    const { org } = as(admin);
    const other = (await as(admin).client.createOrganizationTeam({ ...org, body: { title: "Support desk" } }))
      .id;
    const ids = async (query: { owner?: string; title?: string }) =>
      (await as(reader).client.listTeamsInOrganizationById({ ...org, ...query })).items.map(
        (item) => item.id,
      );
    expect(await ids({ owner: owner.id })).toEqual([team]);
    expect(await ids({ owner: admin.id })).toEqual([team, other]);
    expect(await ids({ owner: reader.id })).toEqual([]);
    expect(await ids({ title: "DESK" })).toEqual([other]);
    expect(await ids({ title: "o", owner: owner.id })).toEqual([team]);
    await expect(ids({ owner: "nobody" })).rejects.toMatchObject({
      code: "bad_request",
      message: expect.stringMatching(/^query\.owner/),
    });
  });
});

describe("teams: input and counts", () => {
  it("refuses bad input with 400 naming the field, changing nothing", async () => {
    const { test, admin, team, call, as } = await setup();
    const { client, org, team: ids } = as(admin);
    const outsider = await test.createUser("Outsider", "outsider@acme.test");
    const refused = (call: Promise<unknown>, message: RegExp) =>
      expect(call).rejects.toMatchObject({ code: "bad_request", message: expect.stringMatching(message) });
    // A body no client type allows, as JSON sent over HTTP.
    expect((await call(admin.token, "PUT", "/teams", {})).body.error.message).toMatch(/^body\.title/);
    for (const title of ["", "x".repeat(65)]) {
      await refused(client.createOrganizationTeam({ ...org, body: { title } }), /^body\.title/);
    }
    await refused(
      client.createOrganizationTeam({ ...org, body: { title: "T", members: [admin.id, outsider.id] } }),
      /^body\.members\.1: /,
    );
    expect((await client.listTeamsInOrganizationById(org)).count).toBe(1);
    await refused(client.updateTeamInOrganizationById({ ...ids, body: { title: "" } }), /^body\.title/);

    const update = (body: ClientInput<Operations["updateMembersInOrganizationTeam"]>["body"]) =>
      client.updateMembersInOrganizationTeam({ ...ids, body });
    await refused(update({ add: [admin.id, "outsider@acme.test"] }), /^body\.add\.1: /);
    await refused(update({ memberships: { [outsider.id]: { role: "owner" } } }), /^body\.memberships\./);
    const boss = { memberships: { [admin.id]: { role: "boss" } } };
    expect((await call(admin.token, "PUT", `/teams/${team}/members`, boss)).status).toBe(400);
    expect((await client.getTeamInOrganizationById(ids)).members).toBe(1);
    await expect(
      client.addMemberToOrganizationTeamById({ ...ids, userId: outsider.id, body: { role: "member" } }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(
      (await call(admin.token, "PUT", `/teams/${team}/members/${admin.id}`, { role: "chief" })).status,
    ).toBe(400);
  });

  it("keeps Team.members and Member.teams true through adds, removes and deletions", async () => {
    const { admin, owner, reader, team, call, as } = await setup();
    const { client, org, team: ids } = as(admin);
    const count = async (teamId = team) =>
      (await client.getTeamInOrganizationById({ ...org, teamId })).members;
    const teams = async (userId: string) =>
      (await client.getMemberInOrganizationById({ ...org, userId })).teams;
    const update = (body: ClientInput<Operations["updateMembersInOrganizationTeam"]>["body"]) =>
      client.updateMembersInOrganizationTeam({ ...ids, body });

    expect(
      await update({ add: [admin.id, "READER@acme.test"], remove: ["reader@acme.test"] }),
    ).toBeUndefined();
    expect(await count()).toBe(2); // the owner and the admin; the reader was both added and removed
    expect(await teams(reader.id)).toBe(0);
    await update({ memberships: { [reader.id]: { role: "owner" } }, remove: [owner.id, "nobody@acme.test"] });
    expect(await count()).toBe(2);
    const list = await client.listTeamMembersInOrganizationById({ ...ids, limit: 1 });
    expect(list).toMatchObject({ count: 2, next: { page: expect.any(String) } });
    const page2 = await client.listTeamMembersInOrganizationById({ ...ids, limit: 1, page: list.next!.page });
    expect([...list.items, ...page2.items].map((item) => [item.organization.id, item.team.role])).toEqual([
      [admin.id, "member"],
      [reader.id, "owner"],
    ]);

    const second = (
      await client.createOrganizationTeam({ ...org, body: { title: "Second", members: [reader.id] } })
    ).id;
    expect(await teams(reader.id)).toBe(2);
    const memberTeams = await client.listTeamsForOrganizationMember({
      ...org,
      userId: reader.id,
      title: "sec",
    });
    expect(memberTeams.items.map((item) => item.team.id)).toEqual([second]);
    expect((await call(admin.token, "DELETE", `/teams/${second}`)).status).toBe(205);
    expect(await teams(reader.id)).toBe(1);
    expect((await call(admin.token, "DELETE", `/members/${reader.id}`)).status).toBe(205);
    expect(await count()).toBe(1);
    expect(await teams(admin.id)).toBe(1);
  });
});
