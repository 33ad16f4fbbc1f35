import { addComment } from "../comments/bookkeeping.js";
import { openThread } from "../comments/thread.js";
import { type ChangeRequestScope, onChangeRequest } from "../content/access.js";
import { requireCaller } from "../permissions/membership.js";
import { defineOperation } from "../registry.js";
import { conflict, forbidden, notFound } from "../shared/errors.js";
import { LARGE_ITEMS_PAGE_CHARS, listOf, paginate } from "../shared/pagination.js";
import { nextSequence } from "../shared/sequence.js";
import type { Context } from "../shared/world.js";
import { isReviewOutdated, ReviewPresenter } from "./review-present.js";
import {
  listReviewsQuery,
  reviewParams,
  reviewQuery,
  reviewSchema,
  submitReviewBody,
} from "./review-schemas.js";
import {
  requestedReviewerKey,
  requestedReviewersTable,
  type ReviewRecord,
  reviewsTable,
} from "./review-tables.js";
import { changeRequestParams } from "./schemas.js";
import type { ChangeRequestRecord } from "./tables.js";

/**
 * Reviews of a change request (docs/reviews.md): a member with the space's `review` permission
 * approves or requests changes on the change request's current revision. Anyone who can view the
 * space reads the reviews. The author cannot review their own change request (403), and only an
 * open change request takes reviews: a draft is not ready for them, and a merged or archived one
 * is done (409, as for a merge).
 */

const tag = "change-requests-reviews";

/** The change request's comment thread, which a review's comment is posted in. */
export const reviewThread = (context: Context, scope: ChangeRequestScope) => ({
  ...openThread(context, scope),
  changeRequest: scope.changeRequest,
});

function requireReviewable(changeRequest: ChangeRequestRecord): void {
  if (changeRequest.status !== "open") {
    const why =
      changeRequest.status === "draft" ? "a draft: open it to ask for reviews" : changeRequest.status;
    throw conflict(
      `Change request #${changeRequest.number} is ${why}; only an open change request can be reviewed`,
    );
  }
}

export const submitChangeRequestReview = defineOperation({
  id: "submitChangeRequestReview",
  method: "post",
  path: "/spaces/{spaceId}/change-requests/{changeRequestId}/reviews",
  tag,
  summary: "Approve or request changes on the change request's current revision, with an optional comment",
  params: changeRequestParams,
  access: onChangeRequest("review"),
  body: submitReviewBody,
  response: reviewSchema,
  status: 201,
  async run(scope, { body }) {
    const { tx, changeRequest } = scope;
    const reviewer = requireCaller(scope).userId;
    if (changeRequest.createdBy === reviewer) {
      throw forbidden("The author of a change request cannot review it");
    }
    requireReviewable(changeRequest);
    const earlier = await tx.list(reviewsTable, { index: "byReviewer", where: [changeRequest.id, reviewer] });
    for (const review of earlier) {
      if (!review.superseded) await tx.put(reviewsTable, { ...review, superseded: true });
    }
    const request = await tx.get(requestedReviewersTable, requestedReviewerKey(changeRequest.id, reviewer));
    const thread = reviewThread(scope, scope);
    const id = scope.ids();
    const comment = body.comment
      ? await addComment(tx, scope, thread, { markdown: body.comment, review: id })
      : undefined;
    const now = scope.clock().toISOString();
    const record: ReviewRecord = {
      id,
      space: changeRequest.space,
      changeRequest: changeRequest.id,
      seq: await nextSequence(tx, changeRequest.space),
      reviewer,
      status: body.status,
      revision: changeRequest.revision,
      ...(request ? { requestedBy: request.requestedBy } : {}),
      ...(comment ? { comment: comment.id } : {}),
      superseded: false,
      createdAt: now,
      updatedAt: now,
    };
    await tx.put(reviewsTable, record);
    return new ReviewPresenter(tx, scope, thread).presentReview(record);
  },
});

export const getReviewsByChangeRequestId = defineOperation({
  id: "getReviewsByChangeRequestId",
  method: "get",
  path: "/spaces/{spaceId}/change-requests/{changeRequestId}/reviews",
  tag,
  summary: "List the reviews of a change request in the order they were submitted, optionally by outdated",
  params: changeRequestParams,
  access: onChangeRequest("view"),
  query: listReviewsQuery,
  response: listOf(reviewSchema),
  async run(scope, { query }) {
    const { tx, changeRequest } = scope;
    const presenter = new ReviewPresenter(tx, scope, reviewThread(scope, scope), query.format);
    const { outdated } = query;
    return paginate(tx, query, {
      table: reviewsTable,
      index: "byChangeRequest",
      where: [changeRequest.id],
      ...(outdated === undefined
        ? {}
        : { filter: (record: ReviewRecord) => isReviewOutdated(record, changeRequest) === outdated }),
      map: (record: ReviewRecord) => presenter.presentReview(record),
      // Each review's comment may be 100,000 characters: the page is bounded in size, not count.
      maxChars: LARGE_ITEMS_PAGE_CHARS,
    });
  },
});

export const getChangeRequestReviewById = defineOperation({
  id: "getChangeRequestReviewById",
  method: "get",
  path: "/spaces/{spaceId}/change-requests/{changeRequestId}/reviews/{reviewId}",
  tag,
  summary: "Get a review of a change request",
  params: reviewParams,
  access: onChangeRequest("view"),
  query: reviewQuery,
  response: reviewSchema,
  async run(scope, { params, query }) {
    const { tx, changeRequest } = scope;
    const record = await tx.get(reviewsTable, params.reviewId);
    if (!record || record.changeRequest !== changeRequest.id) {
      throw notFound(`Review "${params.reviewId}" not found`);
    }
    return new ReviewPresenter(tx, scope, reviewThread(scope, scope), query.format).presentReview(record);
  },
});

export const reviewOperations = {
  submitChangeRequestReview,
  getReviewsByChangeRequestId,
  getChangeRequestReviewById,
};
