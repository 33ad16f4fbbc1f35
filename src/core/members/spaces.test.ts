import { describe, expect, it } from "vitest";
import { createTypedWorkspace } from "../../../test/support/workspace.js";

describe("a member's spaces", () => {
  it("lists the spaces a grant gives the member, through their teams and collections too", async () => {
    const w = await createTypedWorkspace();
    const organizationId = w.org;
    const guest = await w.member(null);
    const reader = await w.member("read");
    const top = await w.collection({ title: "Top" });
    const inner = await w.collection({ title: "Inner", parent: top });
    w.advance(1000);
    const deep = await w.space({ title: "Deep", parent: inner });
    w.advance(1000);
    const direct = await w.space({ title: "Direct" });
    w.advance(1000);
    const ungranted = await w.space({ title: "Ungranted" });
    const team = await w.client.createOrganizationTeam({
      organizationId,
      body: { title: "Guests", members: [guest.userId] },
    });
    await w.client.inviteToCollection({ collectionId: top, body: { role: "comment", teams: [team.id] } });
    await w.client.inviteToSpace({ spaceId: direct, body: { role: "edit", users: [guest.userId] } });
    await w.client.inviteToSpace({ spaceId: deep, body: { role: "review", users: [reader.userId] } });

    const page = await w.client.listSpacesForOrganizationMember({ organizationId, userId: guest.userId });
    // Newest first by default.
    expect(page.items.map((item) => [item.space.id, item.permission])).toEqual([
      [direct, "edit"],
      [deep, "comment"],
    ]);
    // The space is shown as the caller (an admin) sees it.
    expect(page.items[0]!.space.permissions.admin).toBe(true);
    const oldest = await w.client.listSpacesForOrganizationMember({
      organizationId,
      userId: guest.userId,
      order: "asc",
      limit: 1,
    });
    expect(oldest.items.map((item) => item.space.id)).toEqual([deep]);
    const rest = await w.client.listSpacesForOrganizationMember({
      organizationId,
      userId: guest.userId,
      order: "asc",
      page: oldest.next!.page,
    });
    expect(rest.items.map((item) => item.space.id)).toEqual([direct]);
    expect(rest.next).toBeUndefined();

    // A non-guest's listed role is the resolved one; only granted spaces are listed.
    const readers = await w.client.listSpacesForOrganizationMember({ organizationId, userId: reader.userId });
    expect(readers.items.map((item) => [item.space.id, item.permission])).toEqual([[deep, "review"]]);
    expect(readers.items.map((item) => item.space.id)).not.toContain(ungranted);

    // The counts on members and teams follow the same grants.
    expect(
      (await w.client.getMemberInOrganizationById({ organizationId, userId: guest.userId })).spaces,
    ).toBe(2);
    expect((await w.client.getTeamInOrganizationById({ organizationId, teamId: team.id })).spaces).toBe(1);
    // A non-guest still counts every space they can view.
    expect(
      (await w.client.getMemberInOrganizationById({ organizationId, userId: reader.userId })).spaces,
    ).toBe(3);
  });

  it("refuses guests and outsiders, and answers 404 for a user who is not a member", async () => {
    const w = await createTypedWorkspace();
    const guest = await w.member(null);
    const reader = await w.member("read");
    const path = `/orgs/${w.org}/members/${reader.userId}/spaces`;
    expect((await reader("GET", path)).status).toBe(200);
    expect((await guest("GET", path)).status).toBe(403);
    expect((await w.outsider("GET", path)).status).toBe(404);
    expect((await w.api("GET", `/orgs/${w.org}/members/${w.outsider.userId}/spaces`)).status).toBe(404);
    const bad = await w.api("GET", `${path}?order=sideways`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/order/);
  });
});
