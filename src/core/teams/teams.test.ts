import { describe, expect, it } from "vitest";
import { createTestDocsbase } from "../../testing/double.js";

/** An organization with an admin, a team owner, a reader and a guest, and one team "Docs". */
async function setup() {
  let now = Date.parse("2025-01-01T00:00:00Z");
  const test = await createTestDocsbase({ clock: () => new Date((now += 1000)) });
  const admin = await test.createUser("Admin", "admin@acme.test");
  const org: string = (await test.request("POST", "/orgs", { token: admin.token, body: { title: "Acme" } }))
    .body.id;
  const owner = await test.createUser("Owner", "owner@acme.test");
  const reader = await test.createUser("Reader", "reader@acme.test");
  const guest = await test.createUser("Guest", "guest@acme.test");
  await test.request("POST", `/orgs/${org}/invites`, {
    token: admin.token,
    body: { emails: ["owner@acme.test", "reader@acme.test", { email: "guest@acme.test", role: null }] },
  });
  for (const { token } of [owner, reader, guest]) {
    const [invite] = (await test.request("GET", "/user/invites", { token })).body.items;
    await test.request("POST", `/user/invites/${invite.id}/accept`, { token });
  }
  const call = (token: string, method: string, path: string, body?: unknown) =>
    test.request(method, `/orgs/${org}${path}`, { token, ...(body !== undefined ? { body } : {}) });
  const team: string = (await call(admin.token, "PUT", "/teams", { title: "Docs", members: [owner.id] })).body
    .id;
  await call(admin.token, "PUT", `/teams/${team}/members/${owner.id}`, { role: "owner" });
  return { test, org, admin, owner, reader, guest, team, call };
}

describe("teams: roles", () => {
  it("lets a read member view teams but not manage them", async () => {
    const { reader, team, call } = await setup();
    expect((await call(reader.token, "GET", "/teams")).body.items[0].permissions).toEqual({
      admin: false,
      view: true,
    });
    expect((await call(reader.token, "GET", `/teams/${team}/members`)).status).toBe(200);
    expect((await call(reader.token, "PUT", "/teams", { title: "Mine" })).status).toBe(403);
    expect((await call(reader.token, "PATCH", `/teams/${team}`, { title: "Renamed" })).status).toBe(403);
    expect((await call(reader.token, "PUT", `/teams/${team}/members/${reader.id}`, {})).status).toBe(403);
    expect((await call(reader.token, "PUT", `/teams/${team}/members`, { add: [reader.id] })).status).toBe(
      403,
    );
    expect((await call(reader.token, "DELETE", `/teams/${team}`)).status).toBe(403);
    expect((await call(reader.token, "GET", `/teams/${team}`)).body).toMatchObject({
      title: "Docs",
      members: 1,
    });
  });

  it("lets a team owner manage their team, not others, and not delete it", async () => {
    const { admin, owner, reader, team, call } = await setup();
    const other: string = (await call(admin.token, "PUT", "/teams", { title: "Other" })).body.id;
    expect((await call(owner.token, "GET", `/teams/${team}`)).body.permissions).toEqual({
      admin: true,
      view: true,
    });
    expect((await call(owner.token, "GET", `/teams/${other}`)).body.permissions).toEqual({
      admin: false,
      view: true,
    });
    expect((await call(owner.token, "PATCH", `/teams/${team}`, { title: "Docs team" })).status).toBe(200);
    expect(
      (await call(owner.token, "PUT", `/teams/${team}/members/${reader.id}`, { role: "owner" })).status,
    ).toBe(204);
    expect((await call(owner.token, "DELETE", `/teams/${team}/members/${reader.id}`)).status).toBe(205);
    expect((await call(owner.token, "PATCH", `/teams/${other}`, { title: "Taken" })).status).toBe(403);
    expect((await call(owner.token, "PUT", `/teams/${other}/members/${owner.id}`, {})).status).toBe(403);
    expect((await call(owner.token, "DELETE", `/teams/${team}`)).status).toBe(403);
    // `ownTeam` on the organization tells the same story.
    expect((await call(owner.token, "GET", "")).body.permissions.ownTeam).toBe(true);
    expect((await call(reader.token, "GET", "")).body.permissions.ownTeam).toBe(false);
  });

  it("lets a team member leave the team", async () => {
    const { admin, reader, team, call } = await setup();
    await call(admin.token, "PUT", `/teams/${team}/members/${reader.id}`, {});
    expect((await call(reader.token, "DELETE", `/teams/${team}/members/${reader.id}`)).status).toBe(205);
    expect((await call(reader.token, "DELETE", `/teams/${team}/members/${reader.id}`)).status).toBe(204);
  });

  it("hides teams from guests (403) and non-members (404)", async () => {
    const { test, admin, guest, team, call } = await setup();
    expect((await call(guest.token, "GET", "")).body.permissions.listTeams).toBe(false);
    expect((await call(guest.token, "GET", "/teams")).status).toBe(403);
    expect((await call(guest.token, "GET", `/teams/${team}`)).status).toBe(403);
    expect((await call(guest.token, "GET", `/teams/${team}/members`)).status).toBe(403);
    expect((await call(guest.token, "GET", `/members/${admin.id}/teams`)).status).toBe(403);
    const stranger = await test.createUser("Stranger");
    for (const [method, path] of [
      ["GET", "/teams"],
      ["GET", `/teams/${team}`],
      ["PATCH", `/teams/${team}`],
      ["DELETE", `/teams/${team}`],
      ["GET", `/teams/${team}/members`],
    ] as const) {
      const body = method === "PATCH" ? { title: "x" } : undefined;
      expect((await call(stranger.token, method, path, body)).status, `${method} ${path}`).toBe(404);
    }
    expect((await call(admin.token, "GET", "/teams/unknown")).status).toBe(404);
  });

  it("lets a guest who owns a team see and manage that team only", async () => {
    const { admin, guest, team, call } = await setup();
    await call(admin.token, "PUT", `/teams/${team}/members/${guest.id}`, { role: "owner" });
    expect((await call(guest.token, "GET", `/teams/${team}`)).body.permissions).toEqual({
      admin: true,
      view: true,
    });
    expect((await call(guest.token, "PATCH", `/teams/${team}`, { title: "Guests" })).status).toBe(200);
    expect((await call(guest.token, "GET", `/teams/${team}/members`)).status).toBe(200);
    expect((await call(guest.token, "GET", "/teams")).status).toBe(403);
  });

  it("filters teams by the member who can manage them and by title", async () => {
    const { admin, owner, reader, team, call } = await setup();
    const other: string = (await call(admin.token, "PUT", "/teams", { title: "Support desk" })).body.id;
    const ids = async (query: string) =>
      (await call(reader.token, "GET", `/teams?${query}`)).body.items.map((item: { id: string }) => item.id);
    expect(await ids(`owner=${owner.id}`)).toEqual([team]);
    expect(await ids(`owner=${admin.id}`)).toEqual([team, other]);
    expect(await ids(`owner=${reader.id}`)).toEqual([]);
    expect(await ids("title=DESK")).toEqual([other]);
    expect(await ids(`title=o&owner=${owner.id}`)).toEqual([team]);
    const unknown = await call(reader.token, "GET", "/teams?owner=nobody");
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/^query\.owner/);
  });
});

