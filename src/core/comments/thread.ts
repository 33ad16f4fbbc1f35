import { type ChangeRequestRecord, changeRequestsTable } from "../change-requests/tables.js";
import { requireCaller } from "../permissions/membership.js";
import { requirePermission } from "../permissions/refuse.js";
import { forbidden, notFound } from "../shared/errors.js";
import type { Caller, Context } from "../shared/world.js";
import type { SpaceScope } from "../spaces/access.js";
import type { SpacePermissions } from "../spaces/schemas.js";
import { spacesTable } from "../spaces/tables.js";
import type { ReadTransaction, WriteTransaction } from "../storage/port.js";
import type { CommentPermissions } from "./schemas.js";
import { type CommentRecord, type CommentReplyRecord, commentRepliesTable, commentsTable } from "./tables.js";

/**
 * Where comments live: a space (`changeRequest: ""`) or one change request of a space. Both
 * families open their thread with the rules of access.ts, so they share access rules and
 * bookkeeping.
 *
 * Rules (docs/comments.md): viewing needs `read` on the space (non-members get 404); posting,
 * replying, reacting and resolving need the space's `comment` permission; only the author edits a
 * body; the author (who still has `comment`) or a space admin deletes.
 */
export interface Thread {
  readonly caller: Caller;
  readonly changeRequest?: ChangeRequestRecord;
  /** The index values of this thread: the space id and the change request id or "". */
  readonly space: string;
  readonly changeRequestId: string;
  /** The caller's permissions on the space. */
  readonly permissions: SpacePermissions;
  /** The revision new comments are anchored in: the space's or the change request's head. */
  readonly revision: string;
  /** The API path of the thread, without `/v1`. */
  readonly path: string;
}

/** The two kinds of thread, one per family of comment operations. */
export type ThreadKind = "space" | "change-request";

/**
 * The thread of a space, or of a change request when one is given, from what the space rule
 * loaded (the space, which the caller can view, and the caller's permissions on it).
 */
export function openThread(
  context: Context,
  loaded: Pick<SpaceScope, "space" | "permissions"> & { readonly changeRequest?: ChangeRequestRecord },
): Thread {
  const caller = requireCaller(context);
  const { space, permissions, changeRequest } = loaded;
  if (!changeRequest) {
    return {
      caller,
      space: space.id,
      changeRequestId: "",
      permissions,
      revision: space.revision,
      path: `/spaces/${space.id}`,
    };
  }
  return {
    caller,
    changeRequest,
    space: space.id,
    changeRequestId: changeRequest.id,
    permissions,
    revision: changeRequest.revision,
    path: `/spaces/${space.id}/change-requests/${changeRequest.id}`,
  };
}

/**
 * What the caller may do on a comment or reply posted by `postedBy`. Operations refuse through
 * these flags, so they never promise what a call refuses. `reply` also covers reacting and
 * resolving (the reference: "Can the user react or send a reply").
 */
export function commentPermissions(thread: Thread, postedBy: string): CommentPermissions {
  const canComment = thread.permissions.comment;
  const author = postedBy === thread.caller.userId;
  return {
    view: thread.permissions.view,
    edit: author && canComment,
    reply: canComment,
    delete: (author && canComment) || thread.permissions.admin,
  };
}

/** Checks, before anything changes, that the caller may make each requested change. */
export function requireUpdateRights(
  permissions: CommentPermissions,
  change: { body?: unknown; resolved?: unknown; addedReactions?: unknown; removedReactions?: unknown },
  what: "comment" | "reply",
): void {
  if (change.body !== undefined && !permissions.edit) {
    throw forbidden(`Only the author of a ${what}, with the "comment" permission, can edit its body`);
  }
  if (change.resolved !== undefined) requirePermission(permissions, "reply", "Resolving a comment");
  if (change.addedReactions !== undefined || change.removedReactions !== undefined) {
    requirePermission(permissions, "reply", "Reacting");
  }
}

export function requireDeleteRight(permissions: CommentPermissions, what: "comment" | "reply"): void {
  if (!permissions.delete) {
    throw forbidden(`Only the author of a ${what} or a space admin can delete it`);
  }
}

/** A comment of this thread, or undefined. */
export async function findComment(
  tx: ReadTransaction,
  thread: Thread,
  id: string,
): Promise<CommentRecord | undefined> {
  const record = await tx.get(commentsTable, id);
  const inThread = record?.space === thread.space && record.changeRequest === thread.changeRequestId;
  return inThread ? record : undefined;
}

export async function requireComment(
  tx: ReadTransaction,
  thread: Thread,
  id: string,
): Promise<CommentRecord> {
  const record = await findComment(tx, thread, id);
  if (!record) throw notFound(`Comment "${id}" not found`);
  return record;
}

/** A reply of this comment, or undefined. */
export async function findReply(
  tx: ReadTransaction,
  comment: CommentRecord,
  id: string,
): Promise<CommentReplyRecord | undefined> {
  const record = await tx.get(commentRepliesTable, id);
  return record?.comment === comment.id ? record : undefined;
}

/**
 * Adds `delta` to the count of open comments: the space's `counters.comments` for space comments,
 * the change request's `comments` for its comments. The record is re-read in the transaction, so
 * the count stays exact whatever else the transaction wrote.
 */
export async function addOpenComments(tx: WriteTransaction, thread: Thread, delta: number): Promise<void> {
  if (delta === 0) return;
  if (thread.changeRequestId) {
    const current = await tx.get(changeRequestsTable, thread.changeRequestId);
    if (!current) return;
    await tx.put(changeRequestsTable, { ...current, comments: Math.max(0, current.comments + delta) });
    return;
  }
  const current = await tx.get(spacesTable, thread.space);
  if (!current) return;
  const comments = Math.max(0, current.counters.comments + delta);
  await tx.put(spacesTable, { ...current, counters: { ...current.counters, comments } });
}

/** The open-count change of a status change. */
export const openDelta = (
  from: CommentRecord["status"] | undefined,
  to: CommentRecord["status"] | undefined,
) => (to === "open" ? 1 : 0) - (from === "open" ? 1 : 0);
