import { MemberRole } from "@gitbook/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";
import { COVERAGE } from "./coverage.js";

describe.each(STORAGE_KINDS)("conformance: permissions on spaces and collections (%s)", (kind) => {
  let h: Harness;
  beforeAll(async () => {
    let now = Date.parse("2025-01-01T00:00:00Z");
    h = await createHarness(kind, { clock: () => new Date((now += 1000)) });
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.permissions);
    h.expectConformant();
    await h.close();
  });

  it("grants users and teams roles on a collection and a space, lists, updates and removes them", async () => {
    const admin = await h.test.createUser("Admin", `perm-admin-${kind}@acme.test`);
    const guest = await h.test.createUser("Guest", `perm-guest-${kind}@acme.test`);
    const org = (await h.test.as(admin).createOrganization({ body: { title: "Grants" } })).id;
    const api = h.client(admin.token);
    await api.orgs.inviteUsersToOrganization(org, { emails: [`perm-guest-${kind}@acme.test`], role: null });
    const [invite] = (await h.test.as(guest).listUserInvites()).items;
    await h.test.as(guest).acceptUserInvite({ invitationId: invite!.id });
    const { data: team } = await api.orgs.createOrganizationTeam(org, { title: "Partners" });
    const { data: collection } = await api.orgs.createCollection(org, { title: "Handbook" });
    const { data: space } = await api.orgs.createSpace(org, { title: "Inside", parent: collection.id });
    const guestApi = h.client(guest.token);
    expect(await statusOf(guestApi.spaces.getSpaceById(space.id))).toBe(404);

    // A collection grant flows to the space inside it.
    const invited = await api.collections.inviteToCollection(collection.id, {
      role: MemberRole.Read,
      users: [guest.id],
    });
    expect(invited.status).toBe(204);
    expect((await guestApi.spaces.getSpaceById(space.id)).data.permissions.view).toBe(true);
    expect((await guestApi.spaces.getSpaceById(space.id)).data.permissions.edit).toBe(false);
    await api.collections.inviteToCollection(collection.id, { role: MemberRole.Comment, teams: [team.id] });
    const { data: users } = await api.collections.listUserPermissionsInCollection(collection.id);
    expect(users.items.map((item) => [item.user.id, item.permission])).toEqual([[guest.id, "read"]]);
    const { data: teams } = await api.collections.listTeamPermissionsInCollection(collection.id);
    expect(teams.items.map((item) => [item.team.id, item.permission])).toEqual([[team.id, "comment"]]);
    await api.collections.updateUserPermissionInCollection(collection.id, guest.id, {
      role: MemberRole.Edit,
    });
    expect((await guestApi.spaces.getSpaceById(space.id)).data.permissions.edit).toBe(true);
    await api.collections.updateTeamPermissionInCollection(collection.id, team.id, { role: MemberRole.Read });
    expect(
      await statusOf(
        guestApi.collections.inviteToCollection(collection.id, { role: MemberRole.Read, teams: [team.id] }),
      ),
    ).toBe(403);
    expect(
      await statusOf(
        api.collections.inviteToCollection(collection.id, { role: MemberRole.Read, users: ["nobody"] }),
      ),
    ).toBe(400);
    expect((await api.collections.removeUserFromCollection(collection.id, guest.id)).status).toBe(205);
    expect((await api.collections.removeUserFromCollection(collection.id, guest.id)).status).toBe(204);
    expect((await api.collections.removeTeamFromCollection(collection.id, team.id)).status).toBe(205);
    expect((await api.collections.removeTeamFromCollection(collection.id, team.id)).status).toBe(204);
    expect(await statusOf(guestApi.spaces.getSpaceById(space.id))).toBe(404);

    // The same on the space itself.
    expect(
      (await api.spaces.inviteToSpace(space.id, { role: MemberRole.Admin, users: [guest.id] })).status,
    ).toBe(204);
    expect((await guestApi.spaces.getSpaceById(space.id)).data.permissions.admin).toBe(true);
    await guestApi.spaces.inviteToSpace(space.id, { role: MemberRole.Review, teams: [team.id] });
    const { data: spaceUsers } = await guestApi.spaces.listUserPermissionsInSpace(space.id);
    expect(spaceUsers.items.map((item) => [item.user.id, item.permission])).toEqual([[guest.id, "admin"]]);
    const { data: spaceTeams } = await api.spaces.listTeamPermissionsInSpace(space.id);
    expect(spaceTeams.items.map((item) => [item.team.id, item.permission])).toEqual([[team.id, "review"]]);
    await api.spaces.updateTeamPermissionInSpace(space.id, team.id, { role: null });
    expect((await api.spaces.listTeamPermissionsInSpace(space.id)).data.count).toBe(0);
    await api.spaces.updateUserPermissionInSpace(space.id, guest.id, { role: MemberRole.Read });
    expect((await guestApi.spaces.getSpaceById(space.id)).data.permissions.admin).toBe(false);
    await api.spaces.updateTeamPermissionInSpace(space.id, team.id, { role: MemberRole.Edit });
    expect((await api.spaces.removeTeamFromSpace(space.id, team.id)).status).toBe(205);
    expect((await api.spaces.removeTeamFromSpace(space.id, team.id)).status).toBe(204);
    expect((await api.spaces.removeUserFromSpace(space.id, guest.id)).status).toBe(205);
    expect((await api.spaces.removeUserFromSpace(space.id, guest.id)).status).toBe(204);
    expect(await statusOf(guestApi.spaces.getSpaceById(space.id))).toBe(404);
  });
});
