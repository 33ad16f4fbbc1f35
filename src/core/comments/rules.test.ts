import { describe, expect, it } from "vitest";
import { commentThread, type CommentThread, type ThreadId } from "../../../test/support/comment-threads.js";
import { createWorkspace } from "../../../test/support/workspace.js";

async function setup() {
  const workspace = await createWorkspace();
  const spaceId = await workspace.space({ title: "Docs" });
  const cr = await workspace.client.createChangeRequest({ spaceId, body: {} });
  const threads: ThreadId[] = [{ spaceId }, { spaceId, changeRequestId: cr.id }];
  /** A thread's path, for the requests only HTTP shows (a delete's 205). */
  const pathOf = (thread: ThreadId) =>
    thread.changeRequestId === undefined
      ? `/spaces/${spaceId}`
      : `/spaces/${spaceId}/change-requests/${thread.changeRequestId}`;
  return { ...workspace, spaceId, cr, threads, pathOf };
}

const body = (markdown: string) => ({ body: { markdown } });
const forbidden = (call: Promise<unknown>) => expect(call).rejects.toMatchObject({ code: "forbidden" });

describe("comment rules", () => {
  it("lets readers list, commenters post, authors edit, and authors or admins delete", async () => {
    const { api, client, member, outsider, threads, pathOf } = await setup();
    const reader = await member("read");
    const author = await member("comment");
    const other = await member("edit");
    for (const thread of threads) {
      const asReader = commentThread(reader.client, thread);
      const asAuthor = commentThread(author.client, thread);
      const asOther = commentThread(other.client, thread);
      const asOwner = commentThread(client, thread);
      const asOutsider = commentThread(outsider.client, thread);
      const base = `${pathOf(thread)}/comments`;
      await forbidden(asReader.post(body("no")));
      await expect(asOutsider.list()).rejects.toMatchObject({ code: "not_found" });
      await expect(asOutsider.post(body("no"))).rejects.toMatchObject({ code: "not_found" });
      const comment = await asAuthor.post(body("mine"));
      const one = `${base}/${comment.id}`;
      expect(comment.permissions).toEqual({ view: true, edit: true, reply: true, delete: true });

      // Each caller's flags say exactly what their calls do.
      const flags = async (as: typeof asOwner) => (await as.get(comment.id)).permissions;
      expect(await flags(asReader)).toEqual({ view: true, edit: false, reply: false, delete: false });
      expect(await flags(asOther)).toEqual({ view: true, edit: false, reply: true, delete: false });
      expect(await flags(asOwner)).toEqual({ view: true, edit: false, reply: true, delete: true });
      expect((await asReader.list()).count).toBe(1);
      await forbidden(asReader.update(comment.id, { addedReactions: ["👍"] }));
      await forbidden(asReader.update(comment.id, { resolved: true }));
      await forbidden(asReader.reply(comment.id, body("no")));
      await forbidden(asOther.update(comment.id, body("hijack")));
      await forbidden(asOwner.update(comment.id, body("even an admin")));
      // A refused part refuses the whole update.
      await forbidden(asOther.update(comment.id, { ...body("x"), addedReactions: ["👍"] }));
      expect((await asOwner.get(comment.id)).reactions).toEqual([]);
      expect(await asOther.update(comment.id, { addedReactions: ["👍"], resolved: true })).toMatchObject({
        status: "resolved",
        reactions: [{ emoji: "👍", count: 1 }],
      });
      const edited = await asAuthor.update(comment.id, body("mine, edited"));
      expect(edited).toMatchObject({ body: { markdown: "mine, edited" }, editedAt: expect.any(String) });
      await forbidden(asOther.remove(comment.id));
      await forbidden(asReader.remove(comment.id));

      // Replies follow the same rules.
      const reply = await asOther.reply(comment.id, body("re"));
      const replyPath = `${one}/replies/${reply.id}`;
      expect(reply.permissions).toEqual({ view: true, edit: true, reply: true, delete: true });
      expect((await asAuthor.getReply(comment.id, reply.id)).permissions).toEqual({
        view: true,
        edit: false,
        reply: true,
        delete: false,
      });
      await forbidden(asAuthor.updateReply(comment.id, reply.id, body("no")));
      await forbidden(asAuthor.removeReply(comment.id, reply.id));
      expect((await asOther.updateReply(comment.id, reply.id, body("re, edited"))).body).toEqual({
        markdown: "re, edited",
      });
      expect((await api("DELETE", replyPath)).status).toBe(205);

      // The author deletes their own; an admin deletes anyone's.
      const second = await asOther.post(body("second"));
      expect((await other("DELETE", `${base}/${second.id}`)).status).toBe(205);
      expect((await api("DELETE", one)).status).toBe(205);
    }
  });

  it("takes comments on locked spaces, and ignores `resolved` on space replies", async () => {
    const { api, client, spaceId, threads, pathOf } = await setup();
    await client.updateSpaceById({ spaceId, body: { editMode: "locked" } });
    const thread = commentThread(client, threads[0]!);
    const comment = await thread.post(body("still open"));
    const reply = await thread.reply(comment.id, body("re"));
    // Over HTTP: a space reply's update has no `resolved`, so no client type allows it.
    const one = `${pathOf(threads[0]!)}/comments/${comment.id}`;
    expect((await api("PUT", `${one}/replies/${reply.id}`, { resolved: true })).status).toBe(200);
    expect((await thread.get(comment.id)).status).toBe("open");
  });

  it("keeps replies and repliers true as replies come and go", async () => {
    const { client, member, threads, advance } = await setup();
    const a = await member("comment");
    const b = await member("comment");
    const userA = await a.client.getAuthenticatedUser();
    const userB = await b.client.getAuthenticatedUser();
    const asOwner = commentThread(client, threads[0]!);
    const asA = commentThread(a.client, threads[0]!);
    const asB = commentThread(b.client, threads[0]!);
    const comment = await asOwner.post(body("topic"));
    const post = (as: typeof asOwner, text: string) => as.reply(comment.id, body(text));
    const r1 = await post(asA, "a1");
    advance(1000);
    const r2 = await post(asB, "b1");
    advance(1000);
    const r3 = await post(asA, "a2");
    let current = await asOwner.get(comment.id);
    expect(current.replies).toBe(3);
    expect(current.repliers).toEqual([
      { user: userA, count: 2, updatedAt: "2025-01-01T00:00:02.000Z" },
      { user: userB, count: 1, updatedAt: "2025-01-01T00:00:01.000Z" },
    ]);
    const listed = await asOwner.replies(comment.id, { limit: 2 });
    expect(listed.count).toBe(3);
    expect(listed.items.map((item) => item.id)).toEqual([r1.id, r2.id]);
    const rest = await asOwner.replies(comment.id, { limit: 2, page: listed.next!.page, format: "document" });
    expect(rest.items.map((item) => item.id)).toEqual([r3.id]);
    expect(rest.items[0]!.body).toMatchObject({ document: { object: "document" } });
    expect(rest).not.toHaveProperty("next");

    advance(1000);
    await asB.updateReply(comment.id, r2.id, body("b1, edited"));
    await asA.removeReply(comment.id, r3.id);
    current = await asOwner.get(comment.id);
    expect(current.replies).toBe(2);
    expect(current.repliers).toEqual([
      { user: userA, count: 1, updatedAt: "2025-01-01T00:00:00.000Z" },
      { user: userB, count: 1, updatedAt: "2025-01-01T00:00:03.000Z" },
    ]);
    await asA.removeReply(comment.id, r1.id);
    await asB.removeReply(comment.id, r2.id);
    current = await asOwner.get(comment.id);
    expect([current.replies, current.repliers]).toEqual([0, []]);
    expect(await asOwner.replies(comment.id)).toEqual({ count: 0, items: [] });
  });

  it("lists commenters as members, by first post, while they have posts", async () => {
    const { client, member, threads, org } = await setup();
    const a = await member("comment");
    const b = await member("comment");
    const [space, cr] = threads as [ThreadId, ThreadId];
    const first = await commentThread(a.client, space).post(body("a"));
    const second = await commentThread(client, space).post(body("owner"));
    const reply = await commentThread(b.client, space).reply(second.id, body("b"));
    await commentThread(a.client, space).reply(second.id, body("a again"));
    await commentThread(b.client, cr).post(body("b in cr"));
    type Query = Parameters<CommentThread["commenters"]>[0];
    const commenters = (thread: ThreadId, query?: Query) => commentThread(client, thread).commenters(query);
    const ids = async (thread: ThreadId, query?: Query) =>
      (await commenters(thread, query)).items.map((item) => item.id);
    expect(await ids(space)).toEqual([a.userId, (await client.getAuthenticatedUser()).id, b.userId]);
    expect(await ids(cr)).toEqual([b.userId]);
    const page = await commenters(space, { limit: 1 });
    expect(page).toMatchObject({ count: 3, items: [{ object: "member", id: a.userId, role: "comment" }] });
    expect(await ids(space, { limit: 1, page: page.next!.page })).toHaveLength(1);

    // b's only post in the space is a reply: deleting it leaves the commenters.
    await commentThread(b.client, space).removeReply(second.id, reply.id);
    expect(await ids(space)).toHaveLength(2);
    // Deleting a comment uncounts its replies too: a keeps the first comment.
    await commentThread(client, space).remove(second.id);
    expect(await ids(space)).toEqual([a.userId]);
    await commentThread(a.client, space).remove(first.id);
    expect(await commenters(space)).toEqual({ count: 0, items: [] });
    // A commenter who leaves the organization is no longer listed.
    await commentThread(b.client, space).post(body("b again"));
    await client.removeMemberFromOrganizationById({ organizationId: org, userId: b.userId });
    expect(await commenters(space)).toEqual({ count: 0, items: [] });
  });

  it("refuses comment and reply markdown over the markdown limits, storing nothing", async () => {
    const { client, threads } = await setup();
    const nested = "> ".repeat(65) + "deep";
    for (const id of threads) {
      const thread = commentThread(client, id);
      await expect(thread.post(body(nested))).rejects.toMatchObject({
        code: "bad_request",
        message: expect.stringMatching(/^body\.body: .*64 levels/),
      });
      expect((await thread.list()).count).toBe(0);
      const comment = await thread.post(body("fine"));
      await expect(thread.reply(comment.id, body(nested))).rejects.toMatchObject({ code: "bad_request" });
      expect((await thread.get(comment.id)).replies).toBe(0);
    }
  });
});
