import { MemberRole } from "@gitbook/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";
import { COVERAGE } from "./coverage.js";

describe.each(STORAGE_KINDS)("conformance: permissions aggregates (%s)", (kind) => {
  let h: Harness;
  let org: string;
  let admin: { id: string; token: string };
  let reader: { id: string; token: string };
  let guest: { id: string; token: string };
  beforeAll(async () => {
    let now = Date.parse("2025-01-01T00:00:00Z");
    h = await createHarness(kind, { clock: () => new Date((now += 1000)) });
    admin = await h.test.createUser("Admin", `aggregate-admin-${kind}@acme.test`);
    reader = await h.test.createUser("Reader", `aggregate-reader-${kind}@acme.test`);
    guest = await h.test.createUser("Guest", `aggregate-guest-${kind}@acme.test`);
    org = (await h.test.as(admin).createOrganization({ body: { title: "Aggregates" } })).id;
    const api = h.client(admin.token);
    await api.orgs.inviteUsersToOrganization(org, {
      emails: [`aggregate-reader-${kind}@acme.test`, `aggregate-guest-${kind}@acme.test`],
      role: MemberRole.Read,
    });
    // Accepting is a docsbase extension, outside the official client.
    for (const user of [reader, guest]) {
      const [invite] = (await h.test.as(user).listUserInvites()).items;
      await h.test.as(user).acceptUserInvite({ invitationId: invite!.id });
    }
    await api.orgs.updateMemberInOrganizationById(org, guest.id, { role: null });
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.permissions_aggregate);
    h.expectConformant();
    await h.close();
  });

  it("lists the holders of a space and a collection, with their resolved role", async () => {
    const api = h.client(admin.token);
    const { data: collection } = await api.orgs.createCollection(org, { title: "Guides" });
    const { data: space } = await api.orgs.createSpace(org, { title: "Handbook", parent: collection.id });
    await api.collections.inviteToCollection(collection.id, { role: MemberRole.Edit, users: [guest.id] });

    const { data: holders } = await api.spaces.listPermissionsAggregateInSpace(space.id);
    expect(holders.items.map((item) => [item.user.id, item.permission])).toEqual([
      [admin.id, "admin"],
      [guest.id, "edit"],
      [reader.id, "read"],
    ]);
    const { data: editors } = await api.collections.listPermissionsAggregateInCollection(collection.id, {
      role: MemberRole.Edit,
    });
    expect(editors.items.map((item) => item.user.id)).toEqual([guest.id]);
    const { data: first } = await api.spaces.listPermissionsAggregateInSpace(space.id, { limit: 1 });
    const { data: second } = await api.spaces.listPermissionsAggregateInSpace(space.id, {
      limit: 1,
      page: first.next!.page,
    });
    expect(second.items.map((item) => item.user.id)).toEqual([guest.id]);

    expect(await statusOf(h.client(reader.token).spaces.listPermissionsAggregateInSpace(space.id))).toBe(403);
    expect(
      await statusOf(h.client(reader.token).collections.listPermissionsAggregateInCollection(collection.id)),
    ).toBe(403);
  });

  it("lists the holders of a site, with the space or organization that gave each role", async () => {
    const api = h.client(admin.token);
    const { data: space } = await api.orgs.createSpace(org, { title: "Published" });
    const { data: site } = await api.orgs.createSite(org, { title: "Docs" });
    await api.orgs.addSpaceToSite(org, site.id, { spaceId: space.id });
    await api.spaces.inviteToSpace(space.id, { role: MemberRole.Comment, users: [reader.id] });

    const { data: holders } = await api.orgs.listPermissionsAggregateInSite(org, site.id);
    expect(holders.items.map((item) => [item.user.id, item.permission, item.origin])).toEqual([
      [admin.id, "admin", { type: "organization", organization: org }],
      [reader.id, "comment", { type: "space", space: space.id }],
    ]);
    expect(await statusOf(h.client(reader.token).orgs.listPermissionsAggregateInSite(org, site.id))).toBe(
      403,
    );
  });

  it("lists the spaces a grant gives a member, and counts them on the member and the team", async () => {
    const api = h.client(admin.token);
    const { data: collection } = await api.orgs.createCollection(org, { title: "Team area" });
    const { data: space } = await api.orgs.createSpace(org, { title: "Team space", parent: collection.id });
    const { data: team } = await api.orgs.createOrganizationTeam(org, {
      title: "Guests",
      members: [guest.id],
    });
    await api.collections.inviteToCollection(collection.id, { role: MemberRole.Review, teams: [team.id] });

    const { data: spaces } = await api.orgs.listSpacesForOrganizationMember(org, guest.id);
    const listed = new Map(spaces.items.map((item) => [item.space.id, item.permission]));
    expect(listed.get(space.id)).toBe("review");
    const { data: asc } = await api.orgs.listSpacesForOrganizationMember(org, guest.id, {
      order: "asc",
      limit: 1,
    });
    expect(asc.items).toHaveLength(1);
    expect((await api.orgs.getTeamInOrganizationById(org, team.id)).data.spaces).toBe(1);
    expect((await api.orgs.getMemberInOrganizationById(org, guest.id)).data.spaces).toBe(spaces.count);
    expect(await statusOf(h.client(guest.token).orgs.listSpacesForOrganizationMember(org, guest.id))).toBe(
      403,
    );
  });
});
