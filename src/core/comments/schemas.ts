import * as z from "zod";
import { documentInput, documentToMarkdown } from "../document/index.js";
import { markdownLimitError } from "../document/markdown.js";
import { pageQuery } from "../shared/pagination.js";
import { boundedId, MAX_ID_LENGTH, timestamp, url } from "../shared/schema.js";
import { userSchema } from "../users/schemas.js";
import { commentStatus } from "./tables.js";

/**
 * Request and response schemas of comments and replies (the reference
 * `PostCommentSchema`, `UpdateCommentSchema`, `UpdateCommentReplySchema`, `Comment`,
 * `CommentReply`). See docs/comments.md for the choices the reference leaves open.
 */

/** Longest comment or reply body, in characters of markdown. */
export const MAX_COMMENT_LENGTH = 100_000;
/** Most reactions added or removed in one update. */
export const MAX_REACTIONS_PER_UPDATE = 50;
/** Most ids in the `authors` filter of a comment list. */
export const MAX_AUTHORS_FILTER = 100;

/**
 * The reference `Document` as a request body: `{markdown}`, or `{document}` (converted to markdown,
 * which is what is stored). The reference's empty `{}` is refused: a comment says something.
 */
export const commentBodyInput = z
  .object({
    markdown: z.string().max(MAX_COMMENT_LENGTH).optional(),
    document: documentInput.optional(),
  })
  .transform((value, context) => {
    const markdown =
      value.markdown ??
      (value.document !== undefined ? documentToMarkdown(value.document).replace(/\n+$/, "") : undefined);
    if (markdown === undefined || markdown.trim() === "") {
      context.addIssue({
        code: "custom",
        message: "Expected a non-empty {markdown} (or {document})",
      });
      return z.NEVER;
    }
    if (markdown.length > MAX_COMMENT_LENGTH) {
      context.addIssue({ code: "custom", message: `Longer than ${MAX_COMMENT_LENGTH} characters` });
      return z.NEVER;
    }
    // The limits of page markdown (docs/api.md, "Markdown limits"), so every read of it is bounded.
    const limit = markdownLimitError(markdown);
    if (limit) {
      context.addIssue({ code: "custom", message: limit });
      return z.NEVER;
    }
    return markdown;
  });

/** The reference `Emoji`: a short non-empty string. */
export const emoji = z
  .string()
  .trim()
  .min(1, "Expected a non-empty emoji")
  .max(50)
  // No control characters (U+0000 to U+001F).
  .refine((value) => ![...value].some((char) => char.charCodeAt(0) < 0x20), { error: "Expected an emoji" });
const reactionList = z.array(emoji).max(MAX_REACTIONS_PER_UPDATE);

export const tableCellTarget = z.object({ record: boundedId(), definition: boundedId() });

export const postCommentBody = z.object({
  page: boundedId().optional(),
  node: boundedId().optional(),
  tableCell: tableCellTarget.optional(),
  body: commentBodyInput,
});

export const postReplyBody = z.object({ body: commentBodyInput });

const reactionChanges = {
  body: commentBodyInput.optional(),
  addedReactions: reactionList.optional(),
  removedReactions: reactionList.optional(),
};
/** `UpdateCommentSchema`: comments of both families, and replies of change requests. */
export const updateCommentBody = z.object({ resolved: z.boolean().optional(), ...reactionChanges });
/** `UpdateCommentReplySchema`: replies of space comments (no `resolved`). */
export const updateReplyBody = z.object(reactionChanges);
export type UpdateInput = z.output<typeof updateCommentBody>;

/** The reference `documentFormat`. Comments answer markdown unless `document` is asked. */
export const formatQuery = { format: z.enum(["document", "markdown"]).optional() };
export type BodyFormat = "document" | "markdown" | undefined;

/** `authors` arrives as one value or repeated (`authors=a&authors=b`). */
const authorId = z.string().max(MAX_ID_LENGTH);
const authors = z
  .union([authorId, z.array(authorId).max(MAX_AUTHORS_FILTER)])
  .transform((value) => (Array.isArray(value) ? value : [value]).filter((id) => id !== ""));

export const listCommentsQuery = z.object({
  ...pageQuery,
  order: z.enum(["asc", "desc"]).default("desc"),
  status: z.enum(["all", ...commentStatus.options]).default("all"),
  ...formatQuery,
  targetPage: boundedId().optional(),
  authors: authors.optional(),
});

export const listRepliesQuery = z.object({ ...pageQuery, ...formatQuery });

const reactionSchema = z.object({
  emoji: z.string(),
  count: z.number(),
  users: z.array(z.object({ user: userSchema, reactedAt: timestamp() })),
});

export const bodySchema = z.union([
  z.object({ markdown: z.string() }),
  z.object({ document: z.record(z.string(), z.unknown()) }),
]);

export const commentPermissionsSchema = z.object({
  view: z.boolean(),
  edit: z.boolean(),
  reply: z.boolean(),
  delete: z.boolean(),
});
export type CommentPermissions = z.infer<typeof commentPermissionsSchema>;

export const commentReplySchema = z.object({
  object: z.literal("comment-reply"),
  id: z.string(),
  postedBy: userSchema,
  postedAt: timestamp(),
  editedAt: timestamp().optional(),
  reactions: z.array(reactionSchema),
  body: bodySchema,
  urls: z.object({ location: url() }),
  permissions: commentPermissionsSchema,
});
export type CommentReply = z.infer<typeof commentReplySchema>;

const commentFields = {
  object: z.literal("comment"),
  id: z.string(),
  postedBy: userSchema,
  postedAt: timestamp(),
  editedAt: timestamp().optional(),
  reactions: z.array(reactionSchema),
  replies: z.number(),
  repliers: z.array(z.object({ updatedAt: timestamp(), count: z.number(), user: userSchema })),
  body: bodySchema,
  target: z.object({
    space: z.string(),
    revision: z.string(),
    changeRequest: z.string().optional(),
    page: z.object({ id: z.string() }).optional(),
    node: z.object({ id: z.string() }).optional(),
    tableCell: tableCellTarget.optional(),
    review: z.string().optional(),
  }),
  urls: z.object({ location: url() }),
  permissions: commentPermissionsSchema,
};

/** The reference `Comment`: open, or resolved with when and by whom. */
export const commentSchema = z.discriminatedUnion("status", [
  z.object({ ...commentFields, status: commentStatus.extract(["open"]) }),
  z.object({
    ...commentFields,
    status: commentStatus.extract(["resolved"]),
    resolvedAt: timestamp(),
    resolvedBy: userSchema,
  }),
]);
export type Comment = z.infer<typeof commentSchema>;
