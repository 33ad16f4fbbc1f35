import * as z from "zod";
import { defineTable } from "../storage/table.js";

/** The status of a comment: open, or resolved (by a user, at a time). */
export const commentStatus = z.enum(["open", "resolved"]);
export type CommentStatus = z.infer<typeof commentStatus>;

/** A reaction of one user with one emoji. */
export const reactionRecord = z.object({ emoji: z.string(), user: z.string(), reactedAt: z.string() });
export type ReactionRecord = z.infer<typeof reactionRecord>;

export const commentRecord = z.object({
  id: z.string(),
  space: z.string(),
  /** The change request id, or "" for a comment on the space. */
  changeRequest: z.string(),
  /** Insertion order (see shared/sequence.ts). */
  seq: z.number(),
  status: commentStatus,
  /** The target page id, or "" when the comment is not on a page. */
  page: z.string(),
  node: z.string().optional(),
  tableCell: z.object({ record: z.string(), definition: z.string() }).optional(),
  /** The change request review this comment was posted with, if any. */
  review: z.string().optional(),
  /** The revision of the content when the comment was posted. */
  revision: z.string(),
  postedBy: z.string(),
  postedAt: z.string(),
  editedAt: z.string().optional(),
  markdown: z.string(),
  reactions: z.array(reactionRecord),
  replies: z.number(),
  /** Per replier, in order of their first reply: their reply count and latest reply time. */
  repliers: z.array(z.object({ user: z.string(), count: z.number(), updatedAt: z.string() })),
  resolvedAt: z.string().optional(),
  resolvedBy: z.string().optional(),
});
export type CommentRecord = z.infer<typeof commentRecord>;

/** Comments of a space (`changeRequest: ""`) or of a change request. */
export const commentsTable = defineTable({
  name: "comments",
  key: "id",
  indexes: {
    byScope: ["space", "changeRequest", "seq"],
    byStatus: ["space", "changeRequest", "status", "seq"],
    byPage: ["space", "changeRequest", "page", "seq"],
    byPageStatus: ["space", "changeRequest", "page", "status", "seq"],
  },
  record: commentRecord,
});

export const commentReplyRecord = z.object({
  id: z.string(),
  comment: z.string(),
  space: z.string(),
  changeRequest: z.string(),
  /** Insertion order (see shared/sequence.ts). */
  seq: z.number(),
  postedBy: z.string(),
  postedAt: z.string(),
  editedAt: z.string().optional(),
  markdown: z.string(),
  reactions: z.array(reactionRecord),
});
export type CommentReplyRecord = z.infer<typeof commentReplyRecord>;

export const commentRepliesTable = defineTable({
  name: "commentReplies",
  key: "id",
  indexes: { byComment: ["comment", "seq"] },
  record: commentReplyRecord,
});

/** A user with comments or replies in a space or change request, and how many they have. */
export const commenterRecord = z.object({
  /** `${space}:${changeRequest}:${user}` */
  key: z.string(),
  space: z.string(),
  changeRequest: z.string(),
  user: z.string(),
  /** Insertion order of the first post (see shared/sequence.ts). */
  seq: z.number(),
  posts: z.number(),
});
export type CommenterRecord = z.infer<typeof commenterRecord>;

export const commentersTable = defineTable({
  name: "commenters",
  key: "key",
  indexes: { byScope: ["space", "changeRequest", "seq"] },
  record: commenterRecord,
});
