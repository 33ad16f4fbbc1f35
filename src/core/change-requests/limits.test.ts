import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { answerOf, expectRefusedUnchanged, LONG_ID, LONGEST_ID } from "../../../test/support/limits.js";
import { MAX_DESCRIPTION_JSON_LENGTH } from "./schemas.js";

/** A description document whose JSON is `length` characters long. */
function descriptionOf(length: number) {
  const document = (text: string) => ({
    object: "document",
    data: {},
    nodes: [
      {
        object: "block",
        type: "paragraph",
        nodes: [{ object: "text", leaves: [{ object: "leaf", text, marks: [] }] }],
      },
    ],
  });
  return document("x".repeat(length - JSON.stringify(document("")).length));
}

/** Input limits of the change-request operations (docs/api.md, "Limits"). */
describe("change requests: input limits", () => {
  it("bounds change request ids, filters, templates, subjects and descriptions", async () => {
    const { client, org, space } = await createWorkspace();
    const spaceId = await space({ title: "Docs" });
    const cr = await client.createChangeRequest({ spaceId, body: { subject: "Edit" } });
    const ids = { spaceId, changeRequestId: cr.id };
    const long = { spaceId, changeRequestId: LONG_ID };
    const observe = async () => ({
      list: await client.listChangeRequestsForSpace({ spaceId, status: "open" }),
      cr: await client.getChangeRequestById(ids),
      pages: await client.getRevisionOfChangeRequestById(ids),
    });
    await expectRefusedUnchanged(observe, [
      [() => answerOf(client.getChangeRequestById(long)), "path.changeRequestId"],
      [
        () => answerOf(client.updateChangeRequestById({ ...long, body: { subject: "Renamed" } })),
        "path.changeRequestId",
      ],
      [() => answerOf(client.mergeChangeRequest(long)), "path.changeRequestId"],
      [() => answerOf(client.createChangeRequest({ spaceId: LONG_ID, body: {} })), "path.spaceId"],
      [
        () => answerOf(client.createChangeRequest({ spaceId, body: { template: { id: LONG_ID } } })),
        "body.template.id",
      ],
      [
        () => answerOf(client.createChangeRequest({ spaceId, body: { subject: "s".repeat(101) } })),
        "body.subject",
      ],
      [
        () =>
          answerOf(
            client.updateChangeRequestById({
              ...ids,
              body: { description: descriptionOf(MAX_DESCRIPTION_JSON_LENGTH + 1) },
            }),
          ),
        "body.description",
      ],
      [() => answerOf(client.listChangeRequestsForSpace({ spaceId, creator: LONG_ID })), "query.creator"],
      [
        () => answerOf(client.listChangeRequestsForSpace({ spaceId, contributor: LONG_ID })),
        "query.contributor",
      ],
      [
        () =>
          answerOf(
            client.listChangeRequestsForOrganization({ organizationId: org, requestedReviewer: LONG_ID }),
          ),
        "query.requestedReviewer",
      ],
      [
        () =>
          answerOf(
            client.listChangeRequestsForOrganization({
              organizationId: org,
              conversationsIssuesCluster: LONG_ID,
            }),
          ),
        "query.conversationsIssuesCluster",
      ],
      [() => answerOf(client.listChangeRequestsForSpace({ spaceId, page: "p".repeat(8193) })), "query.page"],
      [() => answerOf(client.getChangeRequestPDF({ ...ids, page: LONG_ID })), "query.page"],
      [
        () =>
          answerOf(client.createPageInChangeRequest({ ...ids, body: { title: "Child", parent: LONG_ID } })),
        "body.parent",
      ],
    ]);

    // Ordinary values and values at the bounds still pass validation.
    await expect(client.getChangeRequestById({ spaceId, changeRequestId: LONGEST_ID })).rejects.toMatchObject(
      {
        code: "not_found",
      },
    );
    expect((await client.listChangeRequestsForSpace({ spaceId, creator: LONGEST_ID })).count).toBe(0);
    const longest = descriptionOf(MAX_DESCRIPTION_JSON_LENGTH);
    const described = await client.updateChangeRequestById({ ...ids, body: { description: longest } });
    expect(described.description).toEqual(longest);
  });
});
