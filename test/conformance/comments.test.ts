import { MemberRole, type GitBookAPI, type PostCommentSchema, type UpdateCommentSchema } from "@gitbook/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";
import { COVERAGE } from "./coverage.js";

type Query = { format?: "document" | "markdown" };
type ListQuery = Query & {
  page?: string;
  limit?: number;
  order?: "asc" | "desc";
  status?: "all" | "open" | "resolved";
  targetPage?: string;
  authors?: string[];
};

/** One family of comment operations through the official client, with uniform signatures. */
function family(api: GitBookAPI, space: string, cr?: string) {
  const s = api.spaces;
  if (cr === undefined) {
    return {
      list: (q?: ListQuery) => s.listCommentsInSpace(space, q),
      post: (b: PostCommentSchema) => s.postCommentInSpace(space, b),
      get: (id: string, q?: Query) => s.getCommentInSpace(space, id, q),
      update: (id: string, b: UpdateCommentSchema) => s.updateCommentInSpace(space, id, b),
      remove: (id: string) => s.deleteCommentInSpace(space, id),
      replies: (id: string, q?: ListQuery) => s.listCommentRepliesInSpace(space, id, q),
      reply: (id: string, b: PostCommentSchema) => s.postCommentReplyInSpace(space, id, b),
      getReply: (id: string, r: string, q?: Query) => s.getCommentReplyInSpace(space, id, r, q),
      updateReply: (id: string, r: string, b: UpdateCommentSchema) =>
        s.updateCommentReplyInSpace(space, id, r, b),
      removeReply: (id: string, r: string) => s.deleteCommentReplyInSpace(space, id, r),
      commenters: (q?: ListQuery) => s.listCommentersInSpace(space, q),
    };
  }
  return {
    list: (q?: ListQuery) => s.listCommentsInChangeRequest(space, cr, q),
    post: (b: PostCommentSchema) => s.postCommentInChangeRequest(space, cr, b),
    get: (id: string, q?: Query) => s.getCommentInChangeRequest(space, cr, id, q),
    update: (id: string, b: UpdateCommentSchema) => s.updateCommentInChangeRequest(space, cr, id, b),
    remove: (id: string) => s.deleteCommentInChangeRequest(space, cr, id),
    replies: (id: string, q?: ListQuery) => s.listCommentRepliesInChangeRequest(space, cr, id, q),
    reply: (id: string, b: PostCommentSchema, q?: Query) =>
      s.postCommentReplyInChangeRequest(space, cr, id, b, q),
    getReply: (id: string, r: string, q?: Query) => s.getCommentReplyInChangeRequest(space, cr, id, r, q),
    updateReply: (id: string, r: string, b: UpdateCommentSchema) =>
      s.updateCommentReplyInChangeRequest(space, cr, id, r, b),
    removeReply: (id: string, r: string) => s.deleteCommentReplyInChangeRequest(space, cr, id, r),
    commenters: (q?: ListQuery) => s.listCommentersInChangeRequest(space, cr, q),
  };
}

