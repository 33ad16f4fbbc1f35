import * as z from "zod";
import type { AccessRule } from "../permissions/rule.js";
import { type AnyObjectSchema, defineOperation, type Scope } from "../registry.js";
import type { Table } from "../storage/port.js";
import type { Family } from "./family.js";
import { CommentPresenter } from "./present.js";
import { formatQuery, type UpdateInput } from "./schemas.js";
import type { CommentRecord, CommentReplyRecord } from "./tables.js";
import { commentPermissions, requireUpdateRights, type Thread } from "./thread.js";

/**
 * Getting and updating a post: a comment, or a reply to one. Both have an author, a body and
 * reactions, and the same rules: anyone who can view the thread reads them (in `format=document`
 * on demand); only the author, with the `comment` permission, edits a body; reacting and resolving
 * need the `comment` permission. Written once here; a comment and a reply pass in what differs:
 * their ids and paths, the rule that loads them, and what an update changes beyond the post.
 */

/** What getting and updating differ in between comments and replies. */
export interface PostKind<
  GetId extends string,
  UpdateId extends string,
  P extends AnyObjectSchema,
  B extends z.ZodType,
  R extends z.ZodType,
  L extends { readonly thread: Thread },
  Post extends CommentRecord | CommentReplyRecord,
> {
  /** The noun of messages. */
  readonly noun: "comment" | "reply";
  readonly ids: { readonly get: GetId; readonly update: UpdateId };
  readonly path: string;
  readonly summaries: { readonly get: string; readonly update: string };
  readonly params: P;
  /** The rule that loads the post, which the caller can view (404 otherwise). */
  readonly access: AccessRule<L>;
  readonly updateBody: B;
  readonly response: R;
  readonly table: Table<Post>;
  readonly loaded: (scope: L) => Post;
  readonly present: (presenter: CommentPresenter, post: Post) => Promise<z.input<R>>;
  /** The post after `change`: its body and reactions, and a comment's resolution. */
  readonly edit: (post: Post, change: UpdateInput, user: string, now: string) => Post;
  /**
   * What an update changes beyond the post, once the post is stored: the count of open comments,
   * or a reply's comment (its replies, and its resolution when `change.resolved` asks).
   */
  readonly settle: (
    scope: Scope<L, "write">,
    before: Post,
    after: Post,
    change: UpdateInput,
    user: string,
    now: string,
  ) => Promise<void>;
}

/** The get and the update of a kind of post, in a family of comment operations. */
export function postOperations<
  const GetId extends string,
  const UpdateId extends string,
  P extends AnyObjectSchema,
  B extends z.ZodType<UpdateInput>,
  R extends z.ZodType,
  L extends { readonly thread: Thread },
  Post extends CommentRecord | CommentReplyRecord,
>(family: Family, post: PostKind<GetId, UpdateId, P, B, R, L, Post>) {
  const get = defineOperation({
    id: post.ids.get,
    method: "get",
    path: post.path,
    tag: family.tag,
    summary: post.summaries.get,
    access: post.access,
    params: post.params,
    query: z.object(formatQuery),
    response: post.response,
    async run(scope, { query }) {
      return post.present(
        new CommentPresenter(scope.tx, scope, scope.thread, query.format),
        post.loaded(scope),
      );
    },
  });

  const update = defineOperation({
    id: post.ids.update,
    method: "put",
    path: post.path,
    tag: family.tag,
    summary: post.summaries.update,
    access: post.access,
    params: post.params,
    body: post.updateBody,
    response: post.response,
    async run(scope, { body }) {
      const { tx, thread } = scope;
      const current = post.loaded(scope);
      const change: UpdateInput = body;
      requireUpdateRights(commentPermissions(thread, current.postedBy), change, post.noun);
      const now = scope.clock().toISOString();
      const user = thread.caller.userId;
      const next = post.edit(current, change, user, now);
      if (JSON.stringify(next) !== JSON.stringify(current)) await tx.put(post.table, next);
      await post.settle(scope, current, next, change, user, now);
      return post.present(new CommentPresenter(tx, scope, thread), next);
    },
  });

  return [get, update] as const;
}
