import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import type { ClientInput } from "../client.js";
import type { Operations } from "../operations.js";
import type { TestClient } from "../../testing/double.js";
import { changeRequestsTable } from "./tables.js";

type CreateBody = ClientInput<Operations["createChangeRequest"]>["body"];
type SpaceListQuery = Omit<ClientInput<Operations["listChangeRequestsForSpace"]>, "spaceId">;

async function setup() {
  const workspace = await createWorkspace();
  const { client } = workspace;
  const spaceId = await workspace.space({ title: "Docs" });
  const base = `/spaces/${spaceId}/change-requests`;
  const create = (body: CreateBody = {}, as: TestClient = client) =>
    as.createChangeRequest({ spaceId, body });
  /** A change request of the space by id or number, as `changeRequestId` names it. */
  const cr = (changeRequestId: string | number) => ({ spaceId, changeRequestId: String(changeRequestId) });
  const counters = async () => {
    const space = await client.getSpaceById({ spaceId });
    return [space.changeRequests, space.changeRequestsOpen, space.changeRequestsDraft];
  };
  return { ...workspace, spaceId, base, create, cr, counters };
}

describe("change requests", () => {
  it("creates numbered change requests from the space's current revision", async () => {
    const { api, client, spaceId, base, cr, create, test } = await setup();
    const space = await client.getSpaceById({ spaceId });
    // Over HTTP for its 201 and Location.
    const created = await api("POST", base, { subject: "First", agentTaskId: "ignored" });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(created.headers.get("location")).toBe(
      `http://docsbase.test/v1/spaces/${spaceId}/change-requests/${id}`,
    );
    const owner = await client.getAuthenticatedUser();
    expect(created.body).toEqual({
      object: "change-request",
      id,
      number: 1,
      status: "open",
      subject: "First",
      createdBy: owner,
      createdAt: "2025-01-01T00:00:00.000Z",
      updatedAt: "2025-01-01T00:00:00.000Z",
      space: spaceId,
      revision: space.revision,
      revisionInitial: space.revision,
      comments: 0,
      outdated: false,
      urls: {
        app: `http://docsbase.test/s/${spaceId}/~/changes/1`,
        location: `http://docsbase.test/v1/spaces/${spaceId}/change-requests/${id}`,
      },
    });
    const second = await create({ status: "draft" });
    expect(second).toMatchObject({ number: 2, status: "draft", subject: "" });
    // By number and by id alike.
    expect((await client.getChangeRequestById(cr(2))).id).toBe(second.id);
    expect(await client.getChangeRequestById(cr(id))).toEqual(created.body);
    await expect(client.getChangeRequestById(cr(3))).rejects.toMatchObject({ code: "not_found" });
    expect((await test.request("POST", base, { token: null })).status).toBe(401);
  });

  it("numbers per space and never reuses a number", async () => {
    const { client, space, create } = await setup();
    await create();
    await create();
    const other = await space({ title: "Other" });
    expect((await client.createChangeRequest({ spaceId: other, body: {} })).number).toBe(1);
  });

  it("keeps the space counters exact on create, status change and merge", async () => {
    const { client, cr, create, counters } = await setup();
    expect(await counters()).toEqual([0, 0, 0]);
    const a = await create();
    const b = await create({ status: "draft" });
    const c = await create();
    expect(await counters()).toEqual([3, 2, 1]);
    await client.updateChangeRequestById({ ...cr(a.id), body: { status: "archived" } });
    expect(await counters()).toEqual([3, 1, 1]);
    await client.updateChangeRequestById({ ...cr(b.number), body: { status: "open" } });
    expect(await counters()).toEqual([3, 2, 0]);
    await client.updateChangeRequestById({ ...cr(a.id), body: { status: "draft" } });
    expect(await counters()).toEqual([3, 2, 1]);
    expect((await client.mergeChangeRequest(cr(c.id))).result).toBe("merge");
    expect(await counters()).toEqual([3, 1, 1]);
    expect((await client.mergeChangeRequest(cr(a.id))).result).toBe("merge");
    expect(await counters()).toEqual([3, 1, 0]);
  });

  it("updates subject, description and status; only a merge merges", async () => {
    const { api, client, base, cr: of, create, advance } = await setup();
    const cr = await create({ subject: "Draft" });
    advance(1000);
    const description = {
      object: "document",
      data: {},
      nodes: [
        {
          object: "block",
          type: "paragraph",
          nodes: [{ object: "text", leaves: [{ object: "leaf", text: "Why", marks: [] }] }],
        },
      ],
    };
    const update = (body: ClientInput<Operations["updateChangeRequestById"]>["body"]) =>
      client.updateChangeRequestById({ ...of(cr.id), body });
    const refused = (call: Promise<unknown>, field: RegExp) =>
      expect(call).rejects.toMatchObject({ code: "bad_request", message: expect.stringMatching(field) });
    const patched = await update({ subject: "Better", description, status: "draft" });
    expect(patched).toMatchObject({
      subject: "Better",
      status: "draft",
      description,
      updatedAt: "2025-01-01T00:00:01.000Z",
    });
    const unchanged = await update({});
    expect(unchanged).toEqual(patched);

    await refused(update({ status: "merged" }), /^body\.status: .*merge/);
    await refused(update({ subject: "x".repeat(101) }), /^body\.subject: /);
    await refused(
      update({ description: { object: "document", nodes: "no" } }),
      /^body\.description\.nodes: /,
    );
    await refused(create({ subject: "y".repeat(101) }), /^body\.subject: /);
    // Over HTTP: a new change request's status is "draft" or "open", so no client type allows it.
    expect((await api("POST", base, { status: "merged" })).body.error.message).toMatch(/^body\.status: /);

    await client.mergeChangeRequest(of(cr.id));
    await expect(update({ status: "open" })).rejects.toMatchObject({ code: "conflict" });
    await expect(client.mergeChangeRequest(of(cr.id))).rejects.toMatchObject({ code: "conflict" });
    await expect(client.updateChangeRequest(of(cr.id))).rejects.toMatchObject({ code: "conflict" });
    expect((await update({ subject: "After" })).subject).toBe("After");
  });

  it("lists a space's change requests by status, newest first, with filters and pages", async () => {
    const { api, client, spaceId, base, cr, create, member, storage } = await setup();
    const editor = await member("edit");
    const mine = [await create(), await create(), await create()];
    const theirs = [await create({}, editor.client), await create({ status: "draft" }, editor.client)];
    const list = (query: SpaceListQuery = {}) => client.listChangeRequestsForSpace({ spaceId, ...query });
    const numbers = async (query: SpaceListQuery = {}) => (await list(query)).items.map((cr) => cr.number);
    expect(await numbers()).toEqual([4, 3, 2, 1]);
    expect(await numbers({ status: "draft" })).toEqual([5]);
    expect(await numbers({ creator: editor.userId })).toEqual([4]);
    expect(await numbers({ creator: editor.userId, status: "draft" })).toEqual([5]);
    // Contributors are those who wrote content in the change request.
    await editor.client.createPageInChangeRequest({ ...cr(mine[0]!.id), body: { title: "By editor" } });
    expect(await numbers({ contributor: editor.userId })).toEqual([1]);
    // Requested reviewers filter; clusters are stored on the record and filter as well.
    const reviewer = await member("review");
    await client.requestReviewersForChangeRequest({ ...cr(mine[1]!.id), body: { users: [reviewer.userId] } });
    await storage.write(async (tx) => {
      const record = (await tx.get(changeRequestsTable, mine[1]!.id))!;
      await tx.put(changeRequestsTable, { ...record, conversationsIssuesCluster: "c1" });
    });
    expect(await numbers({ requestedReviewer: reviewer.userId })).toEqual([2]);
    expect(await numbers({ requestedReviewer: editor.userId })).toEqual([]);
    expect(await numbers({ conversationsIssuesCluster: "c1" })).toEqual([2]);
    expect((await client.getChangeRequestById(cr(2))).conversationsIssuesCluster).toBe("c1");

    const first = await list({ limit: 2 });
    expect(first.count).toBe(4);
    expect(first.items.map((cr) => cr.number)).toEqual([4, 3]);
    const second = await list({ limit: 2, page: first.next!.page });
    expect(second.items.map((cr) => cr.number)).toEqual([2, 1]);
    expect(second.next).toBeUndefined();
    const filtered = await list({ limit: 1, creator: mine[0]!.createdBy.id });
    expect(filtered.count).toBe(3);
    const rest = await list({ limit: 5, creator: mine[0]!.createdBy.id, page: filtered.next!.page });
    expect(rest.items.map((cr) => cr.number)).toEqual([2, 1]);
    // Over HTTP: no client type allows an unknown status.
    expect((await api("GET", `${base}?status=closed`)).body.error.message).toMatch(/^query\.status: /);
    expect(theirs).toHaveLength(2);
  });

  it("lists an organization's change requests in the spaces the caller can read", async () => {
    const { client, org, spaceId, space, member, create } = await setup();
    const doomed = await space({ title: "Doomed" });
    const other = await space({ title: "Other" });
    const reader = await member("read");
    const guest = await member(null);
    await create();
    await create({ status: "draft" });
    await client.createChangeRequest({ spaceId: other, body: {} });
    await client.createChangeRequest({ spaceId: doomed, body: {} });
    type Query = Omit<ClientInput<Operations["listChangeRequestsForOrganization"]>, "organizationId">;
    const list = (as: TestClient, query: Query = {}) =>
      as.listChangeRequestsForOrganization({ organizationId: org, ...query });
    expect((await list(client)).items.map((cr) => cr.space)).toEqual([doomed, other, spaceId]);
    // Change requests of a deleted space go with it; guests read no content but what they are granted.
    await client.deleteSpaceById({ spaceId: doomed });
    expect((await list(client)).items.map((cr) => cr.space)).toEqual([other, spaceId]);
    expect((await list(client, { status: "draft" })).count).toBe(1);
    expect((await list(reader.client)).count).toBe(2);
    expect(await list(guest.client)).toEqual({ count: 0, items: [] });
    // A guest sees the change requests of the spaces a grant gives them, and only those.
    await client.inviteToSpace({ spaceId: other, body: { role: "read", users: [guest.userId] } });
    const granted = await list(guest.client);
    expect([granted.count, granted.items.map((cr) => cr.space)]).toEqual([1, [other]]);
    const paged = await list(client, { limit: 1 });
    expect(paged.count).toBe(2);
    expect(paged.items[0]!.space).toBe(other);
    expect((await list(client, { limit: 1, page: paged.next!.page })).items[0]!.space).toBe(spaceId);
    expect((await list(client, { creator: "nobody" })).count).toBe(0);
  });

  it("enforces roles: readers read, editors create, non-members see nothing", async () => {
    const { client, spaceId, cr: of, member, outsider, create } = await setup();
    const reader = await member("read");
    const editor = await member("edit");
    const cr = await create();
    const forbidden = (call: Promise<unknown>) => expect(call).rejects.toMatchObject({ code: "forbidden" });
    const notFound = (call: Promise<unknown>) => expect(call).rejects.toMatchObject({ code: "not_found" });
    expect((await reader.client.getChangeRequestById(of(cr.id))).id).toBe(cr.id);
    expect((await reader.client.listChangeRequestsForSpace({ spaceId })).count).toBe(1);
    await forbidden(create({}, reader.client));
    await forbidden(reader.client.updateChangeRequestById({ ...of(cr.id), body: { subject: "no" } }));
    await forbidden(reader.client.mergeChangeRequest(of(cr.id)));
    await forbidden(reader.client.updateChangeRequest(of(cr.id)));
    await notFound(outsider.client.getChangeRequestById(of(cr.id)));
    await notFound(create({}, outsider.client));
    await notFound(outsider.client.mergeChangeRequest(of(cr.id)));
    await notFound(
      outsider.client.listChangeRequestsForOrganization({
        organizationId: (await client.getSpaceById({ spaceId })).organization,
      }),
    );
    await create({}, editor.client);
    expect((await editor.client.mergeChangeRequest(of(cr.id))).result).toBe("merge");
    // A locked space takes no new change requests.
    await client.updateSpaceById({ spaceId, body: { editMode: "locked" } });
    await forbidden(create());
  });
});
