import { defineModule } from "../module.js";
import { commentOperations } from "./operations.js";
import { commentersTable, commentRepliesTable, commentsTable } from "./tables.js";

/**
 * Comments and replies on spaces and change requests. Purging a space removes its comments (of the
 * space and of its change requests), their replies and its commenters.
 */
export const commentsModule = defineModule({
  name: "comments",
  tables: [commentsTable, commentRepliesTable, commentersTable],
  operations: commentOperations,
  hooks: {
    async purgeSpace(tx, _world, space) {
      for (const comment of await tx.list(commentsTable, { index: "byScope", where: [space.id] })) {
        const replies = await tx.list(commentRepliesTable, { index: "byComment", where: [comment.id] });
        for (const reply of replies) await tx.delete(commentRepliesTable, reply.id);
        await tx.delete(commentsTable, comment.id);
      }
      for (const commenter of await tx.list(commentersTable, { index: "byScope", where: [space.id] })) {
        await tx.delete(commentersTable, commenter.key);
      }
    },
  },
});
