import type { z } from "zod";
import type { ChangeRequestScope } from "../content/access.js";
import { documentToMarkdown } from "../document/index.js";
import type { DocumentInput } from "../document/schema.js";
import { MERGE_EXPRESSION_RULES, standaloneMergeRules } from "../organizations/schemas.js";
import { organizationsTable } from "../organizations/tables.js";
import { requireCaller } from "../permissions/membership.js";
import { forbidden } from "../shared/errors.js";
import { compileExpression, evaluateTree, ExpressionError } from "../shared/expression.js";
import type { Context } from "../shared/world.js";
import { presentSpaceWith } from "../spaces/present.js";
import type { SpaceRecord } from "../spaces/tables.js";
import type { ReadTransaction } from "../storage/port.js";
import { UserPresenter } from "../users/present.js";
import { presentChangeRequest } from "./present.js";
import { isReviewOutdated, ReviewPresenter } from "./review-present.js";
import { requestedReviewersTable, type ReviewRecord, reviewsTable } from "./review-tables.js";
import { reviewThread } from "./reviews.js";
import { isOutdated } from "./schemas.js";

/**
 * Merge rules, enforced when a change request is merged (docs/reviews.md, "Merge rules"). The
 * space's `mergeRules` apply (`inherit`: the organization's; `none`: no rule). They are evaluated
 * in the merge's transaction before anything is written, so a refused merge changes nothing; it
 * answers 403 naming the rule that failed.
 *
 * Whatever the rules, a `changes-requested` review on the current revision (its reviewer's latest)
 * blocks the merge. Users listed by an `allow_bypass` rule merge regardless of both.
 */

type MergeRule = Extract<z.output<typeof standaloneMergeRules>, { type: "rules" }>["rules"][number];

type MergeScope = Context & ChangeRequestScope & { readonly tx: ReadTransaction };

/** The rules that apply to the space's change requests, as stored (and validated) on input. */
async function effectiveRules(tx: ReadTransaction, space: SpaceRecord): Promise<readonly MergeRule[]> {
  let stored: unknown = space.mergeRules;
  if (space.mergeRules.type === "inherit") {
    stored = (await tx.get(organizationsTable, space.organization))?.mergeRules ?? { type: "none" };
  }
  const parsed = standaloneMergeRules.safeParse(stored);
  if (!parsed.success)
    throw forbidden("The merge rules of this space are not valid: an admin must set them again");
  return parsed.data.type === "rules" ? parsed.data.rules : [];
}

/** The text of a description document (validated as one on input), or "" without one. */
const descriptionText = (description: Record<string, unknown> | undefined) =>
  description ? documentToMarkdown(description as unknown as DocumentInput).trim() : "";

/**
 * Refuses the merge (403) unless the change request satisfies the space's merge rules, or the
 * caller may bypass them. Reads only.
 */
export async function requireMergeRules(scope: MergeScope): Promise<void> {
  const { tx, space, changeRequest } = scope;
  const rules = await effectiveRules(tx, space);
  const actor = requireCaller(scope).userId;
  const bypass = rules.some((rule) => rule.rule === "allow_bypass" && rule.users.includes(actor));
  if (bypass) return;

  const reviews = await tx.list(reviewsTable, { index: "byChangeRequest", where: [changeRequest.id] });
  // Each reviewer's latest review, when it is on the current revision.
  const current = reviews.filter((review) => !isReviewOutdated(review, changeRequest));
  const approvers = new Set(current.filter((review) => review.status === "approved").map((r) => r.reviewer));
  const users = new UserPresenter(tx, scope);
  const who = async (ids: Iterable<string>) =>
    (
      await Promise.all([...ids].map(async (id) => `${(await users.presentUser(id)).displayName} (${id})`))
    ).join(", ");

  const blocking = current.filter((review) => review.status === "changes-requested");
  if (blocking.length > 0) {
    throw forbidden(
      `Merge blocked: ${await who(blocking.map((review) => review.reviewer))} requested changes on the current revision`,
    );
  }

  const refuse = (rule: string, why: string) => forbidden(`Merge rule "${rule}" is not satisfied: ${why}`);
  for (const rule of rules) {
    switch (rule.rule) {
      case "allow_bypass":
        break;
      case "require_at_least_one_review":
        if (approvers.size === 0) throw refuse(rule.rule, "waiting for an approval of the current revision");
        break;
      case "require_specific_reviewers": {
        const waiting = rule.users.filter((user) => !approvers.has(user));
        if (waiting.length > 0) throw refuse(rule.rule, `waiting for an approval from ${await who(waiting)}`);
        break;
      }
      case "require_one_of_specific_reviewers":
        if (!rule.users.some((user) => approvers.has(user))) {
          throw refuse(rule.rule, `waiting for an approval from one of ${await who(rule.users)}`);
        }
        break;
      case "require_all_reviews_approved": {
        const requests = await tx.list(requestedReviewersTable, {
          index: "byChangeRequest",
          where: [changeRequest.id],
        });
        const expected = new Set([
          ...reviews.map((review) => review.reviewer),
          ...requests.map((r) => r.user),
        ]);
        const waiting = [...expected].filter((user) => !approvers.has(user));
        if (waiting.length > 0) throw refuse(rule.rule, `waiting for an approval from ${await who(waiting)}`);
        break;
      }
      case "require_up_to_date_change_request":
        if (isOutdated(changeRequest, space)) {
          throw refuse(rule.rule, "the space changed since the change request was last updated from it");
        }
        break;
      case "require_change_request_subject":
        if (changeRequest.subject.trim() === "") throw refuse(rule.rule, "the change request has no subject");
        break;
      case "require_change_request_description":
        if (descriptionText(changeRequest.description) === "") {
          throw refuse(rule.rule, "the change request has no description");
        }
        break;
      case "require_agent_review":
        throw refuse(
          rule.rule,
          "docsbase has no agent reviews; only a user allowed to bypass the rules can merge",
        );
      case "custom":
        if (!(await evaluateCustom(scope, rule.expression, reviews))) {
          throw refuse(rule.rule, `the expression ${JSON.stringify(rule.expression)} is false`);
        }
        break;
    }
  }
}

/** The truth of a `custom` expression over the evaluation context; 403 when it has no value. */
async function evaluateCustom(
  scope: MergeScope,
  expression: string,
  reviews: readonly ReviewRecord[],
): Promise<boolean> {
  const { tx, space, changeRequest, permissions } = scope;
  try {
    const tree = compileExpression(expression, MERGE_EXPRESSION_RULES);
    const presenter = new ReviewPresenter(tx, scope, reviewThread(scope, scope));
    const context = {
      space: presentSpaceWith(scope, space, permissions),
      changeRequest: await presentChangeRequest(tx, scope, changeRequest, space),
      reviews: await Promise.all(reviews.map((review) => presenter.presentReview(review))),
      actor: await new UserPresenter(tx, scope).presentUser(requireCaller(scope).userId),
    };
    return Boolean(evaluateTree(tree, context, MERGE_EXPRESSION_RULES));
  } catch (error) {
    if (error instanceof ExpressionError) {
      throw forbidden(`Merge rule "custom" could not be evaluated: ${error.message}`);
    }
    throw error;
  }
}
