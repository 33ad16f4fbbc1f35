import { z } from "zod";
import { findMember } from "../members/access.js";
import { MemberPresenter, memberSchema } from "../members/schemas.js";
import { defineOperation, deleted } from "../registry.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import { nextSequence } from "../shared/sequence.js";
import { pathParam } from "../shared/schema.js";
import type { IndexValue } from "../storage/port.js";
import { tables, type CommenterRecord, type CommentRecord } from "../tables.js";
import { applyEdits, applyResolution, countPosts, removeComment } from "./bookkeeping.js";
import { FAMILIES, requirePage, threadOf, type Family } from "./family.js";
import { CommentPresenter } from "./present.js";
import { replyOperations } from "./replies.js";
import {
  commentSchema,
  formatQuery,
  listCommentsQuery,
  postCommentBody,
  updateCommentBody,
} from "./schemas.js";
import {
  addOpenComments,
  commentPermissions,
  findComment,
  openDelta,
  openThread,
  requireComment,
  requireCommentRole,
  requireDeleteRight,
  requireUpdateRights,
} from "./thread.js";

/**
 * Comments on spaces and on change requests (SPEC.md, "Comments"; docs/comments.md): list, post,
 * get, update (body, resolution, reactions), delete, and the commenters of the thread. Replies are
 * in replies.ts. Counters of open comments change in the transaction of each change.
 */

