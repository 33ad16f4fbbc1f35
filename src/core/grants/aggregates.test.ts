import { describe, expect, it } from "vitest";
import { createTypedWorkspace } from "../../../test/support/workspace.js";

/** (user id, permission) pairs of a page, in order. */
const pairs = (page: { items: readonly { permission: string; user: { id: string } }[] }) =>
  page.items.map((item) => [item.user.id, item.permission]);

describe("the permissions aggregate of a space and a collection", () => {
  it("lists every member with their resolved role, guests only where a grant reaches them", async () => {
    const workspace = await createTypedWorkspace();
    const reader = await workspace.member("read");
    const editor = await workspace.member("edit");
    const guest = await workspace.member(null);
    const ungranted = await workspace.member(null);
    const collection = await workspace.collection({ title: "Docs" });
    const space = await workspace.space({ title: "Handbook", parent: collection });
    const team = await workspace.client.createOrganizationTeam({
      organizationId: workspace.org,
      body: { title: "Writers", members: [reader.userId] },
    });
    await workspace.client.inviteToCollection({
      collectionId: collection,
      body: { role: "comment", users: [guest.userId] },
    });
    await workspace.client.inviteToSpace({ spaceId: space, body: { role: "review", teams: [team.id] } });

    const page = await workspace.client.listPermissionsAggregateInSpace({ spaceId: space });
    expect(page.count).toBe(4);
    const expected = [
      [workspace.owner.id, "admin"],
      [reader.userId, "review"],
      [editor.userId, "edit"],
      [guest.userId, "comment"],
    ];
    expect(pairs(page)).toEqual(expected);
    expect(page.items[0]!.user).toMatchObject({ object: "user", id: workspace.owner.id });
    expect(pairs(page)).not.toContainEqual([ungranted.userId, expect.anything()]);

    // The collection holds the guest's grant but not the team's, which is on the space below it.
    const above = await workspace.client.listPermissionsAggregateInCollection({ collectionId: collection });
    expect(pairs(above)).toEqual([
      [workspace.owner.id, "admin"],
      [editor.userId, "edit"],
      [guest.userId, "comment"],
      [reader.userId, "read"],
    ]);
  });

  it("filters by role and pages in the same order", async () => {
    const workspace = await createTypedWorkspace();
    const readers = [
      await workspace.member("read"),
      await workspace.member("read"),
      await workspace.member("read"),
    ];
    await workspace.member("edit");
    const space = await workspace.space({ title: "Handbook" });

    const onlyReaders = await workspace.client.listPermissionsAggregateInSpace({
      spaceId: space,
      role: "read",
    });
    const sorted = readers.map((reader) => reader.userId).sort();
    expect(onlyReaders.items.map((item) => item.user.id)).toEqual(sorted);
    expect(onlyReaders.count).toBe(3);

    const first = await workspace.client.listPermissionsAggregateInSpace({
      spaceId: space,
      limit: 2,
    });
    expect(first.count).toBe(5);
    const second = await workspace.client.listPermissionsAggregateInSpace({
      spaceId: space,
      limit: 2,
      page: first.next!.page,
    });
    const third = await workspace.client.listPermissionsAggregateInSpace({
      spaceId: space,
      limit: 2,
      page: second.next!.page,
    });
    expect(third.next).toBeUndefined();
    const all = await workspace.client.listPermissionsAggregateInSpace({ spaceId: space });
    expect([...first.items, ...second.items, ...third.items]).toEqual(all.items);

    const bad = await workspace.api("GET", `/spaces/${space}/permissions/aggregate?role=owner`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/role/);
  });

  it("needs admin on the object: 403 for a member without it, 404 for whoever cannot see it", async () => {
    const workspace = await createTypedWorkspace();
    const editor = await workspace.member("edit");
    const guest = await workspace.member(null);
    const collection = await workspace.collection({ title: "Docs" });
    const space = await workspace.space({ title: "Handbook", parent: collection });
    const path = `/spaces/${space}/permissions/aggregate`;
    const collectionPath = `/collections/${collection}/permissions/aggregate`;

    expect((await editor("GET", path)).status).toBe(403);
    expect((await editor("GET", collectionPath)).status).toBe(403);
    expect((await guest("GET", path)).status).toBe(404);
    expect((await workspace.outsider("GET", collectionPath)).status).toBe(404);

    // A grant of admin on the collection makes the editor an admin of both.
    await workspace.client.inviteToCollection({
      collectionId: collection,
      body: { role: "admin", users: [editor.userId] },
    });
    expect((await editor("GET", path)).status).toBe(200);
    expect((await editor("GET", collectionPath)).body.items).toContainEqual(
      expect.objectContaining({ permission: "admin", user: expect.objectContaining({ id: editor.userId }) }),
    );
  });
});
