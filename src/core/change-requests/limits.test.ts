import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { expectRefusedUnchanged, LONG_ID, LONGEST_ID } from "../../../test/support/limits.js";
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
    const { api, org, space } = await createWorkspace();
    const spaceId = await space({ title: "Docs" });
    const base = `/spaces/${spaceId}/change-requests`;
    const cr = (await api("POST", base, { subject: "Edit" })).body;
    const observe = async () => ({
      list: (await api("GET", `${base}?status=open`)).body,
      cr: (await api("GET", `${base}/${cr.id}`)).body,
      pages: (await api("GET", `${base}/${cr.id}/content`)).body,
    });
    await expectRefusedUnchanged(observe, [
      [() => api("GET", `${base}/${LONG_ID}`), "path.changeRequestId"],
      [() => api("PATCH", `${base}/${LONG_ID}`, { subject: "Renamed" }), "path.changeRequestId"],
      [() => api("POST", `${base}/${LONG_ID}/merge`), "path.changeRequestId"],
      [() => api("POST", `/spaces/${LONG_ID}/change-requests`, {}), "path.spaceId"],
      [() => api("POST", base, { template: { id: LONG_ID } }), "body.template.id"],
      [() => api("POST", base, { subject: "s".repeat(101) }), "body.subject"],
      [
        () =>
          api("PATCH", `${base}/${cr.id}`, { description: descriptionOf(MAX_DESCRIPTION_JSON_LENGTH + 1) }),
        "body.description",
      ],
      [() => api("GET", `${base}?creator=${LONG_ID}`), "query.creator"],
      [() => api("GET", `${base}?contributor=${LONG_ID}`), "query.contributor"],
      [
        () => api("GET", `/orgs/${org}/change-requests?requestedReviewer=${LONG_ID}`),
        "query.requestedReviewer",
      ],
      [
        () => api("GET", `/orgs/${org}/change-requests?conversationsIssuesCluster=${LONG_ID}`),
        "query.conversationsIssuesCluster",
      ],
      [() => api("GET", `${base}?page=${"p".repeat(8193)}`), "query.page"],
      [() => api("GET", `${base}/${cr.id}/pdf?page=${LONG_ID}`), "query.page"],
      [
        () => api("POST", `${base}/${cr.id}/content/pages`, { title: "Child", parent: LONG_ID }),
        "body.parent",
      ],
    ]);

    // Ordinary values and values at the bounds still pass validation.
    expect((await api("GET", `${base}/${LONGEST_ID}`)).status).toBe(404);
    expect((await api("GET", `${base}?creator=${LONGEST_ID}`)).body.count).toBe(0);
    const longest = descriptionOf(MAX_DESCRIPTION_JSON_LENGTH);
    const described = await api("PATCH", `${base}/${cr.id}`, { description: longest });
    expect(described.status).toBe(200);
    expect(described.body.description).toEqual(longest);
  });
});
