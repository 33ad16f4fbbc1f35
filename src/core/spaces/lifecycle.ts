import { requireCreateAt } from "../collections/permissions.js";
import { collectionsTable } from "../collections/tables.js";
import { requireRevision } from "../content-tree/revisions.js";
import type { JobHandler } from "../jobs/index.js";
import { defineOperation, deleted } from "../registry.js";
import { conflict } from "../shared/errors.js";
import { endPosition, itemOf, positionAfter } from "../shared/positions.js";
import { onSpace, onSpaceIfPresent } from "./access.js";
import { insertSpace, softDeleteSpace, visibilityUnder } from "./records.js";
import { spaceParams, spaceSchema } from "./schemas.js";
import { type SpaceRecord, spacesTable } from "./tables.js";
import { presentSpace } from "./present.js";

/**
 * A space's life after creation: DELETE marks it deleted and
 * schedules its permanent removal 7 days later; within those 7 days (by the injected clock) it can
 * be restored; afterwards it is gone for every operation, whether or not the removal job has run.
 */

const tag = "spaces";

export const deleteSpaceById = defineOperation({
  id: "deleteSpaceById",
  method: "delete",
  path: "/spaces/{spaceId}",
  tag,
  summary: "Delete a space; restorable for 7 days, then permanently removed",
  params: spaceParams,
  // A space already deleted, or never there: nothing to delete (204). Hidden: 404.
  access: onSpaceIfPresent("admin"),
  emptyStatuses: [204, 205],
  async run(scope) {
    if (!scope.space) return deleted(false);
    await softDeleteSpace(scope.tx, scope, scope.space);
    return deleted(true);
  },
});

export const restoreSpace = defineOperation({
  id: "restoreSpace",
  method: "post",
  path: "/spaces/{spaceId}/restore",
  tag,
  summary: "Restore a space deleted in the last 7 days",
  params: spaceParams,
  // A space past its 7 days answers 404 here too (see `findSpace`).
  access: onSpace("admin", { includeDeleted: true }),
  response: spaceSchema,
  async run(scope) {
    const { tx, space, membership } = scope;
    if (space.state !== "deleted") throw conflict(`Space "${space.id}" is not deleted`);
    const { deletedAt: _, ...rest } = space;
    const restored: SpaceRecord = { ...rest, state: "live", updatedAt: scope.clock().toISOString() };
    // Deleting a collection deletes its spaces: such a space comes back last at the root.
    if (space.parent && !(await tx.get(collectionsTable, space.parent))) {
      restored.parent = "";
      restored.visibility = visibilityUnder("", space.visibility);
      restored.position = await endPosition(tx, space.organization);
    }
    await tx.put(spacesTable, restored);
    return presentSpace(tx, scope, membership, restored);
  },
});

export const duplicateSpace = defineOperation({
  id: "duplicateSpace",
  method: "post",
  path: "/spaces/{spaceId}/duplicate",
  tag,
  summary: "Duplicate a space right after it (create role at its place)",
  params: spaceParams,
  access: onSpace("view"),
  response: spaceSchema,
  status: 201,
  async run(scope) {
    const { tx, space, membership } = scope;
    await requireCreateAt(tx, membership, space.parent, "Duplicating a space");
    const copy = await insertSpace(
      tx,
      scope,
      {
        organization: space.organization,
        parent: space.parent,
        position: await positionAfter(tx, space.organization, itemOf("space", space)),
        title: truncate(`${space.title} (copy)`, 50),
        emoji: space.emoji,
        visibility: space.visibility,
        editMode: space.editMode,
        defaultLevel: space.defaultLevel,
        mergeRules: space.mergeRules,
        ...(space.language ? { language: space.language } : {}),
      },
      // The copy shares the source's content; its first revision descends from the source's.
      await requireRevision(tx, scope, space.revision),
    );
    return presentSpace(tx, scope, membership, copy);
  },
});

/** Cuts `text` to `max` UTF-16 units without splitting a surrogate pair. */
function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * The `purgeSpace` job: permanently removes a deleted space and what belongs to it alone
 * (revisions, change requests, comments: every module's `purgeSpace` hook), unless it was
 * restored since (or restored and deleted again: then a later job, with the new `deletedAt`,
 * removes it). The check and the removal share one transaction, so a second run finds nothing to
 * do: the handler is idempotent, as jobs must be.
 */
export const purgeDeletedSpace: JobHandler = (world, payload) =>
  world.storage.write(async (tx) => {
    const space = await tx.get(spacesTable, String(payload["space"]));
    if (!space || space.state !== "deleted" || space.deletedAt !== payload["deletedAt"]) return;
    await world.lifecycle.purgeSpace(tx, space);
    await tx.delete(spacesTable, space.id);
  });
