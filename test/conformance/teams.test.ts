import { MemberRole, TeamMemberRole } from "@gitbook/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";
import { COVERAGE } from "./coverage.js";

describe.each(STORAGE_KINDS)("conformance: teams (%s)", (kind) => {
  let h: Harness;
  beforeAll(async () => {
    let now = Date.parse("2025-01-01T00:00:00Z");
    h = await createHarness(kind, { clock: () => new Date((now += 1000)) });
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.teams);
    h.expectConformant();
    await h.close();
  });

  it("creates, lists, reads, renames and deletes teams and manages their members", async () => {
    const admin = await h.test.createUser("Admin", `team-admin-${kind}@acme.test`);
    const owner = await h.test.createUser("Owner", `team-owner-${kind}@acme.test`);
    const writer = await h.test.createUser("Writer", `team-writer-${kind}@acme.test`);
    const org = (await h.test.as(admin).createOrganization({ body: { title: "Teams" } })).id;
    const api = h.client(admin.token);
    await api.orgs.inviteUsersToOrganization(org, {
      emails: [`team-owner-${kind}@acme.test`, `team-writer-${kind}@acme.test`],
      role: MemberRole.Read,
    });
    // Accepting is a docsbase extension, outside the official client.
    for (const user of [owner, writer]) {
      const [invite] = (await h.test.as(user).listUserInvites()).items;
      await h.test.as(user).acceptUserInvite({ invitationId: invite!.id });
    }

    const { data: team, status } = await api.orgs.createOrganizationTeam(org, {
      title: "Docs",
      members: [owner.id],
    });
    expect(status).toBe(201);
    expect(team).toMatchObject({ object: "team", title: "Docs", members: 1, spaces: 0 });
    expect(team.permissions).toEqual({ admin: true, view: true });
    expect(await statusOf(api.orgs.createOrganizationTeam(org, { title: "" }))).toBe(400);
    const { data: other } = await api.orgs.createOrganizationTeam(org, { title: "Support" });

    await api.orgs.addMemberToOrganizationTeamById(org, team.id, owner.id, { role: TeamMemberRole.Owner });
    await api.orgs.updateMembersInOrganizationTeam(org, team.id, {
      add: [`team-writer-${kind}@acme.test`],
      memberships: { [writer.id]: { role: TeamMemberRole.Member } },
    });
    const { data: members } = await api.orgs.listTeamMembersInOrganizationById(org, team.id);
    expect(members.items.map((item) => [item.organization.id, item.team.role])).toEqual([
      [owner.id, "owner"],
      [writer.id, "member"],
    ]);
    expect(members.items[0]!.permissions).toEqual({ view: true });

    const ownerApi = h.client(owner.token);
    const { data: renamed } = await ownerApi.orgs.updateTeamInOrganizationById(org, team.id, {
      title: "Doc writers",
    });
    expect(renamed).toMatchObject({
      title: "Doc writers",
      members: 2,
      permissions: { admin: true, view: true },
    });
    expect(await statusOf(ownerApi.orgs.updateTeamInOrganizationById(org, other.id, { title: "Mine" }))).toBe(
      403,
    );

    const { data: owned } = await api.orgs.listTeamsInOrganizationById(org, { owner: owner.id });
    expect(owned.items.map((item) => item.id)).toEqual([team.id]);
    const { data: all } = await ownerApi.orgs.listTeamsInOrganizationById(org, { title: "SUPP" });
    expect(all.items.map((item) => item.id)).toEqual([other.id]);
    const { data: read } = await ownerApi.orgs.getTeamInOrganizationById(org, other.id);
    expect(read.permissions).toEqual({ admin: false, view: true });

    expect((await ownerApi.orgs.deleteMemberFromOrganizationTeamById(org, team.id, writer.id)).status).toBe(
      205,
    );
    expect((await ownerApi.orgs.deleteMemberFromOrganizationTeamById(org, team.id, writer.id)).status).toBe(
      204,
    );
    expect(await statusOf(ownerApi.orgs.removeTeamFromOrganizationById(org, team.id))).toBe(403);
    expect((await api.orgs.removeTeamFromOrganizationById(org, team.id)).status).toBe(205);
    expect((await api.orgs.removeTeamFromOrganizationById(org, team.id)).status).toBe(204);
    expect(await statusOf(api.orgs.getTeamInOrganizationById(org, team.id))).toBe(404);
  });
});
