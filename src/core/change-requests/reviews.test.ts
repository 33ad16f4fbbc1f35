import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { requestedReviewersTable, reviewsTable } from "./review-tables.js";

/** A space with a page, an open change request by the owner, and members of each role. */
async function setup() {
  const workspace = await createWorkspace();
  const { client } = workspace;
  const spaceId = await workspace.space({ title: "Docs" });
  const page = (await client.createPage({ spaceId, body: { title: "Intro", markdown: "a" } })).id;
  const cr = await client.createChangeRequest({ spaceId, body: { subject: "Change" } });
  const at = { spaceId, changeRequestId: cr.id };
  const reviewer = await workspace.member("review");
  const second = await workspace.member("review");
  const editor = await workspace.member("edit");
  const reader = await workspace.member("read");
  const editCr = (markdown: string) =>
    client.updatePageInChangeRequest({ ...at, pageId: page, body: { markdown } });
  return { ...workspace, spaceId, page, cr, at, reviewer, second, editor, reader, editCr };
}

describe("change request reviews", () => {
  it("records an approval against the current revision, with its comment", async () => {
    const { at, cr, reviewer, client, test } = await setup();
    const review = await reviewer.client.submitChangeRequestReview({
      ...at,
      body: { status: "approved", comment: { markdown: "Looks good" } },
    });
    expect(review).toMatchObject({
      object: "change-request-review",
      revision: cr.revision,
      reviewer: { id: reviewer.userId },
      status: "approved",
      outdated: false,
      comment: { body: { markdown: "Looks good" }, target: { review: review.id, changeRequest: cr.id } },
    });
    expect(review.requestedBy).toBeUndefined();
    expect(review.urls.location).toBe(`${cr.urls.location}/reviews/${review.id}`);
    // The comment is one of the change request's comments, and counts as one.
    const comments = await client.listCommentsInChangeRequest(at);
    expect(comments.items.map((comment) => comment.id)).toEqual([review.comment!.id]);
    expect((await client.getChangeRequestById(at)).comments).toBe(1);
    expect(await reviewer.client.getChangeRequestReviewById({ ...at, reviewId: review.id })).toEqual(review);
    const asDocument = await client.getChangeRequestReviewById({
      ...at,
      reviewId: review.id,
      format: "document",
    });
    expect(asDocument.comment?.body).toHaveProperty("document");
    // Over HTTP: 201 with its location.
    const answer = await test.request("POST", `/spaces/${at.spaceId}/change-requests/${cr.id}/reviews`, {
      token: (await test.createUser("x")).token,
      body: { status: "approved" },
    });
    expect(answer.status).toBe(404);
  });

  it("answers 201 with a Location header over HTTP", async () => {
    const { at, reviewer } = await setup();
    const answer = await reviewer(
      "POST",
      `/spaces/${at.spaceId}/change-requests/${at.changeRequestId}/reviews`,
      {
        status: "changes-requested",
      },
    );
    expect(answer.status).toBe(201);
    expect(answer.headers.get("location")).toBe(answer.body.urls.location);
  });

  it("refuses the author, members without review, and change requests not open", async () => {
    const { at, client, editor, reader, reviewer, outsider, stored } = await setup();
    const body = { status: "approved" as const };
    await expect(client.submitChangeRequestReview({ ...at, body })).rejects.toMatchObject({
      code: "forbidden",
      message: "The author of a change request cannot review it",
    });
    await expect(editor.client.submitChangeRequestReview({ ...at, body })).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(reader.client.submitChangeRequestReview({ ...at, body })).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(outsider.client.submitChangeRequestReview({ ...at, body })).rejects.toMatchObject({
      code: "not_found",
    });
    // Bad input: 400 naming the field, nothing stored.
    const bad = await reviewer(
      "POST",
      `/spaces/${at.spaceId}/change-requests/${at.changeRequestId}/reviews`,
      {
        status: "maybe",
      },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^body\.status: /);
    const empty = await reviewer(
      "POST",
      `/spaces/${at.spaceId}/change-requests/${at.changeRequestId}/reviews`,
      {
        status: "approved",
        comment: { markdown: " " },
      },
    );
    expect(empty.body.error.message).toMatch(/^body\.comment: /);
    expect((await client.getReviewsByChangeRequestId(at)).count).toBe(0);

    await client.updateChangeRequestById({ ...at, body: { status: "draft" } });
    await expect(reviewer.client.submitChangeRequestReview({ ...at, body })).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("is a draft"),
    });
    await client.updateChangeRequestById({ ...at, body: { status: "archived" } });
    await expect(reviewer.client.submitChangeRequestReview({ ...at, body })).rejects.toMatchObject({
      code: "conflict",
    });
    await expect(client.getChangeRequestReviewById({ ...at, reviewId: "none" })).rejects.toMatchObject({
      code: "not_found",
    });
    expect(await stored(reviewsTable, "none")).toBeUndefined();
  });

  it("marks reviews outdated by a new revision or a newer review of the same reviewer", async () => {
    const { at, reviewer, second, client, editCr } = await setup();
    const first = await reviewer.client.submitChangeRequestReview({
      ...at,
      body: { status: "changes-requested" },
    });
    const other = await second.client.submitChangeRequestReview({ ...at, body: { status: "approved" } });
    const again = await reviewer.client.submitChangeRequestReview({ ...at, body: { status: "approved" } });
    const outdated = async (value?: boolean) =>
      (
        await client.getReviewsByChangeRequestId({
          ...at,
          ...(value === undefined ? {} : { outdated: value }),
        })
      ).items.map((review) => review.id);
    expect(await outdated()).toEqual([first.id, other.id, again.id]);
    expect(await outdated(true)).toEqual([first.id]);
    expect(await outdated(false)).toEqual([other.id, again.id]);
    await editCr("b");
    expect(await outdated(false)).toEqual([]);
    expect(await outdated(true)).toEqual([first.id, other.id, again.id]);
    const paged = await client.getReviewsByChangeRequestId({ ...at, limit: 2 });
    expect(paged.count).toBe(3);
    const rest = await client.getReviewsByChangeRequestId({ ...at, limit: 2, page: paged.next!.page });
    expect(rest.items.map((review) => review.id)).toEqual([again.id]);
  });
});