describe.each(STORAGE_KINDS)("conformance: comments (%s)", (kind) => {
  let h: Harness;
  let owners = 0;
  beforeAll(async () => {
    h = await createHarness(kind, { clock: () => new Date("2025-05-01T09:00:00.000Z") });
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.comments);
    h.expectConformant();
    await h.close();
  });

  /** An owner with a space holding a page and a change request, plus a commenter and a reader. */
  async function setup() {
    owners++;
    const owner = await h.test.createUser(`Owner ${owners}`, `owner-${owners}-${kind}@acme.test`);
    const api = h.client(owner.token);
    const org = (await h.test.as(owner).createOrganization({ body: { title: "Org" } })).id;
    const { data: space } = await api.orgs.createSpace(org, { title: "Docs" });
    const page = await h.test.as(owner).createPage({
      spaceId: space.id,
      body: { title: "Intro", markdown: "Hello" },
    });
    const { data: cr } = await api.spaces.createChangeRequest(space.id, { subject: "Edit" });
    const join = async (role: MemberRole) => {
      const email = `${role}-${owners}-${kind}@acme.test`;
      const user = await h.test.createUser(`${role} ${owners}`, email);
      await api.orgs.inviteUsersToOrganization(org, { emails: [email], role });
      // Accepting is a docsbase extension, outside the official client.
      const [invite] = (await h.test.as(user).listUserInvites()).items;
      await h.test.as(user).acceptUserInvite({ invitationId: invite!.id });
      return { ...user, api: h.client(user.token) };
    };
    const commenter = await join(MemberRole.Comment);
    const reader = await join(MemberRole.Read);
    return { owner, api, space, page: page.id, cr, commenter, reader };
  }

  it.each(["space", "change request"])("runs every %s comment operation", async (which) => {
    const { owner, api, space, page, cr, commenter, reader } = await setup();
    const crId = which === "space" ? undefined : String(cr.number);
    const asOwner = family(api, space.id, crId);
    const asCommenter = family(commenter.api, space.id, crId);
    const asReader = family(reader.api, space.id, crId);

    const { data: first, status } = await asCommenter.post({ page, node: "0", body: { markdown: "Typo?" } });
    expect(status).toBe(200);
    expect(first).toMatchObject({ object: "comment", status: "open", body: { markdown: "Typo?" } });
    expect(first.target).toMatchObject({ space: space.id, page: { id: page }, node: { id: "0" } });
    if (crId) expect(first.target.changeRequest).toBe(cr.id);
    const { data: second } = await asOwner.post({ body: { markdown: "Looks good" } });
    expect(await statusOf(asReader.post({ body: { markdown: "no" } }))).toBe(403);
    expect(await statusOf(asOwner.post({ page: "missing", body: { markdown: "x" } }))).toBe(400);

    const { data: doc } = await asReader.get(first.id, { format: "document" });
    expect(doc.body).toMatchObject({ document: { object: "document" } });
    expect(doc.permissions).toEqual({ view: true, edit: false, reply: false, delete: false });
    expect(await statusOf(asOwner.get("missing"))).toBe(404);

    const { data: reacted } = await asOwner.update(first.id, {
      addedReactions: ["🎉", "🎉"],
      resolved: true,
    });
    expect(reacted).toMatchObject({
      status: "resolved",
      resolvedBy: { id: owner.id },
      reactions: [{ emoji: "🎉", count: 1 }],
    });
    const { data: edited } = await asCommenter.update(first.id, { body: { markdown: "Typo fixed?" } });
    expect(edited.editedAt).toBeDefined();
    expect(await statusOf(asOwner.update(first.id, { body: { markdown: "mine now" } }))).toBe(403);

    const { data: page1 } = await asReader.list({ limit: 1, order: "asc", status: "all" });
    expect(page1.count).toBe(2);
    expect(page1.items.map((item) => item.id)).toEqual([first.id]);
    const { data: page2 } = await asReader.list({ limit: 1, order: "asc", page: page1.next!.page });
    expect(page2.items.map((item) => item.id)).toEqual([second.id]);
    const { data: open } = await asOwner.list({ status: "open", format: "markdown" });
    expect(open.items.map((item) => item.id)).toEqual([second.id]);
    const { data: onPage } = await asOwner.list({ targetPage: page, authors: [commenter.id, owner.id] });
    expect(onPage.items.map((item) => item.id)).toEqual([first.id]);

    const { data: reply } = await asOwner.reply(first.id, { body: { markdown: "Yes" } });
    expect(reply).toMatchObject({ object: "comment-reply", body: { markdown: "Yes" } });
    const { data: again } = await asCommenter.reply(first.id, { body: { markdown: "Thanks" } });
    const { data: withReplies } = await asOwner.get(first.id);
    expect(withReplies.replies).toBe(2);
    expect(withReplies.repliers.map((replier) => [replier.user.id, replier.count])).toEqual([
      [owner.id, 1],
      [commenter.id, 1],
    ]);
    const { data: replies } = await asReader.replies(first.id, { limit: 1, format: "document" });
    expect(replies.count).toBe(2);
    expect(replies.items[0]!.body).toMatchObject({ document: { object: "document" } });
    expect((await asReader.getReply(first.id, again.id, { format: "markdown" })).data.id).toBe(again.id);
    const { data: reacting } = await asCommenter.updateReply(first.id, reply.id, { addedReactions: ["👍"] });
    expect(reacting.reactions).toMatchObject([
      { emoji: "👍", count: 1, users: [{ user: { id: commenter.id } }] },
    ]);
    if (crId) {
      await asCommenter.updateReply(first.id, again.id, { resolved: false });
      expect((await asOwner.get(first.id)).data.status).toBe("open");
    }

    const { data: commenters } = await asReader.commenters({ limit: 1 });
    expect(commenters).toMatchObject({ count: 2, items: [{ object: "member", id: commenter.id }] });
    const { data: rest } = await asReader.commenters({ limit: 1, page: commenters.next!.page });
    expect(rest.items.map((member) => member.id)).toEqual([owner.id]);

    expect(await statusOf(asCommenter.removeReply(first.id, reply.id))).toBe(403);
    expect((await asOwner.removeReply(first.id, reply.id)).status).toBe(205);
    expect((await asOwner.removeReply(first.id, reply.id)).status).toBe(204);
    expect(await statusOf(asCommenter.remove(second.id))).toBe(403);
    expect((await asCommenter.remove(first.id)).status).toBe(205);
    expect((await asOwner.remove(first.id)).status).toBe(204);
    const counter = crId
      ? (await api.spaces.getChangeRequestById(space.id, crId)).data.comments
      : (await api.spaces.getSpaceById(space.id)).data.comments;
    expect(counter).toBe(1);
  });
});
