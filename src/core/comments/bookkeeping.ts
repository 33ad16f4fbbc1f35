import { recordContribution } from "../change-requests/contributions.js";
import { nextSequence } from "../shared/sequence.js";
import type { World } from "../shared/world.js";
import type { WriteTransaction } from "../storage/port.js";
import {
  type CommentRecord,
  type CommenterRecord,
  type ReactionRecord,
  commentRepliesTable,
  commentersTable,
  commentsTable,
} from "./tables.js";
import { addOpenComments, type Thread } from "./thread.js";

/**
 * Applies the edits common to comments and replies: a new body (which stamps `editedAt`) and
 * reaction changes. Returns the record unchanged when nothing differs.
 */
export function applyEdits<T extends { markdown: string; reactions: ReactionRecord[]; editedAt?: string }>(
  current: T,
  change: {
    body?: string | undefined;
    addedReactions?: string[] | undefined;
    removedReactions?: string[] | undefined;
  },
  user: string,
  now: string,
): T {
  let next = current;
  if (change.body !== undefined && change.body !== current.markdown) {
    next = { ...next, markdown: change.body, editedAt: now };
  }
  if (change.addedReactions || change.removedReactions) {
    next = {
      ...next,
      reactions: applyReactions(next.reactions, user, change.addedReactions, change.removedReactions, now),
    };
  }
  return next;
}

/**
 * The derived state of comments, kept true in the transaction of each change: reactions, a
 * comment's `replies` and `repliers`, resolution, and the commenters of a thread.
 */

/**
 * Reactions after `user` adds and removes emojis. Adding an emoji the user already reacted with
 * keeps the first reaction (and its time); removing one they never reacted with changes nothing.
 * Removals apply after additions, so an emoji in both lists ends up removed.
 */
export function applyReactions(
  reactions: readonly ReactionRecord[],
  user: string,
  added: readonly string[] = [],
  removed: readonly string[] = [],
  now: string,
): ReactionRecord[] {
  const next = [...reactions];
  for (const emoji of added) {
    if (!next.some((reaction) => reaction.emoji === emoji && reaction.user === user)) {
      next.push({ emoji, user, reactedAt: now });
    }
  }
  const gone = new Set(removed);
  return next.filter((reaction) => !(reaction.user === user && gone.has(reaction.emoji)));
}

/** Reactions grouped by emoji, in order of each emoji's first reaction, users in reaction order. */
export function groupReactions(
  reactions: readonly ReactionRecord[],
): { emoji: string; users: ReactionRecord[] }[] {
  const groups = new Map<string, ReactionRecord[]>();
  for (const reaction of reactions) {
    const users = groups.get(reaction.emoji) ?? [];
    users.push(reaction);
    groups.set(reaction.emoji, users);
  }
  return [...groups].map(([emoji, users]) => ({ emoji, users }));
}

/** The resolution fields after `resolved` is asked by `user`; unchanged when already so. */
export function applyResolution(
  record: CommentRecord,
  resolved: boolean | undefined,
  user: string,
  now: string,
): CommentRecord {
  if (resolved === undefined || resolved === (record.status === "resolved")) return record;
  const { resolvedAt: _at, resolvedBy: _by, ...rest } = record;
  return resolved
    ? { ...rest, status: "resolved", resolvedAt: now, resolvedBy: user }
    : { ...rest, status: "open" };
}

/**
 * The comment with `replies` and `repliers` recomputed from its stored replies (so they are exact
 * whatever changed): repliers in order of their first reply, `updatedAt` their latest post or edit.
 */
export async function recountReplies(tx: WriteTransaction, comment: CommentRecord): Promise<CommentRecord> {
  const replies = await tx.list(commentRepliesTable, {
    index: "byComment",
    where: [comment.id],
  });
  const repliers = new Map<string, CommentRecord["repliers"][number]>();
  for (const reply of replies) {
    const touched = reply.editedAt && reply.editedAt > reply.postedAt ? reply.editedAt : reply.postedAt;
    const known = repliers.get(reply.postedBy);
    if (!known) repliers.set(reply.postedBy, { user: reply.postedBy, count: 1, updatedAt: touched });
    else {
      known.count += 1;
      if (touched > known.updatedAt) known.updatedAt = touched;
    }
  }
  return { ...comment, replies: replies.length, repliers: [...repliers.values()] };
}

const commenterKey = (thread: Thread, user: string) => `${thread.space}:${thread.changeRequestId}:${user}`;

/**
 * Counts `delta` posts (comments and replies) of `user` in the thread. A user is a commenter while
 * they have at least one post; a first post places them after the earlier commenters.
 */
export async function countPosts(
  tx: WriteTransaction,
  thread: Thread,
  user: string,
  delta: number,
): Promise<void> {
  const key = commenterKey(thread, user);
  const current = await tx.get(commentersTable, key);
  const posts = (current?.posts ?? 0) + delta;
  if (posts <= 0) {
    if (current) await tx.delete(commentersTable, key);
    return;
  }
  const record: CommenterRecord = current
    ? { ...current, posts }
    : {
        key,
        space: thread.space,
        changeRequest: thread.changeRequestId,
        user,
        seq: await nextSequence(tx),
        posts,
      };
  await tx.put(commentersTable, record);
}

/**
 * Counts a new post (comment or reply) of `user`: among the thread's commenters and, in a change
 * request, as one of their `comment` contributions (change-requests/contributions.ts).
 */
export async function countNewPost(
  tx: WriteTransaction,
  world: Pick<World, "clock">,
  thread: Thread,
  user: string,
): Promise<void> {
  await countPosts(tx, thread, user, 1);
  if (thread.changeRequestId) await recordContribution(tx, world, thread.changeRequestId, user, "comment");
}

/** Removes a comment with its replies, and uncounts their posts. */
export async function removeComment(
  tx: WriteTransaction,
  thread: Thread,
  comment: CommentRecord,
): Promise<void> {
  const replies = await tx.list(commentRepliesTable, {
    index: "byComment",
    where: [comment.id],
  });
  const posts = new Map<string, number>([[comment.postedBy, 1]]);
  for (const reply of replies) {
    posts.set(reply.postedBy, (posts.get(reply.postedBy) ?? 0) + 1);
    await tx.delete(commentRepliesTable, reply.id);
  }
  for (const [user, count] of posts) await countPosts(tx, thread, user, -count);
  await tx.delete(commentsTable, comment.id);
}

/** Where a new comment points, beyond its thread, and what it says. */
export type NewComment = Pick<CommentRecord, "markdown"> &
  Partial<Pick<CommentRecord, "page" | "node" | "tableCell" | "review">>;

/**
 * Stores a new open comment of the caller in the thread, anchored in the thread's revision, and
 * counts it: the caller's posts (commenters) and the thread's open comments. The one way a
 * comment is created, by a post or by a change request review that carries one.
 */
export async function addComment(
  tx: WriteTransaction,
  world: World,
  thread: Thread,
  comment: NewComment,
): Promise<CommentRecord> {
  const { page, ...rest } = comment;
  const record: CommentRecord = {
    id: world.ids(),
    space: thread.space,
    changeRequest: thread.changeRequestId,
    seq: await nextSequence(tx, thread.space),
    status: "open",
    page: page ?? "",
    ...rest,
    revision: thread.revision,
    postedBy: thread.caller.userId,
    postedAt: world.clock().toISOString(),
    reactions: [],
    replies: 0,
    repliers: [],
  };
  await tx.put(commentsTable, record);
  await countNewPost(tx, world, thread, record.postedBy);
  await addOpenComments(tx, thread, 1);
  return record;
}
