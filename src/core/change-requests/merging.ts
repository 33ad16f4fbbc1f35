import { onChangeRequest } from "../content/access.js";
import { mergeContents, type MergeConflict, type MergeInput } from "../content/merge.js";
import { commitRevision, diffRevisions, requireRevision } from "../content/revisions.js";
import { defineOperation } from "../registry.js";
import { conflict } from "../shared/errors.js";
import type { World } from "../shared/world.js";
import type { WriteTransaction } from "../storage/port.js";
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

/**
 * Merges `theirs` into `ours` against `base` and commits the result on top of `ours` (with
 * `theirs` as second parent); or, when edits collide, commits nothing and returns the conflicts.
 */
async function threeWayCommit(
  scope: World & { readonly tx: WriteTransaction },
  space: string,
  revisions: { readonly base: string; readonly ours: string; readonly theirs: string },
  type: "update" | "merge",
): Promise<{ revision: string } | { conflicts: MergeConflict[] }> {
  const { tx } = scope;
  const base = await requireRevision(tx, scope, revisions.base);
  const ours = await requireRevision(tx, scope, revisions.ours);
  const theirs = await requireRevision(tx, scope, revisions.theirs);
  // Only what changed on either side since `base` takes part, read from the trees that differ.
  const [oursDiff, theirsDiff] = await Promise.all([diffRevisions(base, ours), diffRevisions(base, theirs)]);
  const sides = { base: emptySide(), ours: emptySide(), theirs: emptySide() };
  for (const kind of ["pages", "files"] as const) {
    const keys = new Set([...oursDiff[kind].keys(), ...theirsDiff[kind].keys()]);
    for (const key of keys) {
      const mine = oursDiff[kind].get(key);
      const other = theirsDiff[kind].get(key);
      const before = (mine ?? other)?.before;
      const put = (side: MergeInput, version: typeof before) => {
        if (version) (side[kind] as Map<string, typeof version>).set(key, version);
      };
      put(sides.base, before);
      put(sides.ours, mine ? mine.after : before);
      put(sides.theirs, other ? other.after : before);
    }
  }
  const { changes, conflicts } = await mergeContents(sides.base, sides.ours, sides.theirs, scope, ours);
  if (conflicts.length > 0) return { conflicts };
  // Versions taken from `theirs` are stored; only versions the merge made are new.
  const stored = new Set<string>();
  for (const kind of ["pages", "files"] as const) {
    for (const side of theirsDiff[kind].values()) if (side.after) stored.add(side.after.id);
  }
  const next = await commitRevision(tx, scope, {
    space,
    base: ours,
    otherParents: [theirs.record.id],
    type,
    changes: { ...changes, stored },
  });
  return { revision: next.record.id };
}

const emptySide = (): MergeInput => ({ pages: new Map(), files: new Map() });

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
    const merged = await threeWayCommit(
      scope,
      space.id,
      { base: ancestorOf(changeRequest), ours: changeRequest.revision, theirs: space.revision },
      "update",
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
    const result = await threeWayCommit(
      scope,
      space.id,
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
