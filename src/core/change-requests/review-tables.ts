import * as z from "zod";
import { defineTable } from "../storage/table.js";

/** The reference `ChangeRequestReviewStatus`. */
export const reviewStatus = z.enum(["approved", "changes-requested"]);
export type ReviewStatus = z.infer<typeof reviewStatus>;

export const reviewRecord = z.object({
  id: z.string(),
  space: z.string(),
  changeRequest: z.string(),
  /** Insertion order (see shared/sequence.ts). */
  seq: z.number(),
  reviewer: z.string(),
  status: reviewStatus,
  /** The change request's revision the review was made against. */
  revision: z.string(),
  /** Who had requested the reviewer's review, when someone had. */
  requestedBy: z.string().optional(),
  /** The comment posted with the review (its `target.review` names the review). */
  comment: z.string().optional(),
  /**
   * True once the same reviewer submitted a newer review of the change request. Stored (in the
   * transaction of the newer review) so that the `outdated` filter is a test of one record.
   */
  superseded: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ReviewRecord = z.infer<typeof reviewRecord>;

/** Reviews of change requests, in the order they were submitted. */
export const reviewsTable = defineTable({
  name: "changeRequestReviews",
  key: "id",
  indexes: {
    byChangeRequest: ["changeRequest", "seq"],
    byReviewer: ["changeRequest", "reviewer", "seq"],
    bySpace: ["space", "seq"],
  },
  record: reviewRecord,
});

export const requestedReviewerRecord = z.object({
  /** `${changeRequest}:${user}`: a user is requested at most once per change request. */
  key: z.string(),
  organization: z.string(),
  space: z.string(),
  changeRequest: z.string(),
  user: z.string(),
  /** Insertion order (see shared/sequence.ts). */
  seq: z.number(),
  requestedBy: z.string(),
  /** The change request's revision when the request was made. */
  revision: z.string(),
  createdAt: z.string(),
});
export type RequestedReviewerRecord = z.infer<typeof requestedReviewerRecord>;

/** Users asked to review a change request, in the order they were asked. */
export const requestedReviewersTable = defineTable({
  name: "changeRequestRequestedReviewers",
  key: "key",
  indexes: {
    byChangeRequest: ["changeRequest", "seq"],
    bySpace: ["space", "seq"],
    byOrganizationUser: ["organization", "user", "seq"],
  },
  record: requestedReviewerRecord,
});

export const requestedReviewerKey = (changeRequest: string, user: string) => `${changeRequest}:${user}`;
