import { requirePermission } from "../collections/permissions.js";
import { requireChangeRequest } from "../content/target.js";
import { requireCaller } from "../shared/access.js";
import { forbidden, notFound } from "../shared/errors.js";
import type { Caller, Context } from "../shared/world.js";
import type { SpacePermissions } from "../spaces/schemas.js";
import { requireSpace, spacePermissions, type SpaceAccess } from "../spaces/permissions.js";
import type { ReadTransaction, WriteTransaction } from "../storage/port.js";
import {
  tables,
  type ChangeRequestRecord,
  type CommentRecord,
  type CommentReplyRecord,
  type SpaceRecord,
} from "../tables.js";
import type { CommentPermissions } from "./schemas.js";

/**
 * Where comments live: a space (`changeRequest: ""`) or one change request of a space. Both
 * families open their thread here, so they share access rules and bookkeeping.
 *
 * Rules (docs/comments.md): viewing needs `read` on the space (non-members get 404); posting,
 * replying, reacting and resolving need the space's `comment` permission; only the author edits a
 * body; the author (who still has `comment`) or a space admin deletes.
 */
export interface Thread {
  readonly caller: Caller;
  readonly access: SpaceAccess;
  readonly changeRequest?: ChangeRequestRecord;
  /** The index values of this thread: the space id and the change request id or "". */
  readonly space: string;
  readonly changeRequestId: string;
  readonly permissions: SpacePermissions;
  /** The revision new comments are anchored in: the space's or the change request's head. */
  readonly revision: string;
  /** The API path of the thread, without `/v1`. */
  readonly path: string;
}

export interface ThreadParams {
  readonly spaceId: string;
  readonly changeRequestId?: string | undefined;
}

export async function openThread(
  tx: ReadTransaction,
  context: Context,
  params: ThreadParams,
): Promise<Thread> {
  const caller = requireCaller(context);
  const access = await requireSpace(tx, context, params.spaceId);
  const permissions = spacePermissions(access.role, access.space);
  const space = access.space.id;
  if (params.changeRequestId === undefined) {
    return {
      caller,
      access,
      space,
      changeRequestId: "",
      permissions,
      revision: access.space.revision,
      path: `/spaces/${space}`,
    };
  }
  const changeRequest = await requireChangeRequest(tx, space, params.changeRequestId);
  return {
    caller,
    access,
    changeRequest,
    space,
    changeRequestId: changeRequest.id,
    permissions,
    revision: changeRequest.revision,
    path: `/spaces/${space}/change-requests/${changeRequest.id}`,
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

/** Fails with 403 unless the caller may post in the thread. */
export function requireCommentRole(thread: Thread, action: string): void {
  requirePermission(thread.permissions, "comment", action);
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
  const record = await tx.get<CommentRecord>(tables.comments.name, id);
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
  const record = await tx.get<CommentReplyRecord>(tables.commentReplies.name, id);
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
    const current = await tx.get<ChangeRequestRecord>(tables.changeRequests.name, thread.changeRequestId);
    if (!current) return;
    await tx.put(tables.changeRequests.name, { ...current, comments: Math.max(0, current.comments + delta) });
    return;
  }
  const current = await tx.get<SpaceRecord>(tables.spaces.name, thread.space);
  if (!current) return;
  const comments = Math.max(0, current.counters.comments + delta);
  await tx.put(tables.spaces.name, { ...current, counters: { ...current.counters, comments } });
}

/** The open-count change of a status change. */
export const openDelta = (
  from: CommentRecord["status"] | undefined,
  to: CommentRecord["status"] | undefined,
) => (to === "open" ? 1 : 0) - (from === "open" ? 1 : 0);
