import { describe, expect, it } from "vitest";
import { commentThread, type ThreadId } from "../../../test/support/comment-threads.js";
import { createWorkspace } from "../../../test/support/workspace.js";
import type { TestClient } from "../../testing/double.js";

/** A space with one page and one change request, and helpers on both comment threads. */
async function setupComments() {
  const workspace = await createWorkspace();
  const spaceId = await workspace.space({ title: "Docs" });
  const { client } = workspace;
  const page = await client.createPage({ spaceId, body: { title: "Intro", markdown: "Hi" } });
  const cr = await client.createChangeRequest({ spaceId, body: { subject: "Edit" } });
  const threads = { space: { spaceId }, cr: { spaceId, changeRequestId: cr.id } };
  /** A thread's path, for the requests only HTTP shows (a delete's 205 or 204). */
  const pathOf = (thread: ThreadId) =>
    thread.changeRequestId === undefined
      ? `/spaces/${spaceId}`
      : `/spaces/${spaceId}/change-requests/${thread.changeRequestId}`;
  /** The comment calls of a thread as `as`, the owner by default. */
  const on = (thread: ThreadId, as: TestClient = client) => commentThread(as, thread);
  const post = (
    thread: ThreadId,
    body: Parameters<ReturnType<typeof on>["post"]>[0] = { body: { markdown: "Hello" } },
    as: TestClient = client,
  ) => on(thread, as).post(body);
  const reply = (thread: ThreadId, comment: string, markdown = "Re", as: TestClient = client) =>
    on(thread, as).reply(comment, { body: { markdown } });
  /** Open comments of the space and of the change request, as their counters say. */
  const counters = async () => [
    (await client.getSpaceById({ spaceId })).comments,
    (await client.getChangeRequestById({ spaceId, changeRequestId: cr.id })).comments,
  ];
  return { ...workspace, spaceId, page, cr, threads, pathOf, on, post, reply, counters };
}

