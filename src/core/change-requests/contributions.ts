import * as z from "zod";
import type { World } from "../shared/world.js";
import type { WriteTransaction } from "../storage/port.js";
import { defineTable } from "../storage/table.js";

/**
 * Who wrote to a change request (`getContributorsByChangeRequestId`): one record per change
 * request, user and kind of action, counting that user's writes of that kind and stamping the
 * last. Kept in the transaction of each write: `edit` by every content write that lands on the
 * change request (content/target.ts, `commitDraft`, and a template applied at creation), `comment`
 * by each comment or reply posted on it (comments/).
 *
 * A count records writes made: deleting a comment or undoing an edit does not lower it.
 */

/** The reference `ChangeRequestUserContributor.actionType`. */
export const contributionAction = z.enum(["edit", "comment"]);
export type ContributionAction = z.infer<typeof contributionAction>;

export const contributionRecord = z.object({
  /** `${changeRequest}:${user}:${action}`. */
  key: z.string(),
  changeRequest: z.string(),
  user: z.string(),
  action: contributionAction,
  count: z.number(),
  /** The time of the last write counted. */
  updatedAt: z.string(),
});
export type ContributionRecord = z.infer<typeof contributionRecord>;

export const contributionsTable = defineTable({
  name: "changeRequestContributions",
  key: "key",
  indexes: { byChangeRequest: ["changeRequest", "updatedAt"] },
  record: contributionRecord,
});

/**
 * Counts one write of `action` by `user` on the change request, at the world's clock.
 *
 * @example
 * ```ts
 * await recordContribution(tx, scope, changeRequest.id, caller.userId, "comment");
 * ```
 */
export async function recordContribution(
  tx: WriteTransaction,
  world: Pick<World, "clock">,
  changeRequest: string,
  user: string,
  action: ContributionAction,
): Promise<void> {
  const key = `${changeRequest}:${user}:${action}`;
  const current = await tx.get(contributionsTable, key);
  await tx.put(contributionsTable, {
    key,
    changeRequest,
    user,
    action,
    count: (current?.count ?? 0) + 1,
    updatedAt: world.clock().toISOString(),
  });
}
