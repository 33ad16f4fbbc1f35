import { jsonBytes } from "../shared/cache.js";
import { markdownToDocument } from "../content/document/index.js";
import type { World } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import type { CommentRecord, CommentReplyRecord, ReactionRecord } from "./tables.js";
import { usersTable } from "../users/tables.js";
import { toUser, type User } from "../users/schemas.js";
import { groupReactions } from "./bookkeeping.js";
import type { BodyFormat, Comment, CommentReply } from "./schemas.js";
import { commentPermissions, type Thread } from "./thread.js";
import { fnv1a } from "../shared/digest.js";

/**
 * Presents comments and replies as the caller sees them, loading each user once per request.
 * Bodies are stored as markdown and answered as `{markdown}` unless `format=document` asks for the
 * reference document model (converted by the content converter).
 */
export class CommentPresenter {
  private readonly users = new Map<string, Promise<User>>();

  constructor(
    private readonly tx: ReadTransaction,
    private readonly world: World,
    private readonly thread: Thread,
    private readonly format: BodyFormat = "markdown",
  ) {}

  async comment(record: CommentRecord): Promise<Comment> {
    const location = `${this.world.baseUrl}/v1${this.thread.path}/comments/${record.id}`;
    const resolved =
      record.status === "resolved" && record.resolvedAt && record.resolvedBy
        ? {
            status: "resolved" as const,
            resolvedAt: record.resolvedAt,
            resolvedBy: await this.user(record.resolvedBy),
          }
        : { status: "open" as const };
    return {
      object: "comment",
      id: record.id,
      postedBy: await this.user(record.postedBy),
      postedAt: record.postedAt,
      ...(record.editedAt ? { editedAt: record.editedAt } : {}),
      reactions: await this.reactions(record.reactions),
      replies: record.replies,
      repliers: await Promise.all(
        record.repliers.map(async (replier) => ({
          updatedAt: replier.updatedAt,
          count: replier.count,
          user: await this.user(replier.user),
        })),
      ),
      body: this.body(record),
      target: {
        space: record.space,
        revision: record.revision,
        ...(record.changeRequest ? { changeRequest: record.changeRequest } : {}),
        ...(record.page ? { page: { id: record.page } } : {}),
        ...(record.node ? { node: { id: record.node } } : {}),
        ...(record.tableCell ? { tableCell: record.tableCell } : {}),
      },
      urls: { location },
      permissions: commentPermissions(this.thread, record.postedBy),
      ...resolved,
    };
  }

  async reply(record: CommentReplyRecord): Promise<CommentReply> {
    const location = `${this.world.baseUrl}/v1${this.thread.path}/comments/${record.comment}/replies/${record.id}`;
    return {
      object: "comment-reply",
      id: record.id,
      postedBy: await this.user(record.postedBy),
      postedAt: record.postedAt,
      ...(record.editedAt ? { editedAt: record.editedAt } : {}),
      reactions: await this.reactions(record.reactions),
      body: this.body(record),
      urls: { location },
      permissions: commentPermissions(this.thread, record.postedBy),
    };
  }

  /** A body in document format is converted once per comment or reply edit, then cached. */
  private body(record: CommentRecord | CommentReplyRecord): Comment["body"] {
    if (this.format !== "document") return { markdown: record.markdown };
    const kind = "comment" in record ? "reply" : "comment";
    // The text's digest beside its edit time: two edits stamped alike (by instances whose clocks
    // disagree) still get entries of their own.
    const key = `document:${kind}:${record.id}:${record.editedAt ?? record.postedAt}:${fnv1a(record.markdown)}`;
    let document = this.world.cache.get(key) as Record<string, unknown> | undefined;
    if (!document) {
      document = markdownToDocument(record.markdown) as unknown as Record<string, unknown>;
      this.world.cache.set(key, document, jsonBytes(document));
    }
    return { document };
  }

  private reactions(reactions: readonly ReactionRecord[]): Promise<Comment["reactions"]> {
    return Promise.all(
      groupReactions(reactions).map(async ({ emoji, users }) => ({
        emoji,
        count: users.length,
        users: await Promise.all(
          users.map(async (reaction) => ({
            user: await this.user(reaction.user),
            reactedAt: reaction.reactedAt,
          })),
        ),
      })),
    );
  }

  /** A user; one whose record is gone is shown by id, as change requests show a lost creator. */
  private user(id: string): Promise<User> {
    let user = this.users.get(id);
    if (!user) {
      user = this.tx.get(usersTable, id).then((record) =>
        record
          ? toUser(this.world, record)
          : {
              object: "user" as const,
              id,
              displayName: "Unknown user",
              urls: { location: `${this.world.baseUrl}/v1/users/${id}` },
            },
      );
      this.users.set(id, user);
    }
    return user;
  }
}
