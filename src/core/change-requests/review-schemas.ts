import * as z from "zod";
import { commentBodyInput, commentSchema, formatQuery } from "../comments/schemas.js";
import { pageQuery } from "../shared/pagination.js";
import { boundedId, pathParam, queryBoolean, timestamp, url } from "../shared/schema.js";
import { userSchema } from "../users/schemas.js";
import { reviewStatus } from "./review-tables.js";
import { changeRequestSubject, updateChangeRequestBody } from "./schemas.js";

/**
 * Request and response schemas of reviews and requested reviewers (the reference
 * `ChangeRequestReview`, `ChangeRequestRequestedReviewer` and the bodies of
 * `submitChangeRequestReview` and `requestReviewersForChangeRequest`).
 */

/** Most users in one `requestReviewersForChangeRequest` (docs/reviews.md). */
export const MAX_REQUESTED_USERS = 100;

export const reviewParams = z.object({
  spaceId: pathParam(),
  changeRequestId: pathParam(),
  reviewId: pathParam(),
});

export const requestedReviewerParams = z.object({
  spaceId: pathParam(),
  changeRequestId: pathParam(),
  userId: pathParam(),
});

/** `status`, and an optional `comment` (the reference `Document`: `{markdown}` or `{document}`). */
export const submitReviewBody = z.object({ status: reviewStatus, comment: commentBodyInput.optional() });

export const listReviewsQuery = z.object({
  ...pageQuery,
  ...formatQuery,
  outdated: queryBoolean().optional(),
});

export const reviewQuery = z.object(formatQuery);

export const requestReviewersBody = z.object({
  users: z.array(boundedId()).min(1).max(MAX_REQUESTED_USERS),
  subject: changeRequestSubject.optional(),
  description: updateChangeRequestBody.shape.description,
});

export const reviewSchema = z.object({
  object: z.literal("change-request-review"),
  id: z.string(),
  revision: z.string(),
  reviewer: userSchema,
  requestedBy: userSchema.optional(),
  status: reviewStatus,
  outdated: z.boolean(),
  comment: commentSchema.optional(),
  createdAt: timestamp(),
  updatedAt: timestamp(),
  urls: z.object({ location: url() }),
});
export type Review = z.infer<typeof reviewSchema>;

/** The reference's `kind: "team"` requests are not made by docsbase (docs/reviews.md). */
export const requestedReviewerSchema = z.object({
  object: z.literal("change-request-requested-reviewer"),
  revision: z.string(),
  requestedBy: userSchema,
  createdAt: timestamp(),
  kind: z.literal("user"),
  user: userSchema,
});
export type RequestedReviewer = z.infer<typeof requestedReviewerSchema>;

export const requestReviewersResponse = z.object({ users: z.array(requestedReviewerSchema) });
