import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { expectRefusedUnchanged, LONG_ID, LONGEST_ID } from "../../../test/support/limits.js";

/** Input limits of the comment operations, on both threads (docs/api.md, "Limits"). */
describe("comments: input limits", () => {
  it("bounds targets, filters, ids, bodies and reactions in spaces and change requests", async () => {
    const { api, space } = await createWorkspace();
    const spaceId = await space({ title: "Docs" });
    const cr = (await api("POST", `/spaces/${spaceId}/change-requests`, { subject: "Edit" })).body;
    for (const thread of [`/spaces/${spaceId}`, `/spaces/${spaceId}/change-requests/${cr.id}`]) {
      const body = { markdown: "Hello" };
      const comment = (await api("POST", `${thread}/comments`, { body })).body;
      const reply = (await api("POST", `${thread}/comments/${comment.id}/replies`, { body })).body;
      const observe = async () => ({
        comments: (await api("GET", `${thread}/comments`)).body,
        replies: (await api("GET", `${thread}/comments/${comment.id}/replies`)).body,
      });
      const authors = Array.from({ length: 101 }, (_, i) => `authors=u${i}`).join("&");
      await expectRefusedUnchanged(observe, [
        [() => api("POST", `${thread}/comments`, { body, node: "n".repeat(1_000_000) }), "body.node"],
        [() => api("POST", `${thread}/comments`, { body, node: LONG_ID }), "body.node"],
        [() => api("POST", `${thread}/comments`, { body, page: LONG_ID }), "body.page"],
        [
          () => api("POST", `${thread}/comments`, { body, tableCell: { record: LONG_ID, definition: "d" } }),
          "body.tableCell.record",
        ],
        [
          () => api("POST", `${thread}/comments`, { body, tableCell: { record: "r", definition: LONG_ID } }),
          "body.tableCell.definition",
        ],
        [
          () => api("POST", `${thread}/comments`, { body: { markdown: "m".repeat(100_001) } }),
          "body.body.markdown",
        ],
        [
          () => api("PUT", `${thread}/comments/${comment.id}`, { addedReactions: ["e".repeat(51)] }),
          "body.addedReactions.0",
        ],
        [() => api("PUT", `${thread}/comments/${LONG_ID}`, { resolved: true }), "path.commentId"],
        [
          () => api("PUT", `${thread}/comments/${comment.id}/replies/${LONG_ID}`, { body }),
          "path.commentReplyId",
        ],
        [() => api("GET", `${thread}/comments?targetPage=${LONG_ID}`), "query.targetPage"],
        [() => api("GET", `${thread}/comments?authors=${LONG_ID}`), "query.authors"],
        [() => api("GET", `${thread}/comments?${authors}`), "query.authors"],
        [() => api("GET", `${thread}/comments?page=${"p".repeat(8193)}`), "query.page"],
      ]);

      // Ordinary values and values at the bounds still pass validation.
      const targeted = await api("POST", `${thread}/comments`, {
        body,
        node: LONGEST_ID,
        tableCell: { record: LONGEST_ID, definition: LONGEST_ID },
      });
      expect(targeted.status).toBe(200);
      expect(targeted.body.target).toMatchObject({
        node: { id: LONGEST_ID },
        tableCell: { record: LONGEST_ID },
      });
      expect((await api("GET", `${thread}/comments/${LONGEST_ID}`)).status).toBe(404);
      const filtered = await api("GET", `${thread}/comments?authors=${LONGEST_ID}&authors=u1`);
      expect(filtered.status).toBe(200);
      expect(filtered.body.count).toBe(0);
      expect((await api("GET", `${thread}/comments/${comment.id}/replies/${reply.id}`)).status).toBe(200);
    }
  });
});