describe("comments", () => {
  it("posts a comment on a page and presents it in markdown or as a document", async () => {
    const { client, page, threads, spaceId, on, post } = await setupComments();
    const me = await client.getAuthenticatedUser();
    const space = await client.getSpaceById({ spaceId });
    const comment = await post(threads.space, { page: page.id, node: "0", body: { markdown: "**Nice**" } });
    expect(comment).toEqual({
      object: "comment",
      id: comment.id,
      postedBy: me,
      postedAt: "2025-01-01T00:00:00.000Z",
      reactions: [],
      replies: 0,
      repliers: [],
      body: { markdown: "**Nice**" },
      target: { space: spaceId, revision: space.revision, page: { id: page.id }, node: { id: "0" } },
      urls: { location: `http://docsbase.test/v1/spaces/${spaceId}/comments/${comment.id}` },
      permissions: { view: true, edit: true, reply: true, delete: true },
      status: "open",
    });
    const asDocument = await on(threads.space).get(comment.id, { format: "document" });
    expect(asDocument.body).toMatchObject({
      document: { object: "document", nodes: [{ type: "paragraph" }] },
    });
    expect(await on(threads.space).get(comment.id)).toEqual(comment);
    // A JSON document in is stored as markdown.
    const document = "document" in asDocument.body ? asDocument.body.document : undefined;
    const fromDocument = await post(threads.space, { body: { document } });
    expect(fromDocument.body).toEqual({ markdown: "**Nice**" });
  });

  it("anchors change request comments in the change request and checks pages there", async () => {
    const { client, cr, threads, spaceId, on, post, page } = await setupComments();
    const inCr = await client.createPageInChangeRequest({ ...threads.cr, body: { title: "New" } });
    const comment = await post(threads.cr, { page: inCr.id, body: { markdown: "Why?" } });
    expect(comment.target).toEqual({
      space: spaceId,
      revision: (await client.getChangeRequestById(threads.cr)).revision,
      changeRequest: cr.id,
      page: { id: inCr.id },
    });
    expect(comment.urls.location).toBe(
      `http://docsbase.test/v1/spaces/${spaceId}/change-requests/${cr.id}/comments/${comment.id}`,
    );
    // The page exists only in the change request; by number works too.
    await expect(post(threads.space, { page: inCr.id, body: { markdown: "x" } })).rejects.toMatchObject({
      code: "bad_request",
      message: expect.stringMatching(/^body\.page: /),
    });
    expect((await on({ spaceId, changeRequestId: "1" }).get(comment.id)).id).toBe(comment.id);
    // A comment of one thread is not found through the other.
    await expect(on(threads.space).get(comment.id)).rejects.toMatchObject({ code: "not_found" });
    const table = await post(threads.cr, {
      tableCell: { record: "r", definition: "d" },
      body: { markdown: "c" },
    });
    expect(table.target.tableCell).toEqual({ record: "r", definition: "d" });
    expect((await post(threads.cr, { page: page.id, body: { markdown: "old page" } })).target.page).toEqual({
      id: page.id,
    });
  });

  it("refuses bad input with 400s naming the field", async () => {
    const { api, threads, pathOf, on, post } = await setupComments();
    const thread = on(threads.space);
    const refused = (call: Promise<unknown>, field: RegExp) =>
      expect(call).rejects.toMatchObject({ code: "bad_request", message: expect.stringMatching(field) });
    /** Over HTTP, for bodies and query strings that no client type allows. */
    const message = async (method: string, path: string, body: unknown) => {
      const answer = await api(method, path, body);
      expect(answer.status).toBe(400);
      return answer.body.error.message as string;
    };
    const base = `${pathOf(threads.space)}/comments`;
    expect(await message("POST", base, {})).toMatch(/^body\.body: /);
    await refused(thread.post({ body: {} }), /^body\.body: /);
    await refused(thread.post({ body: { markdown: "  " } }), /^body\.body: /);
    await refused(thread.post({ body: { markdown: "x".repeat(100_001) } }), /^body\.body\.markdown: /);
    await refused(thread.post({ page: "nope", body: { markdown: "x" } }), /^body\.page: /);
    expect(await message("POST", base, { tableCell: { record: "r" }, body: { markdown: "x" } })).toMatch(
      /^body\.tableCell\.definition: /,
    );
    const comment = await post(threads.space);
    const one = `${base}/${comment.id}`;
    await refused(thread.update(comment.id, { addedReactions: [""] }), /^body\.addedReactions\.0: /);
    await refused(
      thread.update(comment.id, { removedReactions: ["x".repeat(51)] }),
      /^body\.removedReactions\.0: /,
    );
    expect(await message("PUT", one, { resolved: "yes" })).toMatch(/^body\.resolved: /);
    expect(await message("GET", `${base}?status=closed`, undefined)).toMatch(/^query\.status: /);
    expect(await message("GET", `${base}?order=up`, undefined)).toMatch(/^query\.order: /);
    expect(await message("GET", `${one}?format=html`, undefined)).toMatch(/^query\.format: /);
    await refused(thread.list({ limit: 1001 }), /^query\.limit: /);
  });

  it("keeps the open-comment counters true through post, resolve, reopen and delete", async () => {
    const { api, client, threads, pathOf, on, post, reply, counters } = await setupComments();
    expect(await counters()).toEqual([0, 0]);
    const a = await post(threads.space);
    const b = await post(threads.space);
    const c = await post(threads.cr);
    expect(await counters()).toEqual([2, 1]);

    const space = on(threads.space);
    const resolved = await space.update(a.id, { resolved: true });
    const me = await client.getAuthenticatedUser();
    expect(resolved).toMatchObject({
      status: "resolved",
      resolvedAt: "2025-01-01T00:00:00.000Z",
      resolvedBy: me,
    });
    expect(await counters()).toEqual([1, 1]);
    // Resolving again changes nothing.
    await space.update(a.id, { resolved: true });
    expect(await counters()).toEqual([1, 1]);
    const reopened = await space.update(a.id, { resolved: false });
    expect(reopened.status).toBe("open");
    expect(reopened).not.toHaveProperty("resolvedAt");
    expect(reopened).not.toHaveProperty("resolvedBy");
    expect(await counters()).toEqual([2, 1]);

    // A resolved comment's deletion leaves the count; an open one's lowers it.
    await space.update(b.id, { resolved: true });
    expect(await counters()).toEqual([1, 1]);
    expect((await api("DELETE", `${pathOf(threads.space)}/comments/${b.id}`)).status).toBe(205);
    expect(await counters()).toEqual([1, 1]);
    expect((await api("DELETE", `${pathOf(threads.space)}/comments/${a.id}`)).status).toBe(205);
    expect(await counters()).toEqual([0, 1]);

    // In a change request, `resolved` on a reply resolves and reopens its comment.
    const r = await reply(threads.cr, c.id);
    const resolveByReply = (resolved: boolean) =>
      client.updateCommentReplyInChangeRequest({
        spaceId: threads.cr.spaceId,
        changeRequestId: threads.cr.changeRequestId as string,
        commentId: c.id,
        commentReplyId: r.id,
        body: { resolved },
      });
    await resolveByReply(true);
    expect((await on(threads.cr).get(c.id)).status).toBe("resolved");
    expect(await counters()).toEqual([0, 0]);
    await resolveByReply(false);
    expect(await counters()).toEqual([0, 1]);
    // Replies and reactions never move the counters.
    await reply(threads.cr, c.id);
    await on(threads.cr).update(c.id, { addedReactions: ["👍"] });
    expect(await counters()).toEqual([0, 1]);
    expect((await api("DELETE", `${pathOf(threads.cr)}/comments/${c.id}`)).status).toBe(205);
    expect(await counters()).toEqual([0, 0]);
  });

  it("counts each user's reaction with an emoji once, and ignores removals by non-reactors", async () => {
    const { client, threads, on, post, member, advance } = await setupComments();
    const other = await member("comment");
    const comment = await post(threads.space);
    const mine = on(threads.space);
    const theirs = on(threads.space, other.client);
    await mine.update(comment.id, { addedReactions: ["👍", "👍"] });
    advance(1000);
    await mine.update(comment.id, { addedReactions: ["👍", "🎉"] });
    await theirs.update(comment.id, { addedReactions: ["👍"] });
    let current = await mine.get(comment.id);
    const me = await client.getAuthenticatedUser();
    const them = await other.client.getAuthenticatedUser();
    expect(current.reactions).toEqual([
      {
        emoji: "👍",
        count: 2,
        users: [
          { user: me, reactedAt: "2025-01-01T00:00:00.000Z" },
          { user: them, reactedAt: "2025-01-01T00:00:01.000Z" },
        ],
      },
      { emoji: "🎉", count: 1, users: [{ user: me, reactedAt: "2025-01-01T00:00:01.000Z" }] },
    ]);
    await theirs.update(comment.id, { removedReactions: ["🎉", "🚀"] });
    expect((await mine.get(comment.id)).reactions).toEqual(current.reactions);
    await theirs.update(comment.id, { removedReactions: ["👍"] });
    await mine.update(comment.id, { addedReactions: ["🚀"], removedReactions: ["🚀", "🎉"] });
    current = await mine.get(comment.id);
    expect(current.reactions).toEqual([
      { emoji: "👍", count: 1, users: [{ user: me, reactedAt: expect.any(String) }] },
    ]);
    // Reactions on replies follow the same rules.
    const reply = await mine.reply(comment.id, { body: { markdown: "r" } });
    await theirs.updateReply(comment.id, reply.id, { addedReactions: ["👀", "👀"] });
    const updated = await mine.getReply(comment.id, reply.id);
    expect(updated.reactions).toEqual([
      { emoji: "👀", count: 1, users: [{ user: them, reactedAt: expect.any(String) }] },
    ]);
  });

  it("answers 205 when a comment or reply was deleted and 204 when it did not exist", async () => {
    const { api, client, threads, pathOf, on, post, reply, stored } = await setupComments();
    for (const thread of [threads.space, threads.cr]) {
      const path = pathOf(thread);
      const comment = await post(thread);
      const r = await reply(thread, comment.id);
      const replyPath = `${path}/comments/${comment.id}/replies/${r.id}`;
      expect((await api("DELETE", replyPath)).status).toBe(205);
      expect((await api("DELETE", replyPath)).status).toBe(204);
      await expect(on(thread).getReply(comment.id, r.id)).rejects.toMatchObject({ code: "not_found" });
      const kept = await reply(thread, comment.id);
      expect((await api("DELETE", `${path}/comments/${comment.id}`)).status).toBe(205);
      expect((await api("DELETE", `${path}/comments/${comment.id}`)).status).toBe(204);
      await expect(on(thread).get(comment.id)).rejects.toMatchObject({ code: "not_found" });
      // Deleting a comment deletes its replies; a reply of a missing comment "did not exist".
      expect(await stored("commentReplies", kept.id)).toBeUndefined();
      expect((await api("DELETE", `${path}/comments/${comment.id}/replies/${kept.id}`)).status).toBe(204);
      expect((await api("DELETE", `${path}/comments/nope`)).status).toBe(204);
    }
    // A thread that does not exist is still 404.
    await expect(client.deleteCommentInSpace({ spaceId: "nope", commentId: "x" })).rejects.toMatchObject({
      code: "not_found",
    });
  });
});
