import { onChangeRequest } from "../content/access.js";
import type { MergeConflict, MergeResolutions } from "../content-tree/merge.js";
import { mergeRevisions } from "../content-tree/merge-revisions.js";
import { recordRevision, requireRevision } from "../content-tree/revisions.js";
import { defineOperation } from "../registry.js";
import { conflict } from "../shared/errors.js";
import type { World } from "../shared/world.js";
import type { WriteTransaction } from "../storage/port.js";
import { requireMergeRules } from "./merge-rules.js";
import { saveChangeRequest } from "./records.js";
import { ancestorOf, changeRequestParams, mergeOutcomeSchema, updateResolutionsBody } from "./schemas.js";
import { type ChangeRequestRecord, changeRequestsTable } from "./tables.js";

/**
 * Update (pull the space's content into a change request) and merge (push a change request into
 * its space), both three-way merges against the change request's ancestor: the space revision it
 * was created from or last updated from (content-tree/merge.ts).
 *
 * Both answer 200 `{revision, result}`. Edits that collide are not an error (the
 * caller asked for nothing invalid): they answer `result: "conflicts"` with `conflicts: [{page | file, reason}]`, and
 * nothing changes. A merged or archived change request can be neither updated nor merged (409).
 * A merge must also satisfy the space's merge rules (merge-rules.ts), or it answers 403.
 *
 * An update may resolve conflicts (`body.resolutions`, a docsbase extension of the reference
 * operation, whose official client sends no body): a colliding page or file named there takes the
 * change request's or the space's version whole, the tree checks run on the result, and the update
 * commits as a clean one does once nothing collides, so the next merge is clean.
 */

/** The body's resolutions in the merge's terms: the change request is `ours`, the space `theirs`. */
function sidesOf(resolutions: Record<string, "changeRequest" | "space"> | undefined) {
  return new Map(
    Object.entries(resolutions ?? {}).map(
      ([id, side]) => [id, side === "changeRequest" ? "ours" : "theirs"] as const,
    ),
  );
}

type Outcome<R extends "update" | "merge"> = {
  revision: string;
  result: R | "conflicts";
  conflicts?: MergeConflict[];
};

/**
 * Merges `theirs` into `ours` against `base` and commits the result on top of `ours` (with
 * `theirs` as second parent); or, when edits collide, commits nothing and returns the conflicts.
 * A merge records the change request it merges (`changeRequest`), which
 * `getRevisionSemanticChanges` shows as `mergedFrom`.
 */
async function threeWayCommit(
  scope: World & { readonly tx: WriteTransaction },
  changeRequest: ChangeRequestRecord,
  revisions: { readonly base: string; readonly ours: string; readonly theirs: string },
  type: "update" | "merge",
  resolutions: MergeResolutions = {},
): Promise<{ revision: string } | { conflicts: MergeConflict[] }> {
  const { tx } = scope;
  const [base, ours, theirs] = await Promise.all([
    requireRevision(tx, scope, revisions.base),
    requireRevision(tx, scope, revisions.ours),
    requireRevision(tx, scope, revisions.theirs),
  ]);
  // Reads and writes only what both sides changed (content-tree/merge-revisions.ts).
  const merged = await mergeRevisions(tx, scope, base, ours, theirs, resolutions);
  if ("conflicts" in merged) return merged;
  const next = await recordRevision(tx, scope, {
    space: changeRequest.space,
    parents: [ours.id, theirs.id],
    type,
    ...(type === "merge" ? { changeRequest: changeRequest.id } : {}),
    tree: merged.tree,
  });
  return { revision: next.id };
}

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
  body: updateResolutionsBody,
  response: mergeOutcomeSchema("update"),
  async run(scope, { body }): Promise<Outcome<"update">> {
    const { tx, space, changeRequest } = scope;
    requireActive(changeRequest, "updated");
    // Nothing new in the space since the last update: already up to date.
    if (space.revision === ancestorOf(changeRequest))
      return { revision: changeRequest.revision, result: "update" };
    const merged = await threeWayCommit(
      scope,
      changeRequest,
      { base: ancestorOf(changeRequest), ours: changeRequest.revision, theirs: space.revision },
      "update",
      { pages: sidesOf(body?.resolutions?.pages), files: sidesOf(body?.resolutions?.files) },
    );
    if ("conflicts" in merged) {
      return { revision: changeRequest.revision, result: "conflicts", conflicts: merged.conflicts };
    }
    const updated: ChangeRequestRecord = {
      ...changeRequest,
      revision: merged.revision,
      revisionMergedAncestor: space.revision,
      updatedAt: scope.clock().toISOString(),
    };
    await tx.put(changeRequestsTable, updated);
    return { revision: merged.revision, result: "update" };
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
    // Before anything is written: a refused merge changes nothing.
    await requireMergeRules(scope);
    const result = await threeWayCommit(
      scope,
      changeRequest,
      { base: ancestorOf(changeRequest), ours: space.revision, theirs: changeRequest.revision },
      "merge",
    );
    if ("conflicts" in result)
      return { revision: space.revision, result: "conflicts", conflicts: result.conflicts };
    const now = scope.clock().toISOString();
    const merged: ChangeRequestRecord = {
      ...changeRequest,
      status: "merged",
      revisionMerged: result.revision,
      updatedAt: now,
    };
    await saveChangeRequest(tx, space, merged, changeRequest, { revision: result.revision, updatedAt: now });
    return { revision: result.revision, result: "merge" };
  },
});

export const mergeOperations = { updateChangeRequest, mergeChangeRequest };
