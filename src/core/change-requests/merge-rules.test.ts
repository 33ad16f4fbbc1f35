import { describe, expect, it } from "vitest";
import { createWorkspace, type WorkspaceUser } from "../../../test/support/workspace.js";
import type { ClientInput } from "../client.js";
import type { Operations } from "../operations.js";

type SpaceRules = NonNullable<ClientInput<Operations["updateSpaceById"]>["body"]["mergeRules"]>;
type Rule = Extract<SpaceRules, { type: "rules" }>["rules"][number];

/** A space with a page, a change request editing it, two reviewers and an editor who merges. */
async function setup() {
  const workspace = await createWorkspace();
  const { client } = workspace;
  const spaceId = await workspace.space({ title: "Docs" });
  const page = (await client.createPage({ spaceId, body: { title: "Intro", markdown: "a" } })).id;
  const cr = await client.createChangeRequest({ spaceId, body: { subject: "Change" } });
  const at = { spaceId, changeRequestId: cr.id };
  await client.updatePageInChangeRequest({ ...at, pageId: page, body: { markdown: "b" } });
  const alice = await workspace.member("review");
  const bob = await workspace.member("review");
  const merger = await workspace.member("edit");
  const rules = (...list: Rule[]) =>
    client.updateSpaceById({ spaceId, body: { mergeRules: { type: "rules", rules: list } } });
  const review = (who: WorkspaceUser, status: "approved" | "changes-requested") =>
    who.client.submitChangeRequestReview({ ...at, body: { status } });
  const merge = (who: Pick<WorkspaceUser, "client"> = merger) => who.client.mergeChangeRequest(at);
  /** The merge is refused with 403 and a message matching `message`, and nothing changed. */
  async function refused(message: RegExp | string, who: Pick<WorkspaceUser, "client"> = merger) {
    const before = {
      space: await client.getSpaceById({ spaceId }),
      cr: await client.getChangeRequestById(at),
    };
    await expect(merge(who)).rejects.toMatchObject({
      code: "forbidden",
      message: expect.stringMatching(message),
    });
    expect(await client.getSpaceById({ spaceId })).toEqual(before.space);
    expect(await client.getChangeRequestById(at)).toEqual(before.cr);
  }
  const merged = async (who?: Pick<WorkspaceUser, "client">) =>
    expect((await merge(who)).result).toBe("merge");
  return { ...workspace, spaceId, page, cr, at, alice, bob, merger, rules, review, merge, refused, merged };
}

