import { describe, expect, it } from "vitest";
import { createTypedWorkspace } from "../../../test/support/workspace.js";

describe("the permissions aggregate of a site", () => {
  it("gives each user the strongest of their organization role and their roles on the site's spaces", async () => {
    const w = await createTypedWorkspace();
    const organizationId = w.org;
    const reader = await w.member("read");
    const editor = await w.member("edit");
    const guest = await w.member(null);
    const stranger = await w.member(null);
    const collection = await w.collection({ title: "Guides" });
    const first = await w.space({ title: "First" });
    const second = await w.space({ title: "Second", parent: collection });
    const elsewhere = await w.space({ title: "Not on the site" });
    const siteId = (await w.client.createSite({ organizationId, body: {} })).id;
    for (const spaceId of [first, second])
      await w.client.addSpaceToSite({ organizationId, siteId, body: { spaceId } });
    const team = await w.client.createOrganizationTeam({
      organizationId,
      body: { title: "T", members: [reader.userId] },
    });
    // The reader's team gets review through the collection above the second space.
    await w.client.inviteToCollection({
      collectionId: collection,
      body: { role: "review", teams: [team.id] },
    });
    // A comment grant gives the editor nothing more than their organization role.
    await w.client.inviteToSpace({ spaceId: first, body: { role: "comment", users: [editor.userId] } });
    await w.client.inviteToSpace({ spaceId: first, body: { role: "read", users: [guest.userId] } });
    await w.client.inviteToSpace({ spaceId: elsewhere, body: { role: "admin", users: [stranger.userId] } });

    const page = await w.client.listPermissionsAggregateInSite({ organizationId, siteId });
    const byOrganization = { type: "organization", organization: organizationId };
    expect(page.items.map((item) => [item.user.id, item.permission, item.origin])).toEqual([
      [w.owner.id, "admin", byOrganization],
      [reader.userId, "review", { type: "space", space: second }],
      [editor.userId, "edit", byOrganization],
      [guest.userId, "read", { type: "space", space: first }],
    ]);
    expect(page.count).toBe(4);

    const one = await w.client.listPermissionsAggregateInSite({ organizationId, siteId, limit: 1 });
    const two = await w.client.listPermissionsAggregateInSite({
      organizationId,
      siteId,
      limit: 3,
      page: one.next!.page,
    });
    expect([...one.items, ...two.items]).toEqual(page.items);
    expect(two.next).toBeUndefined();
  });

  it("needs site admin: 403 for a member, 404 for a guest or an outsider", async () => {
    const w = await createTypedWorkspace();
    const siteId = (await w.client.createSite({ organizationId: w.org, body: {} })).id;
    const path = `/orgs/${w.org}/sites/${siteId}/permissions/aggregate`;
    expect((await (await w.member("edit"))("GET", path)).status).toBe(403);
    expect((await (await w.member(null))("GET", path)).status).toBe(404);
    expect((await w.outsider("GET", path)).status).toBe(404);
    expect((await w.api("GET", `/orgs/${w.org}/sites/nope/permissions/aggregate`)).status).toBe(404);
    expect((await w.api("GET", `${path}?limit=-1`)).status).toBe(400);
  });
});
