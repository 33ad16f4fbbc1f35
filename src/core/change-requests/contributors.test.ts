import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import type { TestClient } from "../../testing/double.js";
import { contributionsTable } from "./contributions.js";

/** A workspace with a space holding one page, and a change request of it by the owner. */
async function setup() {
  const workspace = await createWorkspace();
  const { client } = workspace;
  const spaceId = await workspace.space({ title: "Docs" });
  const page = await client.createPage({ spaceId, body: { title: "Intro", markdown: "a" } });
  const changeRequest = await client.createChangeRequest({ spaceId, body: { subject: "Edit" } });
  const cr = { spaceId, changeRequestId: changeRequest.id };
  /** The contributors as `as` sees them: [user id, action, count, updatedAt]. */
  const contributors = async (as: TestClient = client, query: { limit?: number; page?: string } = {}) => {
    const list = await as.getContributorsByChangeRequestId({ ...cr, ...query });
    return list.items.map((item) => [item.user.id, item.actionType, item.count, item.updatedAt]);
  };
  return { ...workspace, spaceId, page, changeRequest, cr, contributors };
}

const at = (seconds: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, seconds)).toISOString();

describe("contributors of a change request", () => {
  it("counts each user's edits and comments, most recent first; the creator only once they write", async () => {
    const { client, owner, cr, page, member, advance, contributors } = await setup();
    expect(await contributors()).toEqual([]);

    advance(1000);
    await client.updatePageInChangeRequest({ ...cr, pageId: page.id, body: { markdown: "b" } });
    advance(1000);
    await client.uploadFileInChangeRequest({
      ...cr,
      body: { name: "a.txt", contentType: "text/plain", data: btoa("hi") },
    });
    const editor = await member("edit");
    advance(1000);
    const comment = await editor.client.postCommentInChangeRequest({
      ...cr,
      body: { body: { markdown: "Why?" } },
    });
    advance(1000);
    await client.postCommentReplyInChangeRequest({
      ...cr,
      commentId: comment.id,
      body: { body: { markdown: "Because" } },
    });
    advance(1000);
    await editor.client.createPageInChangeRequest({ ...cr, body: { title: "New" } });
    advance(1000);
    await editor.client.postCommentReplyInChangeRequest({
      ...cr,
      commentId: comment.id,
      body: { body: { markdown: "Fine" } },
    });

    expect(await contributors()).toEqual([
      [editor.userId, "comment", 2, at(6)],
      [editor.userId, "edit", 1, at(5)],
      [owner.id, "comment", 1, at(4)],
      [owner.id, "edit", 2, at(2)],
    ]);
    const full = await client.getContributorsByChangeRequestId(cr);
    expect(full.count).toBe(4);
    expect(full.items[2]!.user).toEqual(await client.getAuthenticatedUser());

    // Deleting the comment keeps what was written: the counts record writes made.
    await editor.client.deleteCommentInChangeRequest({ ...cr, commentId: comment.id });
    expect((await contributors()).length).toBe(4);
  });

  it("pages like other lists", async () => {
    const { client, cr, page, member, advance, contributors } = await setup();
    await client.updatePageInChangeRequest({ ...cr, pageId: page.id, body: { markdown: "b" } });
    const other = await member("edit");
    advance(1000);
    await other.client.postCommentInChangeRequest({ ...cr, body: { body: { markdown: "Hm" } } });
    const first = await client.getContributorsByChangeRequestId({ ...cr, limit: 1 });
    expect(first.items.map((item) => item.user.id)).toEqual([other.userId]);
    expect(first.count).toBe(2);
    const second = await contributors(client, { limit: 1, page: first.next!.page });
    expect(second.map(([, action]) => action)).toEqual(["edit"]);
  });

  it("counts a template applied at creation as the creator's edit, and nothing written elsewhere", async () => {
    const { client, owner, spaceId, page, space, contributors } = await setup();
    // The space's live content and its comments are not the change request's.
    await client.updatePage({ spaceId, pageId: page.id, body: { markdown: "live" } });
    await client.postCommentInSpace({ spaceId, body: { body: { markdown: "On the space" } } });
    const other = await client.createChangeRequest({ spaceId, body: {} });
    await client.updatePageInChangeRequest({
      spaceId,
      changeRequestId: other.id,
      pageId: page.id,
      body: { markdown: "elsewhere" },
    });
    expect(await contributors()).toEqual([]);

    const template = await space({ title: "Template" });
    await client.createPage({ spaceId: template, body: { title: "From template" } });
    const fromTemplate = await client.createChangeRequest({ spaceId, body: { template: { id: template } } });
    const list = await client.getContributorsByChangeRequestId({ spaceId, changeRequestId: fromTemplate.id });
    expect(list.items.map((item) => [item.user.id, item.actionType, item.count])).toEqual([
      [owner.id, "edit", 1],
    ]);
    // The `contributor` filter of the lists agrees.
    const filtered = await client.listChangeRequestsForSpace({ spaceId, contributor: owner.id });
    expect(filtered.items.map((item) => item.id).sort()).toEqual([other.id, fromTemplate.id].sort());
  });

  it("needs read on the space: 404 for outsiders and for a missing change request", async () => {
    const { client, cr, page, spaceId, member, outsider, contributors } = await setup();
    await client.updatePageInChangeRequest({ ...cr, pageId: page.id, body: { markdown: "b" } });
    const reader = await member("read");
    expect((await contributors(reader.client)).length).toBe(1);
    await expect(outsider.client.getContributorsByChangeRequestId(cr)).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(
      client.getContributorsByChangeRequestId({ spaceId, changeRequestId: "99" }),
    ).rejects.toMatchObject({ code: "not_found", message: expect.stringContaining('"99"') });
    await expect(client.getContributorsByChangeRequestId({ ...cr, limit: 1001 })).rejects.toMatchObject({
      code: "bad_request",
      message: expect.stringContaining("limit"),
    });
  });

  it("goes with its space when the space is purged", async () => {
    const { test, client, owner, cr, page, spaceId, advance, stored } = await setup();
    await client.updatePageInChangeRequest({ ...cr, pageId: page.id, body: { markdown: "b" } });
    const key = `${cr.changeRequestId}:${owner.id}:edit`;
    expect(await stored(contributionsTable, key)).toMatchObject({ count: 1 });
    await client.deleteSpaceById({ spaceId });
    advance(7 * 24 * 3600 * 1000);
    expect(await test.docsbase.runJobs()).toBe(1);
    expect(await stored(contributionsTable, key)).toBeUndefined();
  });
});
