import * as z from "zod";
import { requireRevision } from "../content-tree/revisions.js";
import type { AnyObjectSchema } from "../registry.js";
import { badRequest } from "../shared/errors.js";
import { pathParam } from "../shared/schema.js";
import type { Context } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import type { Thread, ThreadKind } from "./thread.js";

/**
 * The two families of comment operations: on a space and on a change
 * request. They differ in their ids, their path prefix and their path parameters only, except
 * that replies of change-request comments also take `resolved` and `format` on post.
 *
 * Each family spells its operation ids out, so `grep -r listCommentsInSpace src` finds it and the
 * typed client sees each id (see `keyed` in registry.ts).
 */

/** The operation ids of a family, one per operation. */
export interface FamilyIds {
  readonly list: string;
  readonly post: string;
  readonly get: string;
  readonly update: string;
  readonly delete: string;
  readonly listReplies: string;
  readonly postReply: string;
  readonly getReply: string;
  readonly updateReply: string;
  readonly deleteReply: string;
  readonly commenters: string;
}

/**
 * A family: its thread kind, path prefix, tag, literal ids and path parameters (of the thread, of
 * a comment, of a reply). {@link defineFamily} types the parameters exactly, so that the typed
 * client asks for each of them.
 */
export interface Family {
  readonly kind: ThreadKind;
  readonly prefix: string;
  readonly tag: string;
  readonly ids: FamilyIds;
  readonly params: AnyObjectSchema;
  readonly commentParams: AnyObjectSchema;
  readonly replyParams: AnyObjectSchema;
}

/**
 * A family's ids and parameters with their own types. Inside a function generic in its family,
 * `family.ids.list` and `family.params` would have the types of {@link Family} (`string`, any
 * object): the typed client needs each family's literal ids and exact parameters.
 */
export function typed<F extends Family>(family: F) {
  const params: F["params"] = family.params;
  const commentParams: F["commentParams"] = family.commentParams;
  const replyParams: F["replyParams"] = family.replyParams;
  const idOf = <K extends keyof FamilyIds>(key: K): F["ids"][K] => family.ids[key];
  return { idOf, params, commentParams, replyParams };
}

function defineFamily<const Ids extends FamilyIds, Shape extends z.ZodRawShape>(family: {
  readonly kind: ThreadKind;
  readonly prefix: string;
  readonly tag: string;
  readonly ids: Ids;
  readonly shape: Shape;
}) {
  const { shape, ...rest } = family;
  return {
    ...rest,
    params: z.object(shape),
    commentParams: z.object({ ...shape, commentId: pathParam() }),
    replyParams: z.object({ ...shape, commentId: pathParam(), commentReplyId: pathParam() }),
  } satisfies Family;
}

/** Comments on a space. */
export const spaceFamily = defineFamily({
  kind: "space",
  prefix: "/spaces/{spaceId}",
  tag: "space-comments",
  shape: { spaceId: pathParam() },
  ids: {
    list: "listCommentsInSpace",
    post: "postCommentInSpace",
    get: "getCommentInSpace",
    update: "updateCommentInSpace",
    delete: "deleteCommentInSpace",
    listReplies: "listCommentRepliesInSpace",
    postReply: "postCommentReplyInSpace",
    getReply: "getCommentReplyInSpace",
    updateReply: "updateCommentReplyInSpace",
    deleteReply: "deleteCommentReplyInSpace",
    commenters: "listCommentersInSpace",
  },
});

/** Comments on a change request. */
export const changeRequestFamily = defineFamily({
  kind: "change-request",
  prefix: "/spaces/{spaceId}/change-requests/{changeRequestId}",
  tag: "change-request-comments",
  shape: { spaceId: pathParam(), changeRequestId: pathParam() },
  ids: {
    list: "listCommentsInChangeRequest",
    post: "postCommentInChangeRequest",
    get: "getCommentInChangeRequest",
    update: "updateCommentInChangeRequest",
    delete: "deleteCommentInChangeRequest",
    listReplies: "listCommentRepliesInChangeRequest",
    postReply: "postCommentReplyInChangeRequest",
    getReply: "getCommentReplyInChangeRequest",
    updateReply: "updateCommentReplyInChangeRequest",
    deleteReply: "deleteCommentReplyInChangeRequest",
    commenters: "listCommentersInChangeRequest",
  },
});

/** Fails with 400 naming `body.page` unless the page exists in the thread's content. */
export async function requirePage(
  tx: ReadTransaction,
  context: Context,
  thread: Thread,
  page: string,
): Promise<void> {
  const content = await requireRevision(tx, context, thread.revision);
  if (!(await content.hasPage(page))) {
    const where = thread.changeRequest ? `change request #${thread.changeRequest.number}` : "the space";
    throw badRequest(`body.page: no page "${page}" in the content of ${where}`);
  }
}
