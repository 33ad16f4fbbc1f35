import { describe, expect, it } from "vitest";
import { createTypedWorkspace, type TypedWorkspace } from "../../../test/support/workspace.js";
import { collectionsTable } from "../collections/tables.js";
import { type Grantee, grantKey, grantsTable } from "../grants/tables.js";
import type { Role } from "../shared/roles.js";
import { nextSequence } from "../shared/sequence.js";
import { spacesTable } from "../spaces/tables.js";
import { userContentRole } from "./membership.js";

/** Stores a grant as the grant operations do, for the resolution alone. */
async function grant(
  workspace: TypedWorkspace,
  object: string,
  kind: Grantee,
  grantee: string,
  role: Role,
): Promise<void> {
  await workspace.storage.write(async (tx) => {
    const target = (await tx.get(spacesTable, object)) ? "space" : "collection";
    await tx.put(grantsTable, {
      key: grantKey(object, kind, grantee),
      organization: workspace.org,
      target,
      object,
      granteeKind: kind,
      grantee,
      role,
      seq: await nextSequence(tx, object),
      createdAt: "2025-01-01T00:00:00.000Z",
    });
  });
}

/** Another user's role, as the resolution gives it. */
async function roleOf(workspace: TypedWorkspace, user: string, object: string): Promise<Role | null> {
  return workspace.storage.read(async (tx) => {
    const content = (await tx.get(spacesTable, object)) ?? (await tx.get(collectionsTable, object));
    return userContentRole(tx, workspace.org, user, content!);
  });
}

async function team(workspace: TypedWorkspace, members: string[]): Promise<string> {
  const { client, org } = workspace;
  return (await client.createOrganizationTeam({ organizationId: org, body: { title: "Docs", members } })).id;
}

describe("the resolution of a role on content", () => {
  it("raises a member's role by their own grant and their team's, the strongest winning", async () => {
    const workspace = await createTypedWorkspace();
    const reader = await workspace.member("read");
    const space = await workspace.space({ title: "Handbook" });
    const docs = await team(workspace, [reader.userId]);
    expect((await reader.client.getSpaceById({ spaceId: space })).permissions.edit).toBe(false);

    await grant(workspace, space, "team", docs, "edit");
    await grant(workspace, space, "user", reader.userId, "comment");
    const permissions = (await reader.client.getSpaceById({ spaceId: space })).permissions;
    expect(permissions).toMatchObject({ view: true, comment: true, edit: true, admin: false });
    expect(await roleOf(workspace, reader.userId, space)).toBe("edit");
  });

  it("flows a collection's grants down two levels, to its collections and their spaces", async () => {
    const workspace = await createTypedWorkspace();
    const reader = await workspace.member("read");
    const top = await workspace.collection({ title: "Top" });
    const middle = await workspace.collection({ title: "Middle", parent: top });
    const space = await workspace.space({ title: "Deep", parent: middle });
    await grant(workspace, top, "user", reader.userId, "admin");

    expect(await roleOf(workspace, reader.userId, middle)).toBe("admin");
    expect(await roleOf(workspace, reader.userId, space)).toBe("admin");
    expect((await reader.client.getSpaceById({ spaceId: space })).permissions.admin).toBe(true);
    expect((await reader.client.getCollectionById({ collectionId: middle })).permissions.admin).toBe(true);
    // Grants flow down, never up.
    const other = await workspace.collection({ title: "Other" });
    expect(await roleOf(workspace, reader.userId, other)).toBe("read");
  });

  it("gives a guest exactly their grants and nothing of the organization", async () => {
    const workspace = await createTypedWorkspace();
    const guest = await workspace.member(null);
    const granted = await workspace.space({ title: "Shared" });
    // A default level raises members, never guests.
    const open = await workspace.space({ title: "Open" });
    await workspace.client.updateSpaceById({ spaceId: open, body: { defaultLevel: "edit" } });
    await grant(workspace, granted, "user", guest.userId, "comment");

    expect(await roleOf(workspace, guest.userId, granted)).toBe("comment");
    expect(await roleOf(workspace, guest.userId, open)).toBeNull();
    expect((await guest("GET", `/spaces/${open}`)).status).toBe(404);
    const shown = await guest.client.getSpaceById({ spaceId: granted });
    expect(shown.permissions).toMatchObject({ view: true, comment: true, edit: false });
  });

  it("gives a guest's team grants to the guest", async () => {
    const workspace = await createTypedWorkspace();
    const guest = await workspace.member(null);
    const collection = await workspace.collection({ title: "Partners" });
    const space = await workspace.space({ title: "Inside", parent: collection });
    await grant(workspace, collection, "team", await team(workspace, [guest.userId]), "read");
    expect(await roleOf(workspace, guest.userId, space)).toBe("read");
  });

  it("keeps an organization admin admin, and a non-member without a role", async () => {
    const workspace = await createTypedWorkspace();
    const space = await workspace.space({ title: "Any" });
    expect(await roleOf(workspace, workspace.owner.id, space)).toBe("admin");
    await grant(workspace, space, "user", workspace.outsider.userId, "admin");
    expect(await roleOf(workspace, workspace.outsider.userId, space)).toBeNull();
    expect((await workspace.outsider("GET", `/spaces/${space}`)).status).toBe(404);
  });
});

