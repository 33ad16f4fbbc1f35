import { z } from "zod";
import { defineOperation, deleted } from "../registry.js";
import { notFound } from "../shared/errors.js";
import { listOf, paginate } from "../shared/pagination.js";
import { nextSequence } from "../shared/sequence.js";
import { pathParam } from "../shared/schema.js";
import type { WriteTransaction } from "../storage/port.js";
import { tables, type CommentRecord, type CommentReplyRecord } from "../tables.js";
import { applyEdits, applyResolution, countPosts, recountReplies } from "./bookkeeping.js";
import { threadOf, type Family } from "./family.js";
import { CommentPresenter } from "./present.js";
import {
  commentReplySchema,
  formatQuery,
  listRepliesQuery,
  postReplyBody,
  updateCommentBody,
  updateReplyBody,
} from "./schemas.js";
import {
  addOpenComments,
  commentPermissions,
  findComment,
  findReply,
  openDelta,
  openThread,
  requireComment,
  requireCommentRole,
  requireDeleteRight,
  requireUpdateRights,
  type Thread,
} from "./thread.js";

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
  if (JSON.stringify(next) !== JSON.stringify(before)) await tx.put(tables.comments.name, next);
  await addOpenComments(tx, thread, openDelta(before.status, next.status));
}

export function replyOperations(family: Family) {
  const where = family.kind === "space" ? "on a space" : "on a change request";
  const commentParams = family.params.extend({ commentId: pathParam() });
  const replyParams = commentParams.extend({ commentReplyId: pathParam() });
  const inChangeRequest = family.kind === "change-request";

  const list = defineOperation({
    id: family.ids.listReplies,
    method: "get",
    path: `${family.prefix}/comments/{commentId}/replies`,
    tag: family.tag,
    summary: `List the replies to a comment ${where}, oldest first`,
    params: commentParams,
    query: listRepliesQuery,
    response: listOf(commentReplySchema),
    async run(context, { params, query }) {
      return context.storage.read(async (tx) => {
        const thread = await openThread(tx, context, threadOf(params));
        const comment = await requireComment(tx, thread, params.commentId as string);
        const present = new CommentPresenter(tx, context, thread, query.format);
        return paginate(tx, query, {
          table: tables.commentReplies,
          index: "byComment",
          where: [comment.id],
          map: (record: CommentReplyRecord) => present.reply(record),
        });
      });
    },
  });

  const post = defineOperation({
    id: family.ids.postReply,
    method: "post",
    path: `${family.prefix}/comments/{commentId}/replies`,
    tag: family.tag,
    summary: `Reply to a comment ${where}`,
    params: commentParams,
    // The reference gives only the change-request family a `format` here.
    query: z.object(inChangeRequest ? formatQuery : {}),
    body: postReplyBody,
    response: commentReplySchema,
    async run(context, { params, query, body }) {
      return context.storage.write(async (tx) => {
        const thread = await openThread(tx, context, threadOf(params));
        requireCommentRole(thread, "Replying to a comment");
        const comment = await requireComment(tx, thread, params.commentId as string);
        const record: CommentReplyRecord = {
          id: context.ids(),
          comment: comment.id,
          space: thread.space,
          changeRequest: thread.changeRequestId,
          seq: await nextSequence(tx),
          postedBy: thread.caller.userId,
          postedAt: context.clock().toISOString(),
          markdown: body.body,
          reactions: [],
        };
        await tx.put(tables.commentReplies.name, record);
        await saveComment(tx, thread, comment, comment);
        await countPosts(tx, thread, record.postedBy, 1);
        const format = (query as { format?: "document" | "markdown" }).format;
        return new CommentPresenter(tx, context, thread, format).reply(record);
      });
    },
  });

  const get = defineOperation({
    id: family.ids.getReply,
    method: "get",
    path: `${family.prefix}/comments/{commentId}/replies/{commentReplyId}`,
    tag: family.tag,
    summary: `Get a reply to a comment ${where}`,
    params: replyParams,
    query: z.object(formatQuery),
    response: commentReplySchema,
    async run(context, { params, query }) {
      return context.storage.read(async (tx) => {
        const thread = await openThread(tx, context, threadOf(params));
        const comment = await requireComment(tx, thread, params.commentId as string);
        const reply = await findReply(tx, comment, params.commentReplyId as string);
        if (!reply) throw notFound(`Reply "${params.commentReplyId as string}" not found`);
        return new CommentPresenter(tx, context, thread, query.format).reply(reply);
      });
    },
  });

  const update = defineOperation({
    id: family.ids.updateReply,
    method: "put",
    path: `${family.prefix}/comments/{commentId}/replies/{commentReplyId}`,
    tag: family.tag,
    summary: inChangeRequest
      ? "Edit the body (author) of or react to a reply; `resolved` resolves or reopens its comment"
      : "Edit the body (author) of or react to a reply to a space comment",
    params: replyParams,
    body: inChangeRequest ? updateCommentBody : updateReplyBody,
    response: commentReplySchema,
    async run(context, { params, body }) {
      const change = body as z.output<typeof updateCommentBody>;
      return context.storage.write(async (tx) => {
        const thread = await openThread(tx, context, threadOf(params));
        const comment = await requireComment(tx, thread, params.commentId as string);
        const current = await findReply(tx, comment, params.commentReplyId as string);
        if (!current) throw notFound(`Reply "${params.commentReplyId as string}" not found`);
        requireUpdateRights(commentPermissions(thread, current.postedBy), change, "reply");
        const now = context.clock().toISOString();
        const user = thread.caller.userId;
        const next = applyEdits(current, change, user, now);
        if (JSON.stringify(next) !== JSON.stringify(current)) await tx.put(tables.commentReplies.name, next);
        await saveComment(tx, thread, comment, applyResolution(comment, change.resolved, user, now));
        return new CommentPresenter(tx, context, thread).reply(next);
      });
    },
  });

  const remove = defineOperation({
    id: family.ids.deleteReply,
    method: "delete",
    path: `${family.prefix}/comments/{commentId}/replies/{commentReplyId}`,
    tag: family.tag,
    summary: `Delete a reply ${where} (its author or a space admin)`,
    params: replyParams,
    emptyStatuses: [204, 205],
    async run(context, { params }) {
      return context.storage.write(async (tx) => {
        const thread = await openThread(tx, context, threadOf(params));
        // No comment, no reply: 204, as for a reply that does not exist.
        const comment = await findComment(tx, thread, params.commentId as string);
        const reply = comment && (await findReply(tx, comment, params.commentReplyId as string));
        if (!comment || !reply) return deleted(false);
        requireDeleteRight(commentPermissions(thread, reply.postedBy), "reply");
        await tx.delete(tables.commentReplies.name, reply.id);
        await saveComment(tx, thread, comment, comment);
        await countPosts(tx, thread, reply.postedBy, -1);
        return deleted(true);
      });
    },
  });

  return [list, post, get, update, remove] as const;
}
