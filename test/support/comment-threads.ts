import type { ClientInput, ClientOutput } from "../../src/core/client.js";
import type { Operations } from "../../src/core/operations.js";
import type { TestClient } from "../../src/testing/double.js";

/** A comment thread: a space's, or a change request's (by id or number) in that space. */
export interface ThreadId {
  readonly spaceId: string;
  readonly changeRequestId?: string;
}

type PathKeys = "spaceId" | "commentId" | "commentReplyId" | "body";
type Query<K extends keyof Operations> = Omit<ClientInput<Operations[K]>, PathKeys>;
type Body<K extends keyof Operations> =
  ClientInput<Operations[K]> extends { body?: infer B } ? NonNullable<B> : never;
type Out<K extends keyof Operations> = Promise<ClientOutput<Operations[K]>>;

/**
 * The typed calls of one comment thread, the same for both families, typed by the space's
 * operations (a change request's take the same schemas). A reply's update takes no `resolved`
 * (the client types `updateCommentReplyInChangeRequest` without it too, though it takes it).
 */
export interface CommentThread {
  list(query?: Query<"listCommentsInSpace">): Out<"listCommentsInSpace">;
  post(body: Body<"postCommentInSpace">): Out<"postCommentInSpace">;
  get(commentId: string, query?: Query<"getCommentInSpace">): Out<"getCommentInSpace">;
  update(commentId: string, body: Body<"updateCommentInSpace">): Out<"updateCommentInSpace">;
  remove(commentId: string): Out<"deleteCommentInSpace">;
  commenters(query?: Query<"listCommentersInSpace">): Out<"listCommentersInSpace">;
  replies(commentId: string, query?: Query<"listCommentRepliesInSpace">): Out<"listCommentRepliesInSpace">;
  reply(commentId: string, body: Body<"postCommentReplyInSpace">): Out<"postCommentReplyInSpace">;
  getReply(commentId: string, commentReplyId: string): Out<"getCommentReplyInSpace">;
  updateReply(
    commentId: string,
    commentReplyId: string,
    body: Body<"updateCommentReplyInSpace">,
  ): Out<"updateCommentReplyInSpace">;
  removeReply(commentId: string, commentReplyId: string): Out<"deleteCommentReplyInSpace">;
}

/** The comment operations of `thread` as `client`: the space's, or the change request's. */
export function commentThread(client: TestClient, thread: ThreadId): CommentThread {
  const { spaceId, changeRequestId } = thread;
  if (changeRequestId === undefined) {
    return {
      list: (query = {}) => client.listCommentsInSpace({ spaceId, ...query }),
      post: (body) => client.postCommentInSpace({ spaceId, body }),
      get: (commentId, query = {}) => client.getCommentInSpace({ spaceId, commentId, ...query }),
      update: (commentId, body) => client.updateCommentInSpace({ spaceId, commentId, body }),
      remove: (commentId) => client.deleteCommentInSpace({ spaceId, commentId }),
      commenters: (query = {}) => client.listCommentersInSpace({ spaceId, ...query }),
      replies: (commentId, query = {}) => client.listCommentRepliesInSpace({ spaceId, commentId, ...query }),
      reply: (commentId, body) => client.postCommentReplyInSpace({ spaceId, commentId, body }),
      getReply: (commentId, commentReplyId) =>
        client.getCommentReplyInSpace({ spaceId, commentId, commentReplyId }),
      updateReply: (commentId, commentReplyId, body) =>
        client.updateCommentReplyInSpace({ spaceId, commentId, commentReplyId, body }),
      removeReply: (commentId, commentReplyId) =>
        client.deleteCommentReplyInSpace({ spaceId, commentId, commentReplyId }),
    };
  }
  const cr = { spaceId, changeRequestId };
  return {
    list: (query = {}) => client.listCommentsInChangeRequest({ ...cr, ...query }),
    post: (body) => client.postCommentInChangeRequest({ ...cr, body }),
    get: (commentId, query = {}) => client.getCommentInChangeRequest({ ...cr, commentId, ...query }),
    update: (commentId, body) => client.updateCommentInChangeRequest({ ...cr, commentId, body }),
    remove: (commentId) => client.deleteCommentInChangeRequest({ ...cr, commentId }),
    commenters: (query = {}) => client.listCommentersInChangeRequest({ ...cr, ...query }),
    replies: (commentId, query = {}) =>
      client.listCommentRepliesInChangeRequest({ ...cr, commentId, ...query }),
    reply: (commentId, body) => client.postCommentReplyInChangeRequest({ ...cr, commentId, body }),
    getReply: (commentId, commentReplyId) =>
      client.getCommentReplyInChangeRequest({ ...cr, commentId, commentReplyId }),
    updateReply: (commentId, commentReplyId, body) =>
      client.updateCommentReplyInChangeRequest({ ...cr, commentId, commentReplyId, body }),
    removeReply: (commentId, commentReplyId) =>
      client.deleteCommentReplyInChangeRequest({ ...cr, commentId, commentReplyId }),
  };
}