describe("grants go with what they name, in the same transaction", () => {
  const grantsOf = (workspace: TypedWorkspace, object: string) =>
    workspace.storage.read((tx) => tx.list(grantsTable, { index: "byObject", where: [object] }));

  it("drops a guest's grants with their membership", async () => {
    const workspace = await createTypedWorkspace();
    const guest = await workspace.member(null);
    const space = await workspace.space({ title: "Shared" });
    await grant(workspace, space, "user", guest.userId, "edit");
    await workspace.client.removeMemberFromOrganizationById({
      organizationId: workspace.org,
      userId: guest.userId,
    });
    expect(await grantsOf(workspace, space)).toEqual([]);
    // Invited again, they get nothing back.
    await workspace.join(guest.userId, null);
    expect(await roleOf(workspace, guest.userId, space)).toBeNull();
  });

  it("drops a team's grants with the team, and a member removed from a team loses what it gave", async () => {
    const workspace = await createTypedWorkspace();
    const [first, second] = [await workspace.member(null), await workspace.member(null)];
    const space = await workspace.space({ title: "Shared" });
    const docs = await team(workspace, [first.userId, second.userId]);
    await grant(workspace, space, "team", docs, "edit");
    const organizationId = workspace.org;

    await workspace.client.deleteMemberFromOrganizationTeamById({
      organizationId,
      teamId: docs,
      userId: first.userId,
    });
    expect(await roleOf(workspace, first.userId, space)).toBeNull();
    expect(await roleOf(workspace, second.userId, space)).toBe("edit");

    await workspace.client.removeTeamFromOrganizationById({ organizationId, teamId: docs });
    expect(await grantsOf(workspace, space)).toEqual([]);
    expect(await roleOf(workspace, second.userId, space)).toBeNull();
  });

  it("drops the grants on a deleted collection and its nested ones", async () => {
    const workspace = await createTypedWorkspace();
    const reader = await workspace.member("read");
    const top = await workspace.collection({ title: "Top" });
    const nested = await workspace.collection({ title: "Nested", parent: top });
    await grant(workspace, top, "user", reader.userId, "edit");
    await grant(workspace, nested, "user", reader.userId, "edit");
    await workspace.client.deleteCollectionById({ collectionId: top });
    expect([...(await grantsOf(workspace, top)), ...(await grantsOf(workspace, nested))]).toEqual([]);
  });
});

describe("the worked example of docs/permissions.md", () => {
  it("gives the roles of its table, and what leaving the team changes", async () => {
    const w = await createTypedWorkspace();
    // Ada is the owner (an organization admin).
    const bo = await w.member("read");
    const cy = await w.member("edit");
    const gil = await w.member(null);
    const partners = await team(w, [bo.userId, gil.userId]);
    const handbook = await w.collection({ title: "Handbook" });
    const policies = await w.collection({ title: "Policies", parent: handbook });
    const travel = await w.space({ title: "Travel", parent: policies });
    await w.client.updateCollectionById({ collectionId: policies, body: { defaultLevel: "comment" } });
    // Through the grant operations, as a user would.
    await w.client.inviteToCollection({
      collectionId: handbook,
      body: { role: "comment", teams: [partners] },
    });
    await w.client.inviteToSpace({ spaceId: travel, body: { role: "edit", users: [gil.userId] } });
    const rows = async () => {
      const row = async (user: string) =>
        Promise.all([handbook, policies, travel].map((object) => roleOf(w, user, object)));
      return {
        ada: await row(w.owner.id),
        bo: await row(bo.userId),
        cy: await row(cy.userId),
        gil: await row(gil.userId),
      };
    };
    expect(await rows()).toEqual({
      ada: ["admin", "admin", "admin"],
      bo: ["comment", "comment", "comment"],
      cy: ["edit", "edit", "edit"],
      gil: ["comment", "comment", "edit"],
    });
    // Gil leaves Partners: his own grant stays, the team's goes; an outside space stays hidden.
    await w.client.deleteMemberFromOrganizationTeamById({
      organizationId: w.org,
      teamId: partners,
      userId: gil.userId,
    });
    expect((await rows()).gil).toEqual([null, null, "edit"]);
    const outside = await w.space({ title: "Outside" });
    expect(await roleOf(w, gil.userId, outside)).toBeNull();
    expect(await roleOf(w, bo.userId, outside)).toBe("read");
  });
});