describe("requested reviewers", () => {
  it("requests members who can review, records requestedBy on their review, and withdraws", async () => {
    const { at, cr, client, reviewer, second, editor, api, spaceId } = await setup();
    const answer = await client.requestReviewersForChangeRequest({
      ...at,
      body: { users: [reviewer.userId, second.userId, reviewer.userId], subject: "Please review" },
    });
    expect(answer.users?.map((request) => [request.kind, request.user.id, request.requestedBy.id])).toEqual([
      ["user", reviewer.userId, (await client.getAuthenticatedUser()).id],
      ["user", second.userId, (await client.getAuthenticatedUser()).id],
    ]);
    expect(answer.users?.[0]?.revision).toBe(cr.revision);
    expect((await client.getChangeRequestById(at)).subject).toBe("Please review");
    const list = await client.getRequestedReviewersByChangeRequestId(at);
    expect(list.items.map((request) => request.user.id)).toEqual([reviewer.userId, second.userId]);

    const review = await reviewer.client.submitChangeRequestReview({ ...at, body: { status: "approved" } });
    expect(review.requestedBy?.id).toBe(answer.users?.[0]?.requestedBy.id);

    const path = `/spaces/${spaceId}/change-requests/${cr.id}/requested-reviewers/${second.userId}`;
    expect((await api("DELETE", path)).status).toBe(205);
    expect((await api("DELETE", path)).status).toBe(204);
    expect((await editor("DELETE", path)).status).toBe(204);
    expect((await client.getRequestedReviewersByChangeRequestId(at)).items.map((r) => r.user.id)).toEqual([
      reviewer.userId,
    ]);
  });

  it("refuses users who cannot review the space, and the author, naming body.users.N", async () => {
    const { at, api, client, reviewer, editor, outsider, reader, owner, spaceId, cr, stored } = await setup();
    const path = `/spaces/${spaceId}/change-requests/${cr.id}/requested-reviewers`;
    const refused = async (users: string[]) =>
      (await api("POST", path, { users, subject: "Changed" })).body.error;
    expect(await refused([reviewer.userId, editor.userId])).toMatchObject({
      code: 400,
      message: expect.stringMatching(/^body\.users\.1: .*cannot|^body\.users\.1: .*who can review/),
    });
    expect((await refused([outsider.userId])).message).toMatch(/^body\.users\.0: /);
    expect((await refused([owner.id])).message).toMatch(/^body\.users\.0: .*author/);
    expect((await refused([])).message).toMatch(/^body\.users: /);
    // Nothing changed: no request, same subject.
    expect(await stored(requestedReviewersTable, `${cr.id}:${reviewer.userId}`)).toBeUndefined();
    expect((await client.getChangeRequestById(at)).subject).toBe("Change");
    // Readers cannot ask.
    const asReader = await reader("POST", path, { users: [reviewer.userId] });
    expect(asReader.status).toBe(403);
  });

  it("drops a leaving member's requests but keeps their reviews; purging the space drops both", async () => {
    const { at, client, reviewer, second, org, stored, cr, test, spaceId, advance } = await setup();
    await client.requestReviewersForChangeRequest({ ...at, body: { users: [reviewer.userId] } });
    const review = await reviewer.client.submitChangeRequestReview({ ...at, body: { status: "approved" } });
    await client.removeMemberFromOrganizationById({ organizationId: org, userId: reviewer.userId });
    expect((await client.getRequestedReviewersByChangeRequestId(at)).count).toBe(0);
    expect((await client.getReviewsByChangeRequestId(at)).items.map((r) => r.id)).toEqual([review.id]);

    expect(await stored(reviewsTable, review.id)).toBeDefined();
    await client.requestReviewersForChangeRequest({ ...at, body: { users: [second.userId] } });
    await client.deleteSpaceById({ spaceId });
    advance(7 * 24 * 60 * 60 * 1000);
    expect(await test.docsbase.runJobs()).toBe(1);
    expect(await stored(reviewsTable, review.id)).toBeUndefined();
    expect(await stored(requestedReviewersTable, `${cr.id}:${second.userId}`)).toBeUndefined();
  });
});
