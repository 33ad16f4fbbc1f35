import { describe, expect, it } from "vitest";
import { createTypedWorkspace } from "../../../test/support/workspace.js";

/** An organization with a granted space, a granted collection tree and content outside both. */
async function setup() {
  const workspace = await createTypedWorkspace();
  const { client } = workspace;
  const guest = await workspace.member(null);
  const shared = await workspace.space({ title: "Shared" });
  const hidden = await workspace.space({ title: "Hidden" });
  const top = await workspace.collection({ title: "Top" });
  const nested = await workspace.collection({ title: "Nested", parent: top });
  const deep = await workspace.space({ title: "Deep", parent: nested });
  const outside = await workspace.collection({ title: "Outside" });
  await workspace.space({ title: "Elsewhere", parent: outside });
  for (const spaceId of [shared, hidden, deep]) {
    await client.createPage({ spaceId, body: { title: "Travel", markdown: "Book trains early." } });
  }
  return { ...workspace, guest, shared, hidden, top, nested, deep };
}

describe("lists follow the resolution", () => {
  it("shows a guest exactly the spaces and collections granted, and what granted collections hold", async () => {
    const { client, guest, org, shared, top, titles } = await setup();
    const organizationId = org;
    expect(await titles(guest.client.listSpacesInOrganizationById({ organizationId }))).toEqual([]);
    await client.inviteToSpace({ spaceId: shared, body: { role: "read", users: [guest.userId] } });
    expect(await titles(guest.client.listSpacesInOrganizationById({ organizationId }))).toEqual(["Shared"]);
    expect(await titles(guest.client.listCollectionsInOrganizationById({ organizationId }))).toEqual([]);

    const { createOrganizationTeam } = client;
    const team = (
      await createOrganizationTeam({ organizationId, body: { title: "T", members: [guest.userId] } })
    ).id;
    await client.inviteToCollection({ collectionId: top, body: { role: "comment", teams: [team] } });
    expect(await titles(guest.client.listSpacesInOrganizationById({ organizationId }))).toEqual([
      "Shared",
      "Deep",
    ]);
    expect(await titles(guest.client.listCollectionsInOrganizationById({ organizationId }))).toEqual([
      "Top",
      "Nested",
    ]);
    const roots = guest.client.listCollectionsInOrganizationById({ organizationId, nested: false });
    expect(await titles(roots)).toEqual(["Top"]);
    // Each item's permissions follow the same resolution.
    const spaces = await guest.client.listSpacesInOrganizationById({ organizationId });
    expect(spaces.items.map((space) => [space.title, space.permissions.comment])).toEqual([
      ["Shared", false],
      ["Deep", true],
    ]);
  });

  it("pages a guest's list with exact counts", async () => {
    const { client, guest, org, shared, hidden, top } = await setup();
    for (const spaceId of [shared, hidden]) {
      await client.inviteToSpace({ spaceId, body: { role: "read", users: [guest.userId] } });
    }
    await client.inviteToCollection({ collectionId: top, body: { role: "read", users: [guest.userId] } });
    const first = await guest.client.listSpacesInOrganizationById({ organizationId: org, limit: 2 });
    const second = await guest.client.listSpacesInOrganizationById({
      organizationId: org,
      limit: 2,
      page: first.next!.page,
    });
    expect([first.count, second.count, second.next]).toEqual([3, 3, undefined]);
    expect([...first.items, ...second.items].map((space) => space.title)).toEqual([
      "Shared",
      "Hidden",
      "Deep",
    ]);
  });

  it("searches only what a guest may view, and members still everything", async () => {
    const { client, guest, org, shared } = await setup();
    const search = (who: typeof client) =>
      who
        .searchOrganizationContent({ organizationId: org, query: "trains" })
        .then((page) => page.items.map((item) => item.title).sort());
    expect(await search(guest.client)).toEqual([]);
    await client.inviteToSpace({ spaceId: shared, body: { role: "read", users: [guest.userId] } });
    expect(await search(guest.client)).toEqual(["Shared"]);
    expect(await search(client)).toEqual(["Deep", "Hidden", "Shared"]);
  });

  it("drops a removed guest's spaces from their lists when they come back", async () => {
    const { client, guest, org, shared, join, titles } = await setup();
    await client.inviteToSpace({ spaceId: shared, body: { role: "read", users: [guest.userId] } });
    await client.removeMemberFromOrganizationById({ organizationId: org, userId: guest.userId });
    await join(guest.userId, null);
    expect(await titles(guest.client.listSpacesInOrganizationById({ organizationId: org }))).toEqual([]);
  });
});
