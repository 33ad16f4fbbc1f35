import * as z from "zod";
import { onChangeRequest } from "../content/access.js";
import { requireCaller } from "../permissions/membership.js";
import { defineOperation, deleted } from "../registry.js";
import { badRequest, conflict } from "../shared/errors.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import { atLeast } from "../shared/roles.js";
import { nextSequence } from "../shared/sequence.js";
import { userSpaceRole } from "../spaces/permissions.js";
import type { ReadTransaction } from "../storage/port.js";
import { saveChangeRequest } from "./records.js";
import { ReviewPresenter } from "./review-present.js";
import {
  requestedReviewerParams,
  requestedReviewerSchema,
  requestReviewersBody,
  requestReviewersResponse,
} from "./review-schemas.js";
import {
  requestedReviewerKey,
  type RequestedReviewerRecord,
  requestedReviewersTable,
} from "./review-tables.js";
import { reviewThread } from "./reviews.js";
import { changeRequestParams } from "./schemas.js";
import type { ChangeRequestRecord } from "./tables.js";

/**
 * Requested reviewers of a change request (docs/reviews.md): users asked to review it. Whoever
 * may edit the change request (the space's `edit` permission) asks and withdraws; anyone who can
 * view the space reads the list. Only members of the organization who can review the space may be
 * asked, and never the author. A request stays until it is withdrawn or its user leaves the
 * organization; a review by a requested user records who asked them (`requestedBy`).
 */

const tag = "change-request-reviewers";

/** Fails with 400 naming `body.users.N` for a user who may not be asked to review. */
async function requireReviewers(
  tx: ReadTransaction,
  scope: { readonly space: Parameters<typeof userSpaceRole>[1]; readonly changeRequest: ChangeRequestRecord },
  users: readonly string[],
): Promise<void> {
  for (const [index, user] of users.entries()) {
    if (user === scope.changeRequest.createdBy) {
      throw badRequest(
        `body.users.${index}: "${user}" is the author of the change request and cannot review it`,
      );
    }
    if (!atLeast(await userSpaceRole(tx, scope.space, user), "review")) {
      throw badRequest(
        `body.users.${index}: "${user}" is not a member of the organization who can review this space`,
      );
    }
  }
}

export const requestReviewersForChangeRequest = defineOperation({
  id: "requestReviewersForChangeRequest",
  method: "post",
  path: "/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers",
  tag,
  summary:
    "Ask members who can review the space to review a change request; optionally set its subject and description",
  params: changeRequestParams,
  access: onChangeRequest("edit"),
  body: requestReviewersBody,
  response: requestReviewersResponse,
  async run(scope, { body }) {
    const { tx, space, changeRequest } = scope;
    if (changeRequest.status === "merged" || changeRequest.status === "archived") {
      throw conflict(
        `Change request #${changeRequest.number} is ${changeRequest.status}: it takes no review requests`,
      );
    }
    const users = [...new Set(body.users)];
    // Every user is checked before anything is written, so a refused request changes nothing.
    await requireReviewers(tx, scope, body.users);
    const now = scope.clock().toISOString();
    const caller = requireCaller(scope).userId;
    const records: RequestedReviewerRecord[] = [];
    for (const user of users) {
      const key = requestedReviewerKey(changeRequest.id, user);
      const existing = await tx.get(requestedReviewersTable, key);
      if (existing) {
        records.push(existing);
        continue;
      }
      const record: RequestedReviewerRecord = {
        key,
        organization: space.organization,
        space: space.id,
        changeRequest: changeRequest.id,
        user,
        seq: await nextSequence(tx, space.id),
        requestedBy: caller,
        revision: changeRequest.revision,
        createdAt: now,
      };
      await tx.put(requestedReviewersTable, record);
      records.push(record);
    }
    const next: ChangeRequestRecord = { ...changeRequest };
    if (body.subject !== undefined) next.subject = body.subject;
    if (body.description !== undefined) next.description = body.description;
    if (JSON.stringify(next) !== JSON.stringify(changeRequest)) {
      await saveChangeRequest(tx, space, { ...next, updatedAt: now }, changeRequest);
    }
    const presenter = new ReviewPresenter(tx, scope, reviewThread(scope, scope));
    return { users: await Promise.all(records.map((record) => presenter.presentRequestedReviewer(record))) };
  },
});

export const getRequestedReviewersByChangeRequestId = defineOperation({
  id: "getRequestedReviewersByChangeRequestId",
  method: "get",
  path: "/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers",
  tag,
  summary: "List the users asked to review a change request, in the order they were asked",
  params: changeRequestParams,
  access: onChangeRequest("view"),
  query: z.object(pageQuery),
  response: listOf(requestedReviewerSchema),
  async run(scope, { query }) {
    const { tx, changeRequest } = scope;
    const presenter = new ReviewPresenter(tx, scope, reviewThread(scope, scope));
    return paginate(tx, query, {
      table: requestedReviewersTable,
      index: "byChangeRequest",
      where: [changeRequest.id],
      map: (record: RequestedReviewerRecord) => presenter.presentRequestedReviewer(record),
    });
  },
});

export const removeRequestedReviewerFromChangeRequest = defineOperation({
  id: "removeRequestedReviewerFromChangeRequest",
  method: "delete",
  path: "/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers/{userId}",
  tag,
  summary: "Withdraw the request that a user review a change request",
  params: requestedReviewerParams,
  access: onChangeRequest("edit"),
  emptyStatuses: [204, 205],
  async run({ tx, changeRequest }, { params }) {
    const key = requestedReviewerKey(changeRequest.id, params.userId);
    if (!(await tx.get(requestedReviewersTable, key))) return deleted(false);
    await tx.delete(requestedReviewersTable, key);
    return deleted(true);
  },
});

/** Whether `user` is asked to review the change request (the `requestedReviewer` list filter). */
export async function isRequestedReviewer(
  tx: ReadTransaction,
  changeRequest: Pick<ChangeRequestRecord, "id">,
  user: string,
): Promise<boolean> {
  return (await tx.get(requestedReviewersTable, requestedReviewerKey(changeRequest.id, user))) !== undefined;
}

export const reviewerOperations = {
  requestReviewersForChangeRequest,
  getRequestedReviewersByChangeRequestId,
  removeRequestedReviewerFromChangeRequest,
};