function familyOperations(family: Family) {
  const where = family.kind === "space" ? "on a space" : "on a change request";
  const commentParams = family.params.extend({ commentId: pathParam() });

  const list = defineOperation({
    id: family.ids.list,
    method: "get",
    path: `${family.prefix}/comments`,
    tag: family.tag,
    summary: `List the comments ${where}, newest first by default, by status, target page and authors`,
    params: family.params,
    query: listCommentsQuery,
    response: listOf(commentSchema),
    async run(context, { params, query }) {
      return context.storage.read(async (tx) => {
        const thread = await openThread(tx, context, threadOf(params));
        const present = new CommentPresenter(tx, context, thread, query.format);
        // Status and target page are index ranges, so order and pages hold across page boundaries.
        const range: IndexValue[] = [thread.space, thread.changeRequestId];
        if (query.targetPage) range.push(query.targetPage);
        if (query.status !== "all") range.push(query.status);
        const index =
          query.status !== "all"
            ? query.targetPage
              ? "byPageStatus"
              : "byStatus"
            : query.targetPage
              ? "byPage"
              : "byScope";
        const authors = query.authors?.length ? new Set(query.authors) : undefined;
        return paginate(tx, query, {
          table: tables.comments,
          index,
          where: range,
          reverse: query.order === "desc",
          ...(authors ? { filter: (record: CommentRecord) => authors.has(record.postedBy) } : {}),
          map: (record: CommentRecord) => present.comment(record),
        });
      });
    },
  });

  const post = defineOperation({
    id: family.ids.post,
    method: "post",
    path: `${family.prefix}/comments`,
    tag: family.tag,
    summary: `Post a comment ${where}, on a page, a node, a table cell or the whole`,
    params: family.params,
    body: postCommentBody,
    response: commentSchema,
    async run(context, { params, body }) {
      return context.storage.write(async (tx) => {
        const thread = await openThread(tx, context, threadOf(params));
        requireCommentRole(thread, "Posting a comment");
        if (body.page) await requirePage(tx, context, thread, body.page);
        const record: CommentRecord = {
          id: context.ids(),
          space: thread.space,
          changeRequest: thread.changeRequestId,
          seq: await nextSequence(tx),
          status: "open",
          page: body.page ?? "",
          ...(body.node ? { node: body.node } : {}),
          ...(body.tableCell ? { tableCell: body.tableCell } : {}),
          revision: thread.revision,
          postedBy: thread.caller.userId,
          postedAt: context.clock().toISOString(),
          markdown: body.body,
          reactions: [],
          replies: 0,
          repliers: [],
        };
        await tx.put(tables.comments.name, record);
        await countPosts(tx, thread, record.postedBy, 1);
        await addOpenComments(tx, thread, 1);
        return new CommentPresenter(tx, context, thread).comment(record);
      });
    },
  });

  const get = defineOperation({
    id: family.ids.get,
    method: "get",
    path: `${family.prefix}/comments/{commentId}`,
    tag: family.tag,
    summary: `Get a comment ${where}`,
    params: commentParams,
    query: z.object(formatQuery),
    response: commentSchema,
    async run(context, { params, query }) {
      return context.storage.read(async (tx) => {
        const thread = await openThread(tx, context, threadOf(params));
        const record = await requireComment(tx, thread, params.commentId as string);
        return new CommentPresenter(tx, context, thread, query.format).comment(record);
      });
    },
  });

  const update = defineOperation({
    id: family.ids.update,
    method: "put",
    path: `${family.prefix}/comments/{commentId}`,
    tag: family.tag,
    summary: `Edit the body (author), resolve or reopen, or react to a comment ${where}`,
    params: commentParams,
    body: updateCommentBody,
    response: commentSchema,
    async run(context, { params, body }) {
      return context.storage.write(async (tx) => {
        const thread = await openThread(tx, context, threadOf(params));
        const current = await requireComment(tx, thread, params.commentId as string);
        requireUpdateRights(commentPermissions(thread, current.postedBy), body, "comment");
        const now = context.clock().toISOString();
        const user = thread.caller.userId;
        const next = applyEdits(applyResolution(current, body.resolved, user, now), body, user, now);
        if (JSON.stringify(next) !== JSON.stringify(current)) {
          await tx.put(tables.comments.name, next);
          await addOpenComments(tx, thread, openDelta(current.status, next.status));
        }
        return new CommentPresenter(tx, context, thread).comment(next);
      });
    },
  });

  const remove = defineOperation({
    id: family.ids.delete,
    method: "delete",
    path: `${family.prefix}/comments/{commentId}`,
    tag: family.tag,
    summary: `Delete a comment ${where} with its replies (its author or a space admin)`,
    params: commentParams,
    emptyStatuses: [204, 205],
    async run(context, { params }) {
      return context.storage.write(async (tx) => {
        const thread = await openThread(tx, context, threadOf(params));
        const current = await findComment(tx, thread, params.commentId as string);
        if (!current) return deleted(false);
        requireDeleteRight(commentPermissions(thread, current.postedBy), "comment");
        await removeComment(tx, thread, current);
        await addOpenComments(tx, thread, openDelta(current.status, undefined));
        return deleted(true);
      });
    },
  });

  const commenters = defineOperation({
    id: family.ids.commenters,
    method: "get",
    path: `${family.prefix}/commenters`,
    tag: family.tag,
    summary: `List the members who have comments or replies ${where}, by their first post`,
    params: family.params,
    query: z.object(pageQuery),
    response: listOf(memberSchema),
    async run(context, { params, query }) {
      return context.storage.read(async (tx) => {
        const thread = await openThread(tx, context, threadOf(params));
        const organization = thread.access.space.organization;
        const members = new MemberPresenter(tx, context, thread.access.membership);
        return paginate(tx, query, {
          table: tables.commenters,
          index: "byScope",
          where: [thread.space, thread.changeRequestId],
          // Users who left the organization are no longer its members.
          filter: async (record: CommenterRecord) => !!(await findMember(tx, organization, record.user)),
          map: async (record: CommenterRecord) =>
            members.present((await findMember(tx, organization, record.user))!),
        });
      });
    },
  });

  return [list, post, get, update, remove, commenters, ...replyOperations(family)] as const;
}

const all = FAMILIES.flatMap((family) => familyOperations(family));

/** Both families, keyed by operation id, for the registry. */
export const commentOperations = Object.fromEntries(
  all.map((operation) => [operation.id, operation]),
) as Record<string, (typeof all)[number]>;
