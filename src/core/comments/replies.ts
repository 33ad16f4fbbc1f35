import * as z from "zod";
import { defineOperation, deleted } from "../registry.js";
import { LARGE_ITEMS_PAGE_CHARS, listOf, paginate } from "../shared/pagination.js";
import { nextSequence } from "../shared/sequence.js";
import type { WriteTransaction } from "../storage/port.js";
import { onComment, onReply, onReplyIfPresent } from "./access.js";
import { applyEdits, applyResolution, countNewPost, countPosts, recountReplies } from "./bookkeeping.js";
import { typed, type Family } from "./family.js";
import { CommentPresenter } from "./present.js";
import { postOperations } from "./posts.js";
import {
  commentReplySchema,
  formatQuery,
  listRepliesQuery,
  postReplyBody,
  updateCommentBody,
  updateReplyBody,
} from "./schemas.js";
import { type CommentRecord, type CommentReplyRecord, commentRepliesTable, commentsTable } from "./tables.js";
import { addOpenComments, commentPermissions, openDelta, requireDeleteRight, type Thread } from "./thread.js";

/**
 * Replies to comments, oldest first. Every change recomputes the comment's `replies` and
 * `repliers` from its stored replies in the same transaction. In the change-request family, an
 * update may also carry `resolved`, which resolves or reopens the reply's comment.
 */

/** Stores the comment with its reply bookkeeping recomputed (and any other change made to it). */
async function saveComment(
  tx: WriteTransaction,
  thread: Thread,
  before: CommentRecord,
  after: CommentRecord,
) {
  const next = await recountReplies(tx, after);
  if (JSON.stringify(next) !== JSON.stringify(before)) await tx.put(commentsTable, next);
  await addOpenComments(tx, thread, openDelta(before.status, next.status));
}

/** The body of a reply update: a change request's replies also take `resolved`, for their comment. */
type ReplyUpdateBody<F extends Family> = F["kind"] extends "change-request"
  ? typeof updateCommentBody
  : typeof updateReplyBody;

export function replyOperations<F extends Family>(family: F) {
  const where = family.kind === "space" ? "on a space" : "on a change request";
  const inChangeRequest = family.kind === "change-request";
  const { idOf, commentParams, replyParams } = typed(family);

  const list = defineOperation({
    id: idOf("listReplies"),
    method: "get",
    path: `${family.prefix}/comments/{commentId}/replies`,
    tag: family.tag,
    summary: `List the replies to a comment ${where}, oldest first`,
    access: onComment(family.kind),
    params: commentParams,
    query: listRepliesQuery,
    response: listOf(commentReplySchema),
    async run(scope, { query }) {
      const { tx, thread, comment } = scope;
      const presenter = new CommentPresenter(tx, scope, thread, query.format);
      return paginate(tx, query, {
        table: commentRepliesTable,
        index: "byComment",
        where: [comment.id],
        map: (record: CommentReplyRecord) => presenter.presentReply(record),
        maxChars: LARGE_ITEMS_PAGE_CHARS,
      });
    },
  });

  const post = defineOperation({
    id: idOf("postReply"),
    method: "post",
    path: `${family.prefix}/comments/{commentId}/replies`,
    tag: family.tag,
    summary: `Reply to a comment ${where}`,
    access: onComment(family.kind, { flag: "comment", action: "Replying to a comment" }),
    params: commentParams,
    // The reference gives only the change-request family a `format` here.
    query: inChangeRequest ? z.object(formatQuery) : z.object({}),
    body: postReplyBody,
    response: commentReplySchema,
    async run(scope, { query, body }) {
      const { tx, thread, comment } = scope;
      const record: CommentReplyRecord = {
        id: scope.ids(),
        comment: comment.id,
        space: thread.space,
        changeRequest: thread.changeRequestId,
        seq: await nextSequence(tx, thread.space),
        postedBy: thread.caller.userId,
        postedAt: scope.clock().toISOString(),
        markdown: body.body,
        reactions: [],
      };
      await tx.put(commentRepliesTable, record);
      await saveComment(tx, thread, comment, comment);
      await countNewPost(tx, scope, thread, record.postedBy);
      const format = "format" in query ? query.format : undefined;
      return new CommentPresenter(tx, scope, thread, format).presentReply(record);
    },
  });

  const [get, update] = postOperations(family, {
    noun: "reply",
    ids: { get: idOf("getReply"), update: idOf("updateReply") },
    path: `${family.prefix}/comments/{commentId}/replies/{commentReplyId}`,
    summaries: {
      get: `Get a reply to a comment ${where}`,
      update: inChangeRequest
        ? "Edit the body (author) of or react to a reply; `resolved` resolves or reopens its comment"
        : "Edit the body (author) of or react to a reply to a space comment",
    },
    params: replyParams,
    access: onReply(family.kind),
    // Replies of space comments take no `resolved`: it is then always undefined. The cast keeps
    // each family's own body type in the client (a conditional value types as the union).
    updateBody: (inChangeRequest ? updateCommentBody : updateReplyBody) as ReplyUpdateBody<F>,
    response: commentReplySchema,
    table: commentRepliesTable,
    loaded: (scope) => scope.reply,
    present: (presenter, reply) => presenter.presentReply(reply),
    edit: (reply, change, user, now) => applyEdits(reply, change, user, now),
    settle: ({ tx, thread, comment }, _before, _after, change, user, now) =>
      saveComment(tx, thread, comment, applyResolution(comment, change.resolved, user, now)),
  });

  const remove = defineOperation({
    id: idOf("deleteReply"),
    method: "delete",
    path: `${family.prefix}/comments/{commentId}/replies/{commentReplyId}`,
    tag: family.tag,
    summary: `Delete a reply ${where} (its author or a space admin)`,
    access: onReplyIfPresent(family.kind),
    params: replyParams,
    emptyStatuses: [204, 205],
    async run({ tx, thread, comment, reply }) {
      // No comment, no reply: 204, as for a reply that does not exist.
      if (!comment || !reply) return deleted(false);
      requireDeleteRight(commentPermissions(thread, reply.postedBy), "reply");
      await tx.delete(commentRepliesTable, reply.id);
      await saveComment(tx, thread, comment, comment);
      await countPosts(tx, thread, reply.postedBy, -1);
      return deleted(true);
    },
  });

  return [list, post, get, update, remove] as const;
}
