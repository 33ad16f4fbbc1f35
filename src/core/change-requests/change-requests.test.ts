import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { changeRequestsTable } from "./tables.js";

async function setup() {
  const workspace = await createWorkspace();
  const spaceId = await workspace.space({ title: "Docs" });
  const base = `/spaces/${spaceId}/change-requests`;
  const create = async (body: object = {}, api = workspace.api) => {
    const created = await api("POST", base, body);
    if (created.status !== 201) throw new Error(JSON.stringify(created.body));
    return created.body;
  };
  const counters = async () => {
    const { body } = await workspace.api("GET", `/spaces/${spaceId}`);
    return [body.changeRequests, body.changeRequestsOpen, body.changeRequestsDraft];
  };
  return { ...workspace, spaceId, base, create, counters };
}

describe("change requests", () => {
  it("creates numbered change requests from the space's current revision", async () => {
    const { api, spaceId, base, test } = await setup();
    const { body: space } = await api("GET", `/spaces/${spaceId}`);
    const created = await api("POST", base, { subject: "First", agentTaskId: "ignored" });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(created.headers.get("location")).toBe(
      `http://docsbase.test/v1/spaces/${spaceId}/change-requests/${id}`,
    );
    const { body: owner } = await api("GET", "/user");
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
    const second = await api("POST", base, { status: "draft" });
    expect(second.body).toMatchObject({ number: 2, status: "draft", subject: "" });
    // By number and by id alike.
    expect((await api("GET", `${base}/2`)).body.id).toBe(second.body.id);
    expect((await api("GET", `${base}/${id}`)).body).toEqual(created.body);
    expect((await api("GET", `${base}/3`)).status).toBe(404);
    expect((await test.request("POST", base, { token: null })).status).toBe(401);
  });

  it("numbers per space and never reuses a number", async () => {
    const { api, space, create } = await setup();
    await create();
    await create();
    const other = await space({ title: "Other" });
    expect((await api("POST", `/spaces/${other}/change-requests`, {})).body.number).toBe(1);
  });

  it("keeps the space counters exact on create, status change and merge", async () => {
    const { api, base, create, counters } = await setup();
    expect(await counters()).toEqual([0, 0, 0]);
    const a = await create();
    const b = await create({ status: "draft" });
    const c = await create();
    expect(await counters()).toEqual([3, 2, 1]);
    await api("PATCH", `${base}/${a.id}`, { status: "archived" });
    expect(await counters()).toEqual([3, 1, 1]);
    await api("PATCH", `${base}/${b.number}`, { status: "open" });
    expect(await counters()).toEqual([3, 2, 0]);
    await api("PATCH", `${base}/${a.id}`, { status: "draft" });
    expect(await counters()).toEqual([3, 2, 1]);
    expect((await api("POST", `${base}/${c.id}/merge`)).body.result).toBe("merge");
    expect(await counters()).toEqual([3, 1, 1]);
    expect((await api("POST", `${base}/${a.id}/merge`)).body.result).toBe("merge");
    expect(await counters()).toEqual([3, 1, 0]);
  });

  it("updates subject, description and status; only a merge merges", async () => {
    const { api, base, create, advance } = await setup();
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
    const patched = await api("PATCH", `${base}/${cr.id}`, {
      subject: "Better",
      description,
      status: "draft",
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      subject: "Better",
      status: "draft",
      description,
      updatedAt: "2025-01-01T00:00:01.000Z",
    });
    const unchanged = await api("PATCH", `${base}/${cr.id}`, {});
    expect(unchanged.body).toEqual(patched.body);

    const merged = await api("PATCH", `${base}/${cr.id}`, { status: "merged" });
    expect(merged.status).toBe(400);
    expect(merged.body.error.message).toMatch(/^body\.status: .*merge/);
    const long = await api("PATCH", `${base}/${cr.id}`, { subject: "x".repeat(101) });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toMatch(/^body\.subject: /);
    const badDocument = await api("PATCH", `${base}/${cr.id}`, {
      description: { object: "document", nodes: "no" },
    });
    expect(badDocument.status).toBe(400);
    expect(badDocument.body.error.message).toMatch(/^body\.description\.nodes: /);
    const badCreate = await api("POST", base, { subject: "y".repeat(101) });
    expect(badCreate.status).toBe(400);
    expect(badCreate.body.error.message).toMatch(/^body\.subject: /);
    expect((await api("POST", base, { status: "merged" })).body.error.message).toMatch(/^body\.status: /);

    await api("POST", `${base}/${cr.id}/merge`);
    const reopen = await api("PATCH", `${base}/${cr.id}`, { status: "open" });
    expect(reopen.status).toBe(409);
    expect((await api("POST", `${base}/${cr.id}/merge`)).status).toBe(409);
    expect((await api("POST", `${base}/${cr.id}/update`)).status).toBe(409);
    expect((await api("PATCH", `${base}/${cr.id}`, { subject: "After" })).body.subject).toBe("After");
  });

  it("lists a space's change requests by status, newest first, with filters and pages", async () => {
    const { api, base, create, member, storage } = await setup();
    const editor = await member("edit");
    const mine = [await create(), await create(), await create()];
    const theirs = [await create({}, editor), await create({ status: "draft" }, editor)];
    const numbers = async (query: string) =>
      (await api("GET", `${base}${query}`)).body.items.map((cr: any) => cr.number);
    expect(await numbers("")).toEqual([4, 3, 2, 1]);
    expect(await numbers("?status=draft")).toEqual([5]);
    expect(await numbers(`?creator=${editor.userId}`)).toEqual([4]);
    expect(await numbers(`?creator=${editor.userId}&status=draft`)).toEqual([5]);
    // Contributors are those who wrote content in the change request.
    await editor("POST", `${base}/${mine[0].id}/content/pages`, { title: "By editor" });
    expect(await numbers(`?contributor=${editor.userId}`)).toEqual([1]);
    // Reviewers and clusters are stored on the record; they filter as well.
    await storage.write(async (tx) => {
      const record = (await tx.get(changeRequestsTable, mine[1].id))!;
      await tx.put(changeRequestsTable, {
        ...record,
        requestedReviewers: [editor.userId],
        conversationsIssuesCluster: "c1",
      });
    });
    expect(await numbers(`?requestedReviewer=${editor.userId}`)).toEqual([2]);
    expect(await numbers("?conversationsIssuesCluster=c1")).toEqual([2]);
    expect((await api("GET", `${base}/2`)).body.conversationsIssuesCluster).toBe("c1");

    const first = await api("GET", `${base}?limit=2`);
    expect(first.body.count).toBe(4);
    expect(first.body.items.map((cr: any) => cr.number)).toEqual([4, 3]);
    const second = await api("GET", `${base}?limit=2&page=${first.body.next.page}`);
    expect(second.body.items.map((cr: any) => cr.number)).toEqual([2, 1]);
    expect(second.body.next).toBeUndefined();
    const filtered = await api("GET", `${base}?limit=1&creator=${mine[0].createdBy.id}`);
    expect(filtered.body.count).toBe(3);
    const rest = await api(
      "GET",
      `${base}?limit=5&creator=${mine[0].createdBy.id}&page=${filtered.body.next.page}`,
    );
    expect(rest.body.items.map((cr: any) => cr.number)).toEqual([2, 1]);
    expect((await api("GET", `${base}?status=closed`)).body.error.message).toMatch(/^query\.status: /);
    expect(theirs).toHaveLength(2);
  });

  it("lists an organization's change requests in the spaces the caller can read", async () => {
    const { api, org, spaceId, space, member, create } = await setup();
    const doomed = await space({ title: "Doomed" });
    const other = await space({ title: "Other" });
    const reader = await member("read");
    const guest = await member(null);
    await create();
    await create({ status: "draft" });
    await api("POST", `/spaces/${other}/change-requests`, {});
    await api("POST", `/spaces/${doomed}/change-requests`, {});
    const list = async (as: typeof api, query = "") =>
      (await as("GET", `/orgs/${org}/change-requests${query}`)).body;
    expect((await list(api)).items.map((cr: any) => cr.space)).toEqual([doomed, other, spaceId]);
    // Change requests of a deleted space go with it; guests read no content.
    await api("DELETE", `/spaces/${doomed}`);
    expect((await list(api)).items.map((cr: any) => cr.space)).toEqual([other, spaceId]);
    expect((await list(api, "?status=draft")).count).toBe(1);
    expect((await list(reader)).count).toBe(2);
    expect(await list(guest)).toEqual({ count: 0, items: [] });
    const paged = await list(api, "?limit=1");
    expect(paged.count).toBe(2);
    expect(paged.items[0].space).toBe(other);
    expect((await list(api, `?limit=1&page=${paged.next.page}`)).items[0].space).toBe(spaceId);
    expect((await list(api, `?creator=nobody`)).count).toBe(0);
  });

  it("enforces roles: readers read, editors create, non-members see nothing", async () => {
    const { api, base, spaceId, member, outsider, create } = await setup();
    const reader = await member("read");
    const editor = await member("edit");
    const cr = await create();
    expect((await reader("GET", `${base}/${cr.id}`)).status).toBe(200);
    expect((await reader("GET", base)).body.count).toBe(1);
    const refused = await reader("POST", base, {});
    expect(refused.status).toBe(403);
    expect((await reader("PATCH", `${base}/${cr.id}`, { subject: "no" })).status).toBe(403);
    expect((await reader("POST", `${base}/${cr.id}/merge`)).status).toBe(403);
    expect((await reader("POST", `${base}/${cr.id}/update`)).status).toBe(403);
    expect((await outsider("GET", `${base}/${cr.id}`)).status).toBe(404);
    expect((await outsider("POST", base, {})).status).toBe(404);
    expect((await outsider("POST", `${base}/${cr.id}/merge`)).status).toBe(404);
    expect(
      (
        await outsider(
          "GET",
          `/orgs/${(await api("GET", `/spaces/${spaceId}`)).body.organization}/change-requests`,
        )
      ).status,
    ).toBe(404);
    expect((await editor("POST", base, {})).status).toBe(201);
    expect((await editor("POST", `${base}/${cr.id}/merge`)).body.result).toBe("merge");
    // A locked space takes no new change requests.
    await api("PATCH", `/spaces/${spaceId}`, { editMode: "locked" });
    expect((await api("POST", base, {})).status).toBe(403);
  });
});
