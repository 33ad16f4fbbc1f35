import type { WriteTransaction } from "../storage/port.js";
import type { StoredRecord } from "../storage/port.js";
import { tables } from "../tables.js";

/**
 * Removes what belongs to one space alone: its revisions, change requests, comments with their
 * replies, and commenters. Page and file versions and blobs are not removed: duplicates and
 * templates share them with other spaces, and nothing collects unreferenced ones yet.
 */
export async function removeSpaceData(tx: WriteTransaction, space: string): Promise<void> {
  const all = (table: string, index: string) => tx.list<StoredRecord>(table, { index, where: [space] });
  for (const comment of await all(tables.comments.name, "byScope")) {
    const replies = await tx.list<StoredRecord>(tables.commentReplies.name, {
      index: "byComment",
      where: [comment.id as string],
    });
    for (const reply of replies) await tx.delete(tables.commentReplies.name, reply.id as string);
    await tx.delete(tables.comments.name, comment.id as string);
  }
  for (const commenter of await all(tables.commenters.name, "byScope")) {
    await tx.delete(tables.commenters.name, commenter.key as string);
  }
  for (const changeRequest of await all(tables.changeRequests.name, "bySpaceNumber")) {
    await tx.delete(tables.changeRequests.name, changeRequest.id as string);
  }
  for (const revision of await all(tables.revisions.name, "bySpace")) {
    await tx.delete(tables.revisions.name, revision.id as string);
  }
}
