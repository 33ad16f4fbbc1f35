import type { ChangeRequestRecord } from "../change-requests/tables.js";
import { onChangeRequest } from "../content/access.js";
import { requirePermission, type PermissionFlag } from "../permissions/refuse.js";
import { defineAccess, type AccessRule } from "../permissions/rule.js";
import { notFound } from "../shared/errors.js";
import { onSpace, type SpaceScope } from "../spaces/access.js";
import type { SpacePermissions } from "../spaces/schemas.js";
import type { CommentRecord, CommentReplyRecord } from "./tables.js";
import {
  findComment,
  findReply,
  openThread,
  requireComment,
  type Thread,
  type ThreadKind,
} from "./thread.js";

/**
 * Access to comments (docs/comments.md): the thread of a space (`path.spaceId`) or of a change
 * request (`path.spaceId` and `path.changeRequestId`, its id or number), then a comment of it
 * (`path.commentId`) and a reply of that comment (`path.commentReplyId`). The space answers 404
 * unless the caller can view it, as `onSpace` does; so do a missing change request, comment or
 * reply. Rights that depend on a comment's author (editing a body, deleting) stay in `run`, through
 * `commentPermissions` (thread.ts).
 */

/** What {@link onThread} hands `run`: the space rule's scope, the change request, the thread. */
export interface ThreadScope extends SpaceScope {
  /** The thread's change request; absent for comments on the space. */
  readonly changeRequest?: ChangeRequestRecord | undefined;
  readonly thread: Thread;
}

/** What {@link onComment} hands `run`: the thread and the comment in `path.commentId`. */
export interface CommentScope extends ThreadScope {
  readonly comment: CommentRecord;
}

/** What {@link onReply} hands `run`: the comment and its reply in `path.commentReplyId`. */
export interface ReplyScope extends CommentScope {
  readonly reply: CommentReplyRecord;
}

/** A permission of the space the operation needs beyond viewing it, and the action it refuses. */
export interface ThreadNeed {
  readonly flag: PermissionFlag<SpacePermissions>;
  /** Starts the 403 message: "Posting a comment". */
  readonly action: string;
}

const commentParam = "commentId";
const replyParam = "commentReplyId";

type SpaceFlag = PermissionFlag<SpacePermissions>;

/** The space rule of a thread kind: the space, or the space and its change request. */
function threadSpace(
  kind: ThreadKind,
  flag: SpaceFlag,
): AccessRule<SpaceScope & { readonly changeRequest?: ChangeRequestRecord | undefined }> {
  return kind === "space" ? onSpace(flag) : onChangeRequest(flag);
}

/**
 * The thread of the space in `path.spaceId` or, for `"change-request"`, of the change request in
 * `path.changeRequestId`; the caller can view the space, and holds `need.flag` on it when given.
 * The flag is checked once the thread is found, so a missing change request answers 404 whatever
 * the caller's role.
 *
 * @example
 * ```ts
 * access: onThread("space", { flag: "comment", action: "Posting a comment" }), // run({ tx, thread, space, ... })
 * ```
 */
export function onThread(kind: ThreadKind, need?: ThreadNeed): AccessRule<ThreadScope> {
  const view = threadSpace(kind, "view");
  return defineAccess({
    summary: threadSpace(kind, need?.flag ?? "view").summary,
    authenticated: true,
    async resolve(tx, context, params) {
      const loaded = await view.resolve(tx, context, params);
      if (need) requirePermission(loaded.permissions, need.flag, need.action);
      return { ...loaded, thread: openThread(context, loaded) };
    },
  });
}

/** Like {@link onThread}, with the comment in `path.commentId` (404 when it is not in the thread). */
export function onComment(kind: ThreadKind, need?: ThreadNeed): AccessRule<CommentScope> {
  const thread = onThread(kind, need);
  return defineAccess({
    summary: `${thread.summary}; the comment in path.${commentParam}`,
    authenticated: true,
    async resolve(tx, context, params) {
      const loaded = await thread.resolve(tx, context, params);
      return { ...loaded, comment: await requireComment(tx, loaded.thread, String(params[commentParam])) };
    },
  });
}

/**
 * The permission a delete needs where there is nothing to delete. A comment or reply is deleted by
 * its author or a space admin (`run` checks which, through `commentPermissions`); with no post
 * there is no author to compare, so the caller must be one who could have written it: `comment` on
 * the space (docs/api.md, "Deletes"). A `read` member thus gets 403 whether or not the post exists.
 */
const DELETE_MISSING: ThreadNeed = { flag: "comment", action: "Deleting a comment or reply" };

/**
 * Like {@link onComment}, for deletes that answer 204 when nothing exists: a comment that is not
 * in the thread hands `run` `{ comment: undefined }`, once the caller holds `comment` on the space
 * (403 otherwise). The thread itself must exist (404).
 */
export function onCommentIfPresent(
  kind: ThreadKind,
): AccessRule<ThreadScope & { readonly comment: CommentRecord | undefined }> {
  const thread = onThread(kind);
  return defineAccess({
    summary: `${thread.summary}; the comment in path.${commentParam}, deleted by its author or a space admin ("${DELETE_MISSING.flag}" on the space where there is none)`,
    authenticated: true,
    async resolve(tx, context, params) {
      const loaded = await thread.resolve(tx, context, params);
      const comment = await findComment(tx, loaded.thread, String(params[commentParam]));
      if (!comment) requirePermission(loaded.permissions, DELETE_MISSING.flag, DELETE_MISSING.action);
      return { ...loaded, comment };
    },
  });
}

/** Like {@link onComment}, with the comment's reply in `path.commentReplyId` (404 when missing). */
export function onReply(kind: ThreadKind): AccessRule<ReplyScope> {
  const comment = onComment(kind);
  return defineAccess({
    summary: `${comment.summary} and its reply in path.${replyParam}`,
    authenticated: true,
    async resolve(tx, context, params) {
      const loaded = await comment.resolve(tx, context, params);
      const id = String(params[replyParam]);
      const reply = await findReply(tx, loaded.comment, id);
      if (!reply) throw notFound(`Reply "${id}" not found`);
      return { ...loaded, reply };
    },
  });
}

/**
 * Like {@link onReply}, for deletes that answer 204 when nothing exists: a comment or reply that
 * does not exist is handed to `run` as undefined (no comment, no reply), once the caller holds
 * `comment` on the space (403 otherwise).
 */
export function onReplyIfPresent(kind: ThreadKind): AccessRule<
  ThreadScope & {
    readonly comment: CommentRecord | undefined;
    readonly reply: CommentReplyRecord | undefined;
  }
> {
  const thread = onThread(kind);
  return defineAccess({
    summary: `${thread.summary}; the comment in path.${commentParam} and its reply in path.${replyParam}, deleted by its author or a space admin ("${DELETE_MISSING.flag}" on the space where there is none)`,
    authenticated: true,
    async resolve(tx, context, params) {
      const loaded = await thread.resolve(tx, context, params);
      const comment = await findComment(tx, loaded.thread, String(params[commentParam]));
      const reply = comment && (await findReply(tx, comment, String(params[replyParam])));
      if (!reply) requirePermission(loaded.permissions, DELETE_MISSING.flag, DELETE_MISSING.action);
      return { ...loaded, comment, reply };
    },
  });
}
