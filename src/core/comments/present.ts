import { jsonBytes } from "../shared/cache.js";
import { markdownToDocument } from "../document/index.js";
import type { World } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import type { CommentRecord, CommentReplyRecord, ReactionRecord } from "./tables.js";
import { UserPresenter } from "../users/present.js";
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
  private readonly users: UserPresenter;

  constructor(
    tx: ReadTransaction,
    private readonly world: World,
    private readonly thread: Thread,
    private readonly format: BodyFormat = "markdown",
  ) {
    this.users = new UserPresenter(tx, world);
  }

  async presentComment(record: CommentRecord): Promise<Comment> {
    const location = `${this.world.baseUrl}/v1${this.thread.path}/comments/${record.id}`;
    const resolved =
      record.status === "resolved" && record.resolvedAt && record.resolvedBy
        ? {
            status: "resolved" as const,
            resolvedAt: record.resolvedAt,
            resolvedBy: await this.users.presentUser(record.resolvedBy),
          }
        : { status: "open" as const };
    return {
      object: "comment",
      id: record.id,
      postedBy: await this.users.presentUser(record.postedBy),
      postedAt: record.postedAt,
      ...(record.editedAt ? { editedAt: record.editedAt } : {}),
      reactions: await this.reactions(record.reactions),
      replies: record.replies,
      repliers: await Promise.all(
        record.repliers.map(async (replier) => ({
          updatedAt: replier.updatedAt,
          count: replier.count,
          user: await this.users.presentUser(replier.user),
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
        ...(record.review ? { review: record.review } : {}),
      },
      urls: { location },
      permissions: commentPermissions(this.thread, record.postedBy),
      ...resolved,
    };
  }

  async presentReply(record: CommentReplyRecord): Promise<CommentReply> {
    const location = `${this.world.baseUrl}/v1${this.thread.path}/comments/${record.comment}/replies/${record.id}`;
    return {
      object: "comment-reply",
      id: record.id,
      postedBy: await this.users.presentUser(record.postedBy),
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
            user: await this.users.presentUser(reaction.user),
            reactedAt: reaction.reactedAt,
          })),
        ),
      })),
    );
  }
}
