import { describe, expect, it } from "vitest";
import { createTypedWorkspace } from "../../../test/support/workspace.js";

/** A workspace with a collection holding a space, a guest, an `edit` member and a team. */
async function setup() {
  const workspace = await createTypedWorkspace();
  const collection = await workspace.collection({ title: "Handbook" });
  const space = await workspace.space({ title: "Inside", parent: collection });
  const guest = await workspace.member(null);
  const editor = await workspace.member("edit");
  const team = (
    await workspace.client.createOrganizationTeam({ organizationId: workspace.org, body: { title: "Docs" } })
  ).id;
  return { ...workspace, collection, space, guest, editor, team };
}

describe("grant operations", () => {
  it("invites users and teams, lists the object's own grants, updates and removes them", async () => {
    const { client, space, collection, guest, team } = await setup();
    await client.inviteToCollection({
      collectionId: collection,
      body: { role: "read", users: [guest.userId] },
    });
    await client.inviteToSpace({
      spaceId: space,
      body: { role: "edit", users: [guest.userId], teams: [team] },
    });

    const users = await client.listUserPermissionsInSpace({ spaceId: space });
    expect(users).toMatchObject({ count: 1, items: [{ permission: "edit", user: { id: guest.userId } }] });
    const teams = await client.listTeamPermissionsInSpace({ spaceId: space });
    expect(teams).toMatchObject({
      count: 1,
      items: [{ permission: "edit", team: { id: team, object: "team" } }],
    });
    // The collection's list shows its own grant only, not the space's.
    const onCollection = await client.listUserPermissionsInCollection({ collectionId: collection });
    expect(onCollection.items.map((item) => item.permission)).toEqual(["read"]);

    await client.updateUserPermissionInSpace({
      spaceId: space,
      userId: guest.userId,
      body: { role: "admin" },
    });
    expect((await guest.client.getSpaceById({ spaceId: space })).permissions.admin).toBe(true);
    // `null` removes the grant; what the collection gives remains.
    await client.updateUserPermissionInSpace({ spaceId: space, userId: guest.userId, body: { role: null } });
    expect((await client.listUserPermissionsInSpace({ spaceId: space })).count).toBe(0);
    expect((await guest.client.getSpaceById({ spaceId: space })).permissions).toMatchObject({
      view: true,
      admin: false,
    });
    await client.updateTeamPermissionInCollection({
      collectionId: collection,
      teamId: team,
      body: { role: "comment" },
    });
    expect((await client.listTeamPermissionsInCollection({ collectionId: collection })).count).toBe(1);
    await client.inviteToCollection({ collectionId: collection, body: { role: null, teams: [team] } });
    expect((await client.listTeamPermissionsInCollection({ collectionId: collection })).count).toBe(0);
  });

  it("pages the lists, oldest grant first, keeping a grant's place when its role changes", async () => {
    const workspace = await setup();
    const { client, space } = workspace;
    const members = [
      await workspace.member(null),
      await workspace.member("read"),
      await workspace.member(null),
    ];
    for (const member of members) {
      await client.inviteToSpace({ spaceId: space, body: { role: "read", users: [member.userId] } });
    }
    await client.updateUserPermissionInSpace({
      spaceId: space,
      userId: members[0]!.userId,
      body: { role: "edit" },
    });
    const first = await client.listUserPermissionsInSpace({ spaceId: space, limit: 2 });
    expect(first.count).toBe(3);
    const second = await client.listUserPermissionsInSpace({
      spaceId: space,
      limit: 2,
      page: first.next!.page,
    });
    expect([...first.items, ...second.items].map((item) => [item.user.id, item.permission])).toEqual([
      [members[0]!.userId, "edit"],
      [members[1]!.userId, "read"],
      [members[2]!.userId, "read"],
    ]);
  });

  it("answers 400 naming the field for users and teams outside the organization, writing nothing", async () => {
    const { api, space, guest, outsider, organization, client } = await setup();
    const elsewhere = await organization("Elsewhere");
    const foreignTeam = (
      await client.createOrganizationTeam({ organizationId: elsewhere, body: { title: "X" } })
    ).id;
    const cases: [object, string][] = [
      [{ role: "read", users: [guest.userId, outsider.userId] }, "body.users.1"],
      [{ role: "read", teams: [foreignTeam] }, "body.teams.0"],
      [{ role: "read" }, "body"],
      [{ role: "owner", users: [guest.userId] }, "body.role"],
      [{ role: "read", users: [] }, "body.users"],
    ];
    for (const [body, field] of cases) {
      const answer = await api("POST", `/spaces/${space}/permissions`, body);
      expect({ status: answer.status, field: answer.body.error.message.split(":")[0] }).toEqual({
        status: 400,
        field,
      });
    }
    expect((await client.listUserPermissionsInSpace({ spaceId: space })).count).toBe(0);
    const update = await api("PATCH", `/spaces/${space}/permissions/users/${outsider.userId}`, {
      role: "read",
    });
    expect(update.status).toBe(404);
    const team = await api("PATCH", `/spaces/${space}/permissions/teams/${foreignTeam}`, { role: "read" });
    expect(team.status).toBe(404);
    expect((await api("PATCH", `/spaces/${space}/permissions/users/${guest.userId}`, {})).status).toBe(400);
  });

  it("lets the object's admins manage grants, its viewers list them, and hides it from others", async () => {
    const { space, collection, guest, editor, outsider, client } = await setup();
    const body = { role: "read" as const, users: [guest.userId] };
    expect((await editor("POST", `/spaces/${space}/permissions`, body)).status).toBe(403);
    expect((await editor("POST", `/collections/${collection}/permissions`, body)).status).toBe(403);
    expect((await editor("GET", `/spaces/${space}/permissions/users`)).status).toBe(200);
    expect((await guest("GET", `/spaces/${space}/permissions/users`)).status).toBe(404);
    expect((await outsider("GET", `/collections/${collection}/permissions/teams`)).status).toBe(404);
    // A grant of admin on the collection makes its holder manage the grants of what is inside.
    await client.inviteToCollection({
      collectionId: collection,
      body: { role: "admin", users: [editor.userId] },
    });
    await editor.client.inviteToSpace({ spaceId: space, body });
    expect((await guest.client.getSpaceById({ spaceId: space })).permissions.view).toBe(true);
  });
});

