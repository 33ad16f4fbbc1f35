import { describe, expect, it } from "vitest";
import { commentThread } from "../../../test/support/comment-threads.js";
import { createWorkspace } from "../../../test/support/workspace.js";
import { answerOf, expectRefusedUnchanged, LONG_ID, LONGEST_ID } from "../../../test/support/limits.js";

/** Input limits of the comment operations, on both threads (docs/api.md, "Limits"). */
describe("comments: input limits", () => {
  it("bounds targets, filters, ids, bodies and reactions in spaces and change requests", async () => {
    const { client, space } = await createWorkspace();
    const spaceId = await space({ title: "Docs" });
    const cr = await client.createChangeRequest({ spaceId, body: { subject: "Edit" } });
    for (const id of [{ spaceId }, { spaceId, changeRequestId: cr.id }]) {
      const thread = commentThread(client, id);
      const body = { markdown: "Hello" };
      const comment = await thread.post({ body });
      const reply = await thread.reply(comment.id, { body });
      const observe = async () => ({
        comments: await thread.list(),
        replies: await thread.replies(comment.id),
      });
      const authors = Array.from({ length: 101 }, (_, i) => `u${i}`);
      await expectRefusedUnchanged(observe, [
        [() => answerOf(thread.post({ body, node: "n".repeat(1_000_000) })), "body.node"],
        [() => answerOf(thread.post({ body, node: LONG_ID })), "body.node"],
        [() => answerOf(thread.post({ body, page: LONG_ID })), "body.page"],
        [
          () => answerOf(thread.post({ body, tableCell: { record: LONG_ID, definition: "d" } })),
          "body.tableCell.record",
        ],
        [
          () => answerOf(thread.post({ body, tableCell: { record: "r", definition: LONG_ID } })),
          "body.tableCell.definition",
        ],
        [() => answerOf(thread.post({ body: { markdown: "m".repeat(100_001) } })), "body.body.markdown"],
        [
          () => answerOf(thread.update(comment.id, { addedReactions: ["e".repeat(51)] })),
          "body.addedReactions.0",
        ],
        [() => answerOf(thread.update(LONG_ID, { resolved: true })), "path.commentId"],
        [() => answerOf(thread.updateReply(comment.id, LONG_ID, { body })), "path.commentReplyId"],
        [() => answerOf(thread.list({ targetPage: LONG_ID })), "query.targetPage"],
        [() => answerOf(thread.list({ authors: LONG_ID })), "query.authors"],
        [() => answerOf(thread.list({ authors })), "query.authors"],
        [() => answerOf(thread.list({ page: "p".repeat(8193) })), "query.page"],
      ]);

      // Ordinary values and values at the bounds still pass validation.
      const targeted = await thread.post({
        body,
        node: LONGEST_ID,
        tableCell: { record: LONGEST_ID, definition: LONGEST_ID },
      });
      expect(targeted.target).toMatchObject({
        node: { id: LONGEST_ID },
        tableCell: { record: LONGEST_ID },
      });
      await expect(thread.get(LONGEST_ID)).rejects.toMatchObject({ code: "not_found" });
      const filtered = await thread.list({ authors: [LONGEST_ID, "u1"] });
      expect(filtered.count).toBe(0);
      expect((await thread.getReply(comment.id, reply.id)).id).toBe(reply.id);
    }
  });
});