describe("teams: input and counts", () => {
  it("refuses bad input with 400 naming the field, changing nothing", async () => {
    const { test, admin, team, call } = await setup();
    const outsider = await test.createUser("Outsider", "outsider@acme.test");
    for (const body of [{}, { title: "" }, { title: "x".repeat(65) }]) {
      expect((await call(admin.token, "PUT", "/teams", body)).body.error.message).toMatch(/^body\.title/);
    }
    const bad = await call(admin.token, "PUT", "/teams", { title: "T", members: [admin.id, outsider.id] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^body\.members\.1: /);
    expect((await call(admin.token, "GET", "/teams")).body.count).toBe(1);
    expect((await call(admin.token, "PATCH", `/teams/${team}`, { title: "" })).status).toBe(400);

    const update = (body: unknown) => call(admin.token, "PUT", `/teams/${team}/members`, body);
    const added = await update({ add: [admin.id, "outsider@acme.test"] });
    expect(added.body.error.message).toMatch(/^body\.add\.1: /);
    expect((await update({ memberships: { [outsider.id]: { role: "owner" } } })).body.error.message).toMatch(
      /^body\.memberships\./,
    );
    expect((await update({ memberships: { [admin.id]: { role: "boss" } } })).status).toBe(400);
    expect((await call(admin.token, "GET", `/teams/${team}`)).body.members).toBe(1);
    const path = `/teams/${team}/members/${outsider.id}`;
    expect((await call(admin.token, "PUT", path, { role: "member" })).status).toBe(404);
    expect(
      (await call(admin.token, "PUT", `/teams/${team}/members/${admin.id}`, { role: "chief" })).status,
    ).toBe(400);
  });

  it("keeps Team.members and Member.teams true through adds, removes and deletions", async () => {
    const { admin, owner, reader, team, call } = await setup();
    const count = async (id = team) => (await call(admin.token, "GET", `/teams/${id}`)).body.members;
    const teams = async (user: string) => (await call(admin.token, "GET", `/members/${user}`)).body.teams;
    const update = (body: unknown) => call(admin.token, "PUT", `/teams/${team}/members`, body);

    expect(await update({ add: [admin.id, "READER@acme.test"], remove: ["reader@acme.test"] })).toMatchObject(
      {
        status: 204,
      },
    );
    expect(await count()).toBe(2); // the owner and the admin; the reader was both added and removed
    expect(await teams(reader.id)).toBe(0);
    await update({ memberships: { [reader.id]: { role: "owner" } }, remove: [owner.id, "nobody@acme.test"] });
    expect(await count()).toBe(2);
    const list = await call(admin.token, "GET", `/teams/${team}/members?limit=1`);
    expect(list.body).toMatchObject({ count: 2, next: { page: expect.any(String) } });
    const page2 = await call(
      admin.token,
      "GET",
      `/teams/${team}/members?limit=1&page=${list.body.next.page}`,
    );
    expect(
      [...list.body.items, ...page2.body.items].map((item) => [item.organization.id, item.team.role]),
    ).toEqual([
      [admin.id, "member"],
      [reader.id, "owner"],
    ]);

    const second: string = (
      await call(admin.token, "PUT", "/teams", { title: "Second", members: [reader.id] })
    ).body.id;
    expect(await teams(reader.id)).toBe(2);
    const memberTeams = await call(admin.token, "GET", `/members/${reader.id}/teams?title=sec`);
    expect(memberTeams.body.items.map((item: { team: { id: string } }) => item.team.id)).toEqual([second]);
    expect((await call(admin.token, "DELETE", `/teams/${second}`)).status).toBe(205);
    expect(await teams(reader.id)).toBe(1);
    expect((await call(admin.token, "DELETE", `/members/${reader.id}`)).status).toBe(205);
    expect(await count()).toBe(1);
    expect(await teams(admin.id)).toBe(1);
  });
});
