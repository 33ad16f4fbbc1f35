import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";

/** A space with one page and one change request, and helpers on both comment threads. */
async function setupComments() {
  const workspace = await createWorkspace();
  const spaceId = await workspace.space({ title: "Docs" });
  const { api } = workspace;
  const page = (await api("POST", `/spaces/${spaceId}/content/pages`, { title: "Intro", markdown: "Hi" }))
    .body;
  const cr = (await api("POST", `/spaces/${spaceId}/change-requests`, { subject: "Edit" })).body;
  const threads = {
    space: `/spaces/${spaceId}`,
    cr: `/spaces/${spaceId}/change-requests/${cr.id}`,
  };
  const post = async (thread: string, body: object = { body: { markdown: "Hello" } }, as = api) => {
    const posted = await as("POST", `${thread}/comments`, body);
    if (posted.status !== 200) throw new Error(JSON.stringify(posted.body));
    return posted.body;
  };
  const reply = async (thread: string, comment: string, markdown = "Re", as = api) => {
    const posted = await as("POST", `${thread}/comments/${comment}/replies`, { body: { markdown } });
    if (posted.status !== 200) throw new Error(JSON.stringify(posted.body));
    return posted.body;
  };
  /** Open comments of the space and of the change request, as their counters say. */
  const counters = async () => [
    (await api("GET", `/spaces/${spaceId}`)).body.comments,
    (await api("GET", `/spaces/${spaceId}/change-requests/${cr.id}`)).body.comments,
  ];
  return { ...workspace, spaceId, page, cr, threads, post, reply, counters };
}