describe("merge rules", () => {
  it("merges freely without rules", async () => {
    const { merged } = await setup();
    await merged();
  });

  it("require_at_least_one_review: an approval of the current revision, which a new edit outdates", async () => {
    const { rules, review, refused, merged, alice, client, at, page } = await setup();
    await rules({ rule: "require_at_least_one_review" });
    await refused(/^Merge rule "require_at_least_one_review" is not satisfied: waiting for an approval/);
    await review(alice, "approved");
    await client.updatePageInChangeRequest({ ...at, pageId: page, body: { markdown: "c" } });
    await refused(/require_at_least_one_review/);
    await review(alice, "approved");
    await merged();
  });

  it("require_specific_reviewers and require_one_of_specific_reviewers", async () => {
    const { rules, review, refused, merged, alice, bob } = await setup();
    await rules({ rule: "require_specific_reviewers", users: [alice.userId, bob.userId] });
    await review(alice, "approved");
    await refused(
      new RegExp(
        `^Merge rule "require_specific_reviewers" is not satisfied: waiting for an approval from .*\\(${bob.userId}\\)$`,
      ),
    );
    await rules({ rule: "require_one_of_specific_reviewers", users: [bob.userId] });
    await refused(
      /^Merge rule "require_one_of_specific_reviewers" is not satisfied: waiting for an approval from one of/,
    );
    await review(bob, "approved");
    await rules({ rule: "require_specific_reviewers", users: [alice.userId, bob.userId] });
    await merged();
  });

  it("a changes-requested review blocks until superseded; require_all_reviews_approved waits for requested reviewers", async () => {
    const { rules, review, refused, merged, alice, bob, client, at } = await setup();
    await review(alice, "changes-requested");
    await refused(
      new RegExp(`^Merge blocked: .*\\(${alice.userId}\\) requested changes on the current revision$`),
    );
    await review(alice, "approved");
    await rules({ rule: "require_all_reviews_approved" });
    await client.requestReviewersForChangeRequest({ ...at, body: { users: [bob.userId] } });
    await refused(
      new RegExp(
        `"require_all_reviews_approved" is not satisfied: waiting for an approval from .*${bob.userId}`,
      ),
    );
    await review(bob, "approved");
    await merged();
  });

  it("a new revision supersedes a changes-requested review", async () => {
    const { review, refused, merged, alice, client, at, page } = await setup();
    await review(alice, "changes-requested");
    await refused(/^Merge blocked/);
    await client.updatePageInChangeRequest({ ...at, pageId: page, body: { markdown: "fixed" } });
    await merged();
  });

  it("allow_bypass lets the listed users merge regardless of every rule and of requested changes", async () => {
    const { rules, review, refused, merged, alice, merger, client } = await setup();
    await rules(
      { rule: "allow_bypass", users: [(await client.getAuthenticatedUser()).id] },
      { rule: "require_agent_review" },
      { rule: "require_at_least_one_review" },
    );
    await review(alice, "changes-requested");
    await refused(/^Merge blocked/, merger);
    await rules({ rule: "allow_bypass", users: [merger.userId] }, { rule: "require_agent_review" });
    await merged(merger);
  });

  it("require_agent_review never passes without bypass", async () => {
    const { rules, refused } = await setup();
    await rules({ rule: "require_agent_review" });
    await refused(/^Merge rule "require_agent_review" is not satisfied: docsbase has no agent reviews/);
  });

  it("require_up_to_date_change_request, subject and description", async () => {
    const { rules, refused, merged, client, at, spaceId, page } = await setup();
    await rules(
      { rule: "require_up_to_date_change_request" },
      { rule: "require_change_request_subject" },
      { rule: "require_change_request_description" },
    );
    await client.createPage({ spaceId, body: { title: "Live" } });
    await refused(/"require_up_to_date_change_request" is not satisfied/);
    await client.updateChangeRequest(at);
    await client.updateChangeRequestById({ ...at, body: { subject: " " } });
    await refused(/"require_change_request_subject" is not satisfied/);
    await client.updateChangeRequestById({ ...at, body: { subject: "Subject" } });
    await refused(/"require_change_request_description" is not satisfied/);
    const description = {
      object: "document",
      data: {},
      nodes: [
        {
          object: "block",
          type: "paragraph",
          nodes: [{ object: "text", leaves: [{ object: "leaf", text: "Why", marks: [] }] }],
        },
      ],
    };
    await client.updateChangeRequestById({ ...at, body: { description: description as never } });
    void page;
    await merged();
  });

  it("inherits the organization's rules, and combines rules", async () => {
    const { client, org, spaceId, refused, merged, review, alice } = await setup();
    await client.updateOrganizationById({
      organizationId: org,
      body: {
        mergeRules: {
          type: "rules",
          rules: [{ rule: "require_change_request_subject" }, { rule: "require_at_least_one_review" }],
        },
      },
    });
    await refused(/"require_at_least_one_review"/);
    await review(alice, "approved");
    await client.updateSpaceById({ spaceId, body: { mergeRules: { type: "none" } } });
    await client.updateSpaceById({ spaceId, body: { mergeRules: { type: "inherit" } } });
    await merged();
  });

  it("custom: an expression over space, changeRequest, reviews and actor", async () => {
    const { rules, refused, merged, review, alice, merger } = await setup();
    await rules({ rule: "custom", expression: 'reviews.length >= 1 && reviews[0].status == "approved"' });
    await refused(/^Merge rule "custom" is not satisfied: the expression .* is false$/);
    await review(alice, "approved");
    await rules({
      rule: "custom",
      expression: `changeRequest.subject != "" && space.title == "Docs" && actor.id == "${merger.userId}" && !changeRequest.outdated`,
    });
    await merged();
  });

  it("custom: the examples of docs/reviews.md", async () => {
    const { rules, refused, merged, review, alice, bob, client } = await setup();
    await rules({ rule: "custom", expression: "actor.id != changeRequest.createdBy.id" });
    await refused(/"custom" is not satisfied/, { client });
    await rules({ rule: "custom", expression: "reviews.length >= 2 && reviews[1].outdated == false" });
    await review(alice, "approved");
    await refused(/"custom" is not satisfied/);
    await review(bob, "approved");
    await rules({ rule: "custom", expression: 'space.title != "Handbook" || changeRequest.subject != ""' });
    await merged();
  });

  it("custom: an expression that does not compile is refused at save, naming the field, and stores nothing", async () => {
    const { rules, client, org, spaceId } = await setup();
    const before = (await client.getSpaceById({ spaceId })).mergeRules;
    const field = "body.mergeRules.rules.1.expression";
    for (const [expression, reason] of [
      ["process.exit()", /^body\.mergeRules\.rules\.1\.expression: /],
      ["reviews.constructor", /"constructor" cannot be read/],
      ["((", new RegExp(field)],
    ] as const) {
      await expect(
        rules({ rule: "require_at_least_one_review" }, { rule: "custom", expression }),
      ).rejects.toMatchObject({ code: "bad_request", message: expect.stringMatching(reason) });
    }
    expect((await client.getSpaceById({ spaceId })).mergeRules).toEqual(before);
    const organizationRules = (expression: string) =>
      client.updateOrganizationById({
        organizationId: org,
        body: { mergeRules: { type: "rules", rules: [{ rule: "custom", expression }] } },
      });
    await expect(organizationRules("unknown.field")).rejects.toMatchObject({
      code: "bad_request",
      message: expect.stringMatching(
        /^body\.mergeRules\.rules\.0\.expression: .*unknown identifier "unknown"/,
      ),
    });
    expect((await client.getOrganizationById({ organizationId: org })).mergeRules).toEqual({ type: "none" });
  });

  it("custom: an expression that compiles but has no value refuses the merge", async () => {
    const { rules, refused } = await setup();
    await rules({ rule: "custom", expression: "changeRequest.urls - 1" });
    await refused(/^Merge rule "custom" could not be evaluated: /);
  });
});
