import * as z from "zod";
import { onChangeRequest } from "../content/access.js";
import { defineOperation } from "../registry.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import { userSchema } from "../users/schemas.js";
import { UserPresenter } from "../users/present.js";
import { type ContributionRecord, contributionAction, contributionsTable } from "./contributions.js";
import { changeRequestParams } from "./schemas.js";

/**
 * `getContributorsByChangeRequestId`: who wrote to a change request (contributions.ts), one item
 * per user and kind of action (`edit`, `comment`) with how many writes and when the last was, most
 * recent first. The creator is listed once they write something, like anyone else. Reading needs
 * `read` on the space, as every change request read.
 */

export const changeRequestContributorSchema = z.object({
  user: userSchema,
  count: z.number(),
  updatedAt: z.string(),
  actionType: contributionAction,
});

export const getContributorsByChangeRequestId = defineOperation({
  id: "getContributorsByChangeRequestId",
  method: "get",
  path: "/spaces/{spaceId}/change-requests/{changeRequestId}/contributors",
  tag: "change-requests",
  summary: "List who edited or commented on a change request, most recent contribution first",
  params: changeRequestParams,
  access: onChangeRequest("view"),
  query: z.object(pageQuery),
  response: listOf(changeRequestContributorSchema),
  async run(scope, { query }) {
    const { tx, changeRequest } = scope;
    const users = new UserPresenter(tx, scope);
    return paginate(tx, query, {
      table: contributionsTable,
      index: "byChangeRequest",
      where: [changeRequest.id],
      reverse: true,
      map: async (record: ContributionRecord) => ({
        user: await users.presentUser(record.user),
        count: record.count,
        updatedAt: record.updatedAt,
        actionType: record.action,
      }),
    });
  },
});

export const contributorOperations = { getContributorsByChangeRequestId };
