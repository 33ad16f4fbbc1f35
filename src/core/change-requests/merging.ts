import { requirePermission } from "../collections/permissions.js";
import { mergeContents, type MergeConflict } from "../content/merge.js";
import { commitRevision, requireRevision } from "../content/revisions.js";
import { requireChangeRequest } from "../content/target.js";
import { defineOperation } from "../registry.js";
import { conflict } from "../shared/errors.js";
import type { Context } from "../shared/world.js";
import { requireSpace, spacePermissions } from "../spaces/permissions.js";
import type { WriteTransaction } from "../storage/port.js";
import { tables, type ChangeRequestRecord } from "../tables.js";
import { saveChangeRequest } from "./records.js";
import { ancestorOf, changeRequestParams, mergeOutcomeSchema } from "./schemas.js";

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

async function open(
  tx: WriteTransaction,
  context: Context,
  params: { spaceId: string; changeRequestId: string },
) {
  const access = await requireSpace(tx, context, params.spaceId);
  const changeRequest = await requireChangeRequest(tx, access.space.id, params.changeRequestId);
  return { access, changeRequest, permissions: spacePermissions(access.role, access.space) };
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
  response: mergeOutcomeSchema("update"),
  async run(context, { params }): Promise<Outcome<"update">> {
    return context.storage.write(async (tx) => {
      const { access, changeRequest, permissions } = await open(tx, context, params);
      requirePermission(permissions, "edit", "Updating a change request");
      requireActive(changeRequest, "updated");
      const space = access.space;
      // Nothing new in the space since the last update: already up to date.
      if (space.revision === ancestorOf(changeRequest))
        return { revision: changeRequest.revision, result: "update" };
      const base = await requireRevision(tx, context, ancestorOf(changeRequest));
      const ours = await requireRevision(tx, context, changeRequest.revision);
      const theirs = await requireRevision(tx, context, space.revision);
      const { changes, conflicts } = mergeContents(base, ours, theirs, context);
      if (conflicts.length > 0) return { revision: changeRequest.revision, result: "conflicts", conflicts };
      const next = await commitRevision(tx, context, {
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
        updatedAt: context.clock().toISOString(),
      };
      await tx.put(tables.changeRequests.name, updated);
      return { revision: next.record.id, result: "update" };
    });
  },
});

export const mergeChangeRequest = defineOperation({
  id: "mergeChangeRequest",
  method: "post",
  path: "/spaces/{spaceId}/change-requests/{changeRequestId}/merge",
  tag: "change-requests",
  summary: "Merge the change request into the space's content (three-way merge)",
  params: changeRequestParams,
  response: mergeOutcomeSchema("merge"),
  async run(context, { params }): Promise<Outcome<"merge">> {
    return context.storage.write(async (tx) => {
      const { access, changeRequest, permissions } = await open(tx, context, params);
      requirePermission(permissions, "merge", "Merging a change request");
      requireActive(changeRequest, "merged");
      const space = access.space;
      const base = await requireRevision(tx, context, ancestorOf(changeRequest));
      const ours = await requireRevision(tx, context, space.revision);
      const theirs = await requireRevision(tx, context, changeRequest.revision);
      const { changes, conflicts } = mergeContents(base, ours, theirs, context);
      if (conflicts.length > 0) return { revision: space.revision, result: "conflicts", conflicts };
      const next = await commitRevision(tx, context, {
        space: space.id,
        base: ours,
        otherParents: [theirs.record.id],
        type: "merge",
        changes,
      });
      const now = context.clock().toISOString();
      const merged: ChangeRequestRecord = {
        ...changeRequest,
        status: "merged",
        revisionMerged: next.record.id,
        updatedAt: now,
      };
      await saveChangeRequest(tx, space, merged, changeRequest, { revision: next.record.id, updatedAt: now });
      return { revision: next.record.id, result: "merge" };
    });
  },
});

export const mergeOperations = { updateChangeRequest, mergeChangeRequest };