describe("grants and transfers", () => {
  it("drops the grants on content, and on all it carries, when it changes organization", async () => {
    const w = await createTypedWorkspace();
    const { client } = w;
    // A reader of both organizations, given admin on the content in the first one.
    const reader = await w.member("read");
    const other = await w.organization("Elsewhere");
    await w.join(reader.userId, "read", other);
    const shelf = await w.collection({ title: "Shelf" });
    const inner = await w.space({ title: "Inner", parent: shelf });
    const loose = await w.space({ title: "Loose" });
    await client.inviteToCollection({ collectionId: shelf, body: { role: "admin", users: [reader.userId] } });
    await client.inviteToSpace({ spaceId: inner, body: { role: "edit", users: [reader.userId] } });
    await client.inviteToSpace({ spaceId: loose, body: { role: "admin", users: [reader.userId] } });
    const adminOf = async (spaceId: string) =>
      (await reader.client.getSpaceById({ spaceId })).permissions.admin;
    expect([await adminOf(inner), await adminOf(loose)]).toEqual([true, true]);

    await client.transferCollection({ collectionId: shelf, body: { organization: other } });
    await client.transferSpace({ spaceId: loose, body: { organization: other } });
    // In the new organization the reader has what it gives them: read.
    expect([await adminOf(inner), await adminOf(loose)]).toEqual([false, false]);
    const empty = { count: 0, items: [] };
    expect(await client.listUserPermissionsInCollection({ collectionId: shelf })).toEqual(empty);
    expect(await client.listUserPermissionsInSpace({ spaceId: inner })).toEqual(empty);
    expect(await client.listUserPermissionsInSpace({ spaceId: loose })).toEqual(empty);
  });
});
