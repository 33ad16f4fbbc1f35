import * as z from "zod";
import { findMember } from "../members/access.js";
import { memberSchema } from "../members/schemas.js";
import { defineOperation, deleted, keyed } from "../registry.js";
import { LARGE_ITEMS_PAGE_CHARS, listOf, pageQuery, paginate } from "../shared/pagination.js";
import type { IndexValue } from "../storage/port.js";
import { onComment, onCommentIfPresent, onThread } from "./access.js";
import { addComment, applyEdits, applyResolution, removeComment } from "./bookkeeping.js";
import { changeRequestFamily, requirePage, spaceFamily, typed, type Family } from "./family.js";
import { CommentPresenter } from "./present.js";
import { postOperations } from "./posts.js";
import { replyOperations } from "./replies.js";
import { commentSchema, listCommentsQuery, postCommentBody, updateCommentBody } from "./schemas.js";
import { type CommentRecord, type CommenterRecord, commentersTable, commentsTable } from "./tables.js";
import { addOpenComments, commentPermissions, openDelta, requireDeleteRight } from "./thread.js";
import { MemberPresenter } from "../members/present.js";

/**
 * Comments on spaces and on change requests (docs/comments.md): list, post,
 * get, update (body, resolution, reactions), delete, and the commenters of the thread. Replies are
 * in replies.ts; get and update are written once for both, in posts.ts. Counters of open comments
 * change in the transaction of each change.
 */

function familyOperations<F extends Family>(family: F) {
  const where = family.kind === "space" ? "on a space" : "on a change request";
  const { idOf, params, commentParams } = typed(family);

  const list = defineOperation({
    id: idOf("list"),
    method: "get",
    path: `${family.prefix}/comments`,
    tag: family.tag,
    summary: `List the comments ${where}, newest first by default, by status, target page and authors`,
    access: onThread(family.kind),
    params,
    query: listCommentsQuery,
    response: listOf(commentSchema),
    async run(scope, { query }) {
      const { tx, thread } = scope;
      const presenter = new CommentPresenter(tx, scope, thread, query.format);
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
        table: commentsTable,
        index,
        where: range,
        reverse: query.order === "desc",
        ...(authors ? { filter: (record: CommentRecord) => authors.has(record.postedBy) } : {}),
        map: (record: CommentRecord) => presenter.presentComment(record),
        // Each comment holds up to 100,000 characters: the page is bounded in size, not count.
        maxChars: LARGE_ITEMS_PAGE_CHARS,
      });
    },
  });

  const post = defineOperation({
    id: idOf("post"),
    method: "post",
    path: `${family.prefix}/comments`,
    tag: family.tag,
    summary: `Post a comment ${where}, on a page, a node, a table cell or the whole`,
    access: onThread(family.kind, { flag: "comment", action: "Posting a comment" }),
    params,
    body: postCommentBody,
    response: commentSchema,
    async run(scope, { body }) {
      const { tx, thread } = scope;
      if (body.page) await requirePage(tx, scope, thread, body.page);
      const record = await addComment(tx, scope, thread, {
        markdown: body.body,
        ...(body.page ? { page: body.page } : {}),
        ...(body.node ? { node: body.node } : {}),
        ...(body.tableCell ? { tableCell: body.tableCell } : {}),
      });
      return new CommentPresenter(tx, scope, thread).presentComment(record);
    },
  });

  const [get, update] = postOperations(family, {
    noun: "comment",
    ids: { get: idOf("get"), update: idOf("update") },
    path: `${family.prefix}/comments/{commentId}`,
    summaries: {
      get: `Get a comment ${where}`,
      update: `Edit the body (author), resolve or reopen, or react to a comment ${where}`,
    },
    params: commentParams,
    access: onComment(family.kind),
    updateBody: updateCommentBody,
    response: commentSchema,
    table: commentsTable,
    loaded: (scope) => scope.comment,
    present: (presenter, comment) => presenter.presentComment(comment),
    edit: (comment, change, user, now) =>
      applyEdits(applyResolution(comment, change.resolved, user, now), change, user, now),
    settle: ({ tx, thread }, before, after) =>
      addOpenComments(tx, thread, openDelta(before.status, after.status)),
  });

  const remove = defineOperation({
    id: idOf("delete"),
    method: "delete",
    path: `${family.prefix}/comments/{commentId}`,
    tag: family.tag,
    summary: `Delete a comment ${where} with its replies (its author or a space admin)`,
    access: onCommentIfPresent(family.kind),
    params: commentParams,
    emptyStatuses: [204, 205],
    async run({ tx, thread, comment }) {
      if (!comment) return deleted(false);
      requireDeleteRight(commentPermissions(thread, comment.postedBy), "comment");
      await removeComment(tx, thread, comment);
      await addOpenComments(tx, thread, openDelta(comment.status, undefined));
      return deleted(true);
    },
  });

  const commenters = defineOperation({
    id: idOf("commenters"),
    method: "get",
    path: `${family.prefix}/commenters`,
    tag: family.tag,
    summary: `List the members who have comments or replies ${where}, by their first post`,
    access: onThread(family.kind),
    params,
    query: z.object(pageQuery),
    response: listOf(memberSchema),
    async run(scope, { query }) {
      const { tx, thread, space } = scope;
      const members = new MemberPresenter(tx, scope, scope.membership);
      return paginate(tx, query, {
        table: commentersTable,
        index: "byScope",
        where: [thread.space, thread.changeRequestId],
        // Users who left the organization are no longer its members.
        filter: async (record: CommenterRecord) => !!(await findMember(tx, space.organization, record.user)),
        map: async (record: CommenterRecord) =>
          members.presentMember((await findMember(tx, space.organization, record.user))!),
      });
    },
  });

  return [list, post, get, update, remove, commenters, ...replyOperations(family)] as const;
}

/** Both families, keyed by their literal operation ids, for the registry and the typed client. */
export const commentOperations = keyed([
  ...familyOperations(spaceFamily),
  ...familyOperations(changeRequestFamily),
]);
