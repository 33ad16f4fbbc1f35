import { z } from "zod";
import { requireRevision } from "../content/revisions.js";
import { pageTree } from "../content/tree.js";
import { badRequest } from "../shared/errors.js";
import { pathParam } from "../shared/schema.js";
import type { Context } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import type { Thread, ThreadParams } from "./thread.js";

/**
 * The two families of comment operations (SPEC.md, "Comments"): on a space and on a change
 * request. They differ in their ids, their path prefix and their path parameters only, except
 * that replies of change-request comments also take `resolved` and `format` on post.
 */
export interface Family {
  readonly kind: "space" | "change-request";
  readonly prefix: string;
  readonly params: z.ZodObject<z.ZodRawShape>;
  readonly tag: string;
  readonly ids: {
    readonly list: string;
    readonly post: string;
    readonly get: string;
    readonly update: string;
    readonly delete: string;
    readonly listReplies: string;
    readonly postReply: string;
    readonly getReply: string;
    readonly updateReply: string;
    readonly deleteReply: string;
    readonly commenters: string;
  };
}

const ids = (suffix: "InSpace" | "InChangeRequest") => ({
  list: `listComments${suffix}`,
  post: `postComment${suffix}`,
  get: `getComment${suffix}`,
  update: `updateComment${suffix}`,
  delete: `deleteComment${suffix}`,
  listReplies: `listCommentReplies${suffix}`,
  postReply: `postCommentReply${suffix}`,
  getReply: `getCommentReply${suffix}`,
  updateReply: `updateCommentReply${suffix}`,
  deleteReply: `deleteCommentReply${suffix}`,
  commenters: `listCommenters${suffix}`,
});

export const FAMILIES: readonly Family[] = [
  {
    kind: "space",
    prefix: "/spaces/{spaceId}",
    params: z.object({ spaceId: pathParam() }),
    tag: "space-comments",
    ids: ids("InSpace"),
  },
  {
    kind: "change-request",
    prefix: "/spaces/{spaceId}/change-requests/{changeRequestId}",
    params: z.object({ spaceId: pathParam(), changeRequestId: pathParam() }),
    tag: "change-request-comments",
    ids: ids("InChangeRequest"),
  },
];

/** The thread named by validated path parameters. */
export function threadOf(params: Record<string, unknown>): ThreadParams {
  const changeRequestId = params["changeRequestId"];
  return {
    spaceId: String(params["spaceId"]),
    ...(typeof changeRequestId === "string" ? { changeRequestId } : {}),
  };
}

/** Fails with 400 naming `body.page` unless the page exists in the thread's content. */
export async function requirePage(
  tx: ReadTransaction,
  context: Context,
  thread: Thread,
  page: string,
): Promise<void> {
  const content = await requireRevision(tx, context, thread.revision);
  if (!pageTree(content).byId.has(page)) {
    const where = thread.changeRequest ? `change request #${thread.changeRequest.number}` : "the space";
    throw badRequest(`body.page: no page "${page}" in the content of ${where}`);
  }
}