describe("comments", () => {
  it("posts a comment on a page and presents it in markdown or as a document", async () => {
    const { api, page, threads, spaceId, post } = await setupComments();
    const { body: me } = await api("GET", "/user");
    const { body: space } = await api("GET", threads.space);
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
    const asDocument = await api("GET", `${threads.space}/comments/${comment.id}?format=document`);
    expect(asDocument.body.body.document).toMatchObject({
      object: "document",
      nodes: [{ type: "paragraph" }],
    });
    expect((await api("GET", `${threads.space}/comments/${comment.id}`)).body).toEqual(comment);
    // A JSON document in is stored as markdown.
    const fromDocument = await post(threads.space, { body: { document: asDocument.body.body.document } });
    expect(fromDocument.body).toEqual({ markdown: "**Nice**" });
  });

  it("anchors change request comments in the change request and checks pages there", async () => {
    const { api, cr, threads, spaceId, post, page } = await setupComments();
    const inCr = (await api("POST", `${threads.cr}/content/pages`, { title: "New" })).body;
    const comment = await post(threads.cr, { page: inCr.id, body: { markdown: "Why?" } });
    expect(comment.target).toEqual({
      space: spaceId,
      revision: (await api("GET", threads.cr)).body.revision,
      changeRequest: cr.id,
      page: { id: inCr.id },
    });
    expect(comment.urls.location).toBe(`http://docsbase.test/v1${threads.cr}/comments/${comment.id}`);
    // The page exists only in the change request; by number works too.
    const onSpace = await api("POST", `${threads.space}/comments`, {
      page: inCr.id,
      body: { markdown: "x" },
    });
    expect(onSpace.status).toBe(400);
    expect(onSpace.body.error.message).toMatch(/^body\.page: /);
    expect((await api("GET", `/spaces/${spaceId}/change-requests/1/comments/${comment.id}`)).status).toBe(
      200,
    );
    // A comment of one thread is not found through the other.
    expect((await api("GET", `${threads.space}/comments/${comment.id}`)).status).toBe(404);
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
    const { api, threads, post } = await setupComments();
    const message = async (method: string, path: string, body: unknown) => {
      const answer = await api(method, path, body);
      expect(answer.status).toBe(400);
      return answer.body.error.message as string;
    };
    const base = `${threads.space}/comments`;
    expect(await message("POST", base, {})).toMatch(/^body\.body: /);
    expect(await message("POST", base, { body: {} })).toMatch(/^body\.body: /);
    expect(await message("POST", base, { body: { markdown: "  " } })).toMatch(/^body\.body: /);
    expect(await message("POST", base, { body: { markdown: "x".repeat(100_001) } })).toMatch(
      /^body\.body\.markdown: /,
    );
    expect(await message("POST", base, { page: "nope", body: { markdown: "x" } })).toMatch(/^body\.page: /);
    expect(await message("POST", base, { tableCell: { record: "r" }, body: { markdown: "x" } })).toMatch(
      /^body\.tableCell\.definition: /,
    );
    const comment = await post(threads.space);
    const one = `${base}/${comment.id}`;
    expect(await message("PUT", one, { addedReactions: [""] })).toMatch(/^body\.addedReactions\.0: /);
    expect(await message("PUT", one, { removedReactions: ["x".repeat(51)] })).toMatch(
      /^body\.removedReactions\.0: /,
    );
    expect(await message("PUT", one, { resolved: "yes" })).toMatch(/^body\.resolved: /);
    expect(await message("GET", `${base}?status=closed`, undefined)).toMatch(/^query\.status: /);
    expect(await message("GET", `${base}?order=up`, undefined)).toMatch(/^query\.order: /);
    expect(await message("GET", `${one}?format=html`, undefined)).toMatch(/^query\.format: /);
    expect(await message("GET", `${base}?limit=1001`, undefined)).toMatch(/^query\.limit: /);
  });

  it("keeps the open-comment counters true through post, resolve, reopen and delete", async () => {
    const { api, threads, post, reply, counters } = await setupComments();
    expect(await counters()).toEqual([0, 0]);
    const a = await post(threads.space);
    const b = await post(threads.space);
    const c = await post(threads.cr);
    expect(await counters()).toEqual([2, 1]);

    const resolved = await api("PUT", `${threads.space}/comments/${a.id}`, { resolved: true });
    const { body: me } = await api("GET", "/user");
    expect(resolved.body).toMatchObject({
      status: "resolved",
      resolvedAt: "2025-01-01T00:00:00.000Z",
      resolvedBy: me,
    });
    expect(await counters()).toEqual([1, 1]);
    // Resolving again changes nothing.
    await api("PUT", `${threads.space}/comments/${a.id}`, { resolved: true });
    expect(await counters()).toEqual([1, 1]);
    const reopened = await api("PUT", `${threads.space}/comments/${a.id}`, { resolved: false });
    expect(reopened.body.status).toBe("open");
    expect(reopened.body).not.toHaveProperty("resolvedAt");
    expect(reopened.body).not.toHaveProperty("resolvedBy");
    expect(await counters()).toEqual([2, 1]);

    // A resolved comment's deletion leaves the count; an open one's lowers it.
    await api("PUT", `${threads.space}/comments/${b.id}`, { resolved: true });
    expect(await counters()).toEqual([1, 1]);
    expect((await api("DELETE", `${threads.space}/comments/${b.id}`)).status).toBe(205);
    expect(await counters()).toEqual([1, 1]);
    expect((await api("DELETE", `${threads.space}/comments/${a.id}`)).status).toBe(205);
    expect(await counters()).toEqual([0, 1]);

    // In a change request, `resolved` on a reply resolves and reopens its comment.
    const r = await reply(threads.cr, c.id);
    const onReply = await api("PUT", `${threads.cr}/comments/${c.id}/replies/${r.id}`, { resolved: true });
    expect(onReply.status).toBe(200);
    expect((await api("GET", `${threads.cr}/comments/${c.id}`)).body.status).toBe("resolved");
    expect(await counters()).toEqual([0, 0]);
    await api("PUT", `${threads.cr}/comments/${c.id}/replies/${r.id}`, { resolved: false });
    expect(await counters()).toEqual([0, 1]);
    // Replies and reactions never move the counters.
    await reply(threads.cr, c.id);
    await api("PUT", `${threads.cr}/comments/${c.id}`, { addedReactions: ["👍"] });
    expect(await counters()).toEqual([0, 1]);
    expect((await api("DELETE", `${threads.cr}/comments/${c.id}`)).status).toBe(205);
    expect(await counters()).toEqual([0, 0]);
  });

  it("counts each user's reaction with an emoji once, and ignores removals by non-reactors", async () => {
    const { api, threads, post, member, advance } = await setupComments();
    const other = await member("comment");
    const comment = await post(threads.space);
    const one = `${threads.space}/comments/${comment.id}`;
    await api("PUT", one, { addedReactions: ["👍", "👍"] });
    advance(1000);
    await api("PUT", one, { addedReactions: ["👍", "🎉"] });
    await other("PUT", one, { addedReactions: ["👍"] });
    let { body } = await api("GET", one);
    const { body: me } = await api("GET", "/user");
    const { body: them } = await other("GET", "/user");
    expect(body.reactions).toEqual([
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
    await other("PUT", one, { removedReactions: ["🎉", "🚀"] });
    expect((await api("GET", one)).body.reactions).toEqual(body.reactions);
    await other("PUT", one, { removedReactions: ["👍"] });
    await api("PUT", one, { addedReactions: ["🚀"], removedReactions: ["🚀", "🎉"] });
    ({ body } = await api("GET", one));
    expect(body.reactions).toEqual([
      { emoji: "👍", count: 1, users: [{ user: me, reactedAt: expect.any(String) }] },
    ]);
    // Reactions on replies follow the same rules.
    const reply = (await api("POST", `${one}/replies`, { body: { markdown: "r" } })).body;
    await other("PUT", `${one}/replies/${reply.id}`, { addedReactions: ["👀", "👀"] });
    const { body: updated } = await api("GET", `${one}/replies/${reply.id}`);
    expect(updated.reactions).toEqual([
      { emoji: "👀", count: 1, users: [{ user: them, reactedAt: expect.any(String) }] },
    ]);
  });

  it("answers 205 when a comment or reply was deleted and 204 when it did not exist", async () => {
    const { api, threads, post, reply, stored } = await setupComments();
    for (const thread of [threads.space, threads.cr]) {
      const comment = await post(thread);
      const r = await reply(thread, comment.id);
      const replyPath = `${thread}/comments/${comment.id}/replies/${r.id}`;
      expect((await api("DELETE", replyPath)).status).toBe(205);
      expect((await api("DELETE", replyPath)).status).toBe(204);
      expect((await api("GET", replyPath)).status).toBe(404);
      const kept = await reply(thread, comment.id);
      expect((await api("DELETE", `${thread}/comments/${comment.id}`)).status).toBe(205);
      expect((await api("DELETE", `${thread}/comments/${comment.id}`)).status).toBe(204);
      expect((await api("GET", `${thread}/comments/${comment.id}`)).status).toBe(404);
      // Deleting a comment deletes its replies; a reply of a missing comment "did not exist".
      expect(await stored("commentReplies", kept.id)).toBeUndefined();
      expect((await api("DELETE", `${thread}/comments/${comment.id}/replies/${kept.id}`)).status).toBe(204);
      expect((await api("DELETE", `${thread}/comments/nope`)).status).toBe(204);
    }
    // A thread that does not exist is still 404.
    expect((await api("DELETE", `${threads.space.replace(/[^/]+$/, "nope")}/comments/x`)).status).toBe(404);
  });
});
