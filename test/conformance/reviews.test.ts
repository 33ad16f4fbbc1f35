import { ChangeRequestReviewStatus } from "@gitbook/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COVERAGE } from "./coverage.js";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";

describe.each(STORAGE_KINDS)("conformance: reviews and requested reviewers (%s)", (kind) => {
  let h: Harness;
  let users = 0;
  beforeAll(async () => {
    h = await createHarness(kind, { clock: () => new Date("2025-04-01T09:00:00.000Z") });
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.reviews);
    h.expectConformant();
    await h.close();
  });

  /** An organization with a space, an open change request by its owner, and a `review` member. */
  async function setup() {
    users++;
    const owner = await h.test.createUser(`Owner ${users}`);
    const reviewer = await h.test.createUser(`Reviewer ${users}`);
    const org = (await h.test.as(owner).createOrganization({ body: { title: "Org" } })).id;
    const invite = await h.test
      .as(owner)
      .createOrganizationInvite({ organizationId: org, body: { role: "review" } });
    await h.test.as(reviewer).joinOrganizationWithInvite({ organizationId: org, inviteId: invite.id });
    const api = h.client(owner.token);
    const asReviewer = h.client(reviewer.token);
    const { data: space } = await api.orgs.createSpace(org, { title: "Docs" });
    const { data: cr } = await api.spaces.createChangeRequest(space.id, { subject: "Edit" });
    return { owner, reviewer, org, api, asReviewer, space, cr };
  }

  it("requests reviewers, submits, lists and reads reviews", async () => {
    const { owner, reviewer, api, asReviewer, space, cr } = await setup();
    const { data: requested } = await api.spaces.requestReviewersForChangeRequest(space.id, cr.id, {
      users: [reviewer.id],
      subject: "Edit, reviewed",
    });
    expect(requested.users?.map((request) => request.requestedBy.id)).toEqual([owner.id]);
    const { data: list } = await api.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id);
    expect(list.items).toHaveLength(1);
    expect(
      await statusOf(api.spaces.requestReviewersForChangeRequest(space.id, cr.id, { users: [owner.id] })),
    ).toBe(400);

    const { data: review, status } = await asReviewer.spaces.submitChangeRequestReview(space.id, cr.id, {
      status: ChangeRequestReviewStatus.Approved,
      comment: { markdown: "Fine" } as never,
    });
    expect(status).toBe(201);
    expect(review).toMatchObject({ status: "approved", outdated: false, requestedBy: { id: owner.id } });
    expect(review.comment?.target.review).toBe(review.id);
    expect(
      await statusOf(api.spaces.submitChangeRequestReview(space.id, cr.id, { status: "approved" as never })),
    ).toBe(403);
    const { data: reviews } = await api.spaces.getReviewsByChangeRequestId(space.id, cr.id, {
      outdated: false,
    });
    expect(reviews.items.map((item) => item.id)).toEqual([review.id]);
    const { data: read } = await api.spaces.getChangeRequestReviewById(space.id, cr.id, review.id);
    expect(read.id).toBe(review.id);
    expect(await statusOf(api.spaces.getChangeRequestReviewById(space.id, cr.id, "none"))).toBe(404);

    // Merge rules: a changes-requested review blocks (403, nothing merged), a newer approval lets it through.
    await api.spaces.updateSpaceById(space.id, {
      mergeRules: { type: "rules", rules: [{ rule: "require_at_least_one_review" }] },
    } as never);
    await asReviewer.spaces.submitChangeRequestReview(space.id, cr.id, {
      status: ChangeRequestReviewStatus.ChangesRequested,
    });
    expect(await statusOf(api.spaces.mergeChangeRequest(space.id, cr.id))).toBe(403);
    expect((await api.spaces.getChangeRequestById(space.id, cr.id)).data.status).toBe("open");
    await asReviewer.spaces.submitChangeRequestReview(space.id, cr.id, {
      status: ChangeRequestReviewStatus.Approved,
    });
    expect((await api.spaces.mergeChangeRequest(space.id, cr.id)).data.result).toBe("merge");
    const { data: all } = await api.spaces.getReviewsByChangeRequestId(space.id, cr.id, { outdated: true });
    expect(all.items.map((item) => item.status)).toEqual(["approved", "changes-requested"]);

    const removed = await api.spaces.removeRequestedReviewerFromChangeRequest(space.id, cr.id, reviewer.id);
    expect(removed.status).toBe(205);
    const again = await api.spaces.removeRequestedReviewerFromChangeRequest(space.id, cr.id, reviewer.id);
    expect(again.status).toBe(204);
  });
});
