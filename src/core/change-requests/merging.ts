import { onChangeRequest } from "../content/access.js";
import { mergeContents, type MergeConflict } from "../content/merge.js";
import { commitRevision, requireRevision } from "../content/revisions.js";
import { defineOperation } from "../registry.js";
import { conflict } from "../shared/errors.js";
import { saveChangeRequest } from "./records.js";
import { ancestorOf, changeRequestParams, mergeOutcomeSchema } from "./schemas.js";
import { type ChangeRequestRecord, changeRequestsTable } from "./tables.js";

/**
 * Update (pull the space's content into a change request) and merge (push a change request into
 * its space), both three-way merges against the change request's ancestor: the space revision it
 * was created from or last updated from (content/merge.ts).
 *
 * Both answer 200 `{revision, result}`. Edits that collide are not an error (DESIGN.md, "Errors
 * and bad input"): they answer `result: "conflicts"` with `conflicts: [{page | file, reason}]`, and
 * nothing changes. A merged or archived change request can be neither updated nor merged (409).
 */

type Outcome<R extends "update" | "merge"> = {
  revision: string;
  result: R | "conflicts";
  conflicts?: MergeConflict[];
};

function requireActive(changeRequest: ChangeRequestRecord, action: string): void {
  if (changeRequest.status === "merged" || changeRequest.status === "archived") {
    throw conflict(
      `Change request #${changeRequest.number} is ${changeRequest.status}: it cannot be ${action}`,
    );
  }
}

export const updateChangeRequest = defineOperation({
  id: "updateChangeRequest",
  method: "post",
  path: "/spaces/{spaceId}/change-requests/{changeRequestId}/update",
  tag: "change-requests",
  summary: "Bring the space's latest content into the change request (three-way merge)",
  params: changeRequestParams,
  access: onChangeRequest("edit"),
  response: mergeOutcomeSchema("update"),
  async run(scope): Promise<Outcome<"update">> {
    const { tx, space, changeRequest } = scope;
    requireActive(changeRequest, "updated");
    // Nothing new in the space since the last update: already up to date.
    if (space.revision === ancestorOf(changeRequest))
      return { revision: changeRequest.revision, result: "update" };
    const base = await requireRevision(tx, scope, ancestorOf(changeRequest));
    const ours = await requireRevision(tx, scope, changeRequest.revision);
    const theirs = await requireRevision(tx, scope, space.revision);
    const { changes, conflicts } = mergeContents(base, ours, theirs, scope);
    if (conflicts.length > 0) return { revision: changeRequest.revision, result: "conflicts", conflicts };
    const next = await commitRevision(tx, scope, {
      space: space.id,
      base: ours,
      otherParents: [theirs.record.id],
      type: "update",
      changes,
    });
    const updated: ChangeRequestRecord = {
      ...changeRequest,
      revision: next.record.id,
      revisionMergedAncestor: theirs.record.id,
      updatedAt: scope.clock().toISOString(),
    };
    await tx.put(changeRequestsTable, updated);
    return { revision: next.record.id, result: "update" };
  },
});

export const mergeChangeRequest = defineOperation({
  id: "mergeChangeRequest",
  method: "post",
  path: "/spaces/{spaceId}/change-requests/{changeRequestId}/merge",
  tag: "change-requests",
  summary: "Merge the change request into the space's content (three-way merge)",
  params: changeRequestParams,
  access: onChangeRequest("merge"),
  response: mergeOutcomeSchema("merge"),
  async run(scope): Promise<Outcome<"merge">> {
    const { tx, space, changeRequest } = scope;
    requireActive(changeRequest, "merged");
    const base = await requireRevision(tx, scope, ancestorOf(changeRequest));
    const ours = await requireRevision(tx, scope, space.revision);
    const theirs = await requireRevision(tx, scope, changeRequest.revision);
    const { changes, conflicts } = mergeContents(base, ours, theirs, scope);
    if (conflicts.length > 0) return { revision: space.revision, result: "conflicts", conflicts };
    const next = await commitRevision(tx, scope, {
      space: space.id,
      base: ours,
      otherParents: [theirs.record.id],
      type: "merge",
      changes,
    });
    const now = scope.clock().toISOString();
    const merged: ChangeRequestRecord = {
      ...changeRequest,
      status: "merged",
      revisionMerged: next.record.id,
      updatedAt: now,
    };
    await saveChangeRequest(tx, space, merged, changeRequest, { revision: next.record.id, updatedAt: now });
    return { revision: next.record.id, result: "merge" };
  },
});

export const mergeOperations = { updateChangeRequest, mergeChangeRequest };
