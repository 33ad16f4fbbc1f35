import { defineModule } from "../module.js";
import { contributionsTable } from "./contributions.js";
import { changeRequestOperations } from "./operations.js";
import { pushOperations, pushesTable } from "./pushes.js";
import { requestedReviewersTable, reviewsTable } from "./review-tables.js";
import { reviewerOperations } from "./reviewers.js";
import { reviewOperations } from "./reviews.js";
import { changeRequestsTable } from "./tables.js";

/**
 * Change requests: review, update from the space, merge, and pushes of offline edits (pushes.ts).
 * Purging a space removes its change requests, their contributions, their reviews, their
 * requested reviewers and its pushes. A member who leaves
 * the organization is no longer asked to review anything there; their reviews stay, as history.
 */
export const changeRequestsModule = defineModule({
  name: "change-requests",
  tables: [changeRequestsTable, contributionsTable, reviewsTable, requestedReviewersTable, pushesTable],
  operations: { ...changeRequestOperations, ...reviewOperations, ...reviewerOperations, ...pushOperations },
  hooks: {
    async purgeSpace(tx, _world, space) {
      const all = await tx.list(changeRequestsTable, { index: "bySpaceNumber", where: [space.id] });
      for (const changeRequest of all) {
        const contributions = await tx.list(contributionsTable, {
          index: "byChangeRequest",
          where: [changeRequest.id],
        });
        for (const contribution of contributions) await tx.delete(contributionsTable, contribution.key);
        await tx.delete(changeRequestsTable, changeRequest.id);
      }
      for (const review of await tx.list(reviewsTable, { index: "bySpace", where: [space.id] })) {
        await tx.delete(reviewsTable, review.id);
      }
      const requests = await tx.list(requestedReviewersTable, { index: "bySpace", where: [space.id] });
      for (const request of requests) await tx.delete(requestedReviewersTable, request.key);
      for (const push of await tx.list(pushesTable, { index: "bySpace", where: [space.id] })) {
        await tx.delete(pushesTable, push.key);
      }
    },
    async memberRemoved(tx, _world, member) {
      const requests = await tx.list(requestedReviewersTable, {
        index: "byOrganizationUser",
        where: [member.organization, member.user],
      });
      for (const request of requests) await tx.delete(requestedReviewersTable, request.key);
    },
  },
});
