import { MemberRole, TeamMemberRole } from "@gitbook/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";
import { COVERAGE } from "./coverage.js";

describe.each(STORAGE_KINDS)("conformance: members and invites (%s)", (kind) => {
  let h: Harness;
  beforeAll(async () => {
    // A clock that ticks on every read, so members joining in one call get distinct join dates.
    let now = Date.parse("2025-01-01T00:00:00Z");
    h = await createHarness(kind, { clock: () => new Date((now += 1000)) });
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.members);
    h.expectConformant();
    await h.close();
  });

  it("invites users by email, lists, reads, updates and removes members", async () => {
    const admin = await h.test.createUser("Ada Admin", `ada-${kind}@acme.test`);
    const bob = await h.test.createUser("Bob Builder", `bob-${kind}@acme.test`);
    const carol = await h.test.createUser("Carol", `carol-${kind}@acme.test`);
    const org = (await h.test.as(admin).createOrganization({ body: { title: "Acme" } })).id;
    const api = h.client(admin.token);

    const { data: invited } = await api.orgs.inviteUsersToOrganization(org, {
      emails: [`BOB-${kind}@acme.test`, { email: `carol-${kind}@acme.test`, role: null }],
      role: MemberRole.Edit,
    });
    // Invitations are pending until accepted, and the answer does not tell who has an account.
    expect(invited).toEqual({ users: [], invited: 2 });
    const { data: unknown } = await api.orgs.inviteUsersToOrganization(org, { emails: ["nobody@acme.test"] });
    expect(unknown).toEqual({ users: [], invited: 1 });
    expect(await statusOf(api.orgs.inviteUsersToOrganization(org, { emails: ["not an email"] }))).toBe(400);
    expect((await api.orgs.listMembersInOrganizationById(org)).data.count).toBe(1);
    // Accepting is a docsbase extension, outside the official client.
    for (const user of [bob, carol]) {
      const [invite] = (await h.test.as(user).listUserInvites()).items;
      await h.test.as(user).acceptUserInvite({ invitationId: invite!.id });
    }

    const { data: list } = await api.orgs.listMembersInOrganizationById(org, { order: "asc" });
    expect(list.count).toBe(3);
    expect(list.items.map((member) => member.id)).toEqual([admin.id, bob.id, carol.id]);
    expect(list.items.map((member) => member.role)).toEqual(["admin", "edit", null]);
    const { data: guests } = await api.orgs.listMembersInOrganizationById(org, { role: "guest" });
    expect(guests.items.map((member) => member.id)).toEqual([carol.id]);
    const { data: found } = await api.orgs.listMembersInOrganizationById(org, {
      search: "builder",
      sort: "lastSeenAt",
      limit: 1,
    });
    expect(found.items.map((member) => member.id)).toEqual([bob.id]);

    const { data: member } = await api.orgs.getMemberInOrganizationById(org, bob.id);
    expect(member).toMatchObject({
      object: "member",
      id: bob.id,
      role: MemberRole.Edit,
      teams: 0,
      disabled: false,
    });
    expect(member.user).toMatchObject({ object: "user", id: bob.id, displayName: "Bob Builder" });

    const { data: updated } = await api.orgs.updateMemberInOrganizationById(org, bob.id, {
      role: MemberRole.Review,
    });
    expect(updated.role).toBe("review");
    expect(
      await statusOf(api.orgs.updateMemberInOrganizationById(org, admin.id, { role: MemberRole.Read })),
    ).toBe(409);

    const team = await h.test
      .as(admin)
      .createOrganizationTeam({ organizationId: org, body: { title: "Writers", members: [bob.id] } });
    const { data: teams } = await api.orgs.listTeamsForOrganizationMember(org, bob.id);
    expect(teams.items).toEqual([
      { team: expect.objectContaining({ id: team.id }), member: { role: TeamMemberRole.Member } },
    ]);

    expect((await api.orgs.removeMemberFromOrganizationById(org, bob.id)).status).toBe(205);
    expect((await api.orgs.removeMemberFromOrganizationById(org, bob.id)).status).toBe(204);
    expect(await statusOf(api.orgs.getMemberInOrganizationById(org, bob.id))).toBe(404);
    expect(await statusOf(h.client(bob.token).orgs.listMembersInOrganizationById(org))).toBe(404);
    expect(await statusOf(h.client(carol.token).orgs.listMembersInOrganizationById(org))).toBe(403);
  });

  it("creates, reads, updates, deletes and joins through invite links", async () => {
    const admin = await h.test.createUser("Link Admin", `links-${kind}@acme.test`);
    const joiner = await h.test.createUser("Joiner", `joiner-${kind}@elsewhere.test`);
    const org = (await h.test.as(admin).createOrganization({ body: { title: "Links" } })).id;
    const api = h.client(admin.token);

    const { data: invite, status } = await api.orgs.createOrganizationInvite(org, {
      role: MemberRole.Comment,
    });
    expect(status).toBe(201);
    expect(invite).toMatchObject({ object: "invite", role: MemberRole.Comment, redundant: true });
    expect(
      await statusOf(api.orgs.createOrganizationInvite(org, { level: MemberRole.Read, space: "some-space" })),
    ).toBe(400);

    const { data: links } = await api.orgs.listOrganizationInviteLinks(org);
    expect(links.items.map((link) => link.id)).toEqual([invite.id]);
    const { data: updated } = await api.orgs.updateOrganizationInviteById(org, invite.id, {
      role: MemberRole.Edit,
    });
    expect(updated).toMatchObject({ id: invite.id, role: MemberRole.Edit });

    const joinerApi = h.client(joiner.token);
    const { data: seen } = await joinerApi.orgs.getOrganizationInviteLink(org, invite.id);
    expect(seen).toMatchObject({ id: invite.id, role: MemberRole.Edit, redundant: false });
    const joined = await joinerApi.orgs.joinOrganizationWithInvite(org, invite.id);
    expect(joined.status).toBe(200);
    const { data: asMember } = await api.orgs.getMemberInOrganizationById(org, joiner.id);
    expect(asMember.role).toBe("edit");
    const { data: again } = await joinerApi.orgs.getOrganizationInviteLink(org, invite.id);
    expect(again.redundant).toBe(true);
    expect(await statusOf(joinerApi.orgs.joinOrganizationWithInvite(org, "missing"))).toBe(404);

    expect((await api.orgs.deleteOrganizationInviteById(org, invite.id)).status).toBe(205);
    expect((await api.orgs.deleteOrganizationInviteById(org, invite.id)).status).toBe(204);
    expect(await statusOf(api.orgs.getOrganizationInviteLink(org, invite.id))).toBe(404);
  });
});
