import { requireCreateAt, requirePermission } from "../collections/permissions.js";
import type { JobHandler } from "../jobs.js";
import { defineOperation, deleted } from "../registry.js";
import { conflict, notFound } from "../shared/errors.js";
import { endPosition, itemOf, positionAfter } from "../shared/positions.js";
import { requireRevision } from "../content/revisions.js";
import { tables, type CollectionRecord, type SpaceRecord } from "../tables.js";
import { findSpace, presentSpace, requireSpace, spacePermissions } from "./permissions.js";
import { removeSpaceData } from "./purge.js";
import { insertSpace, SPACE_RETENTION_MS, softDeleteSpace, visibilityUnder } from "./records.js";
import { spaceParams, spaceSchema } from "./schemas.js";

/**
 * A space's life after creation (SPEC.md, "States and transitions"): DELETE marks it deleted and
 * schedules its permanent removal 7 days later; within those 7 days (by the injected clock) it can
 * be restored; afterwards it is gone for every operation, whether or not the removal job has run.
 */

const tag = "spaces";

export const deleteSpaceById = defineOperation({
  id: "deleteSpaceById",
  method: "delete",
  path: "/spaces/{spaceId}",
  tag,
  summary: "Delete a space (admin on it); restorable for 7 days, then permanently removed",
  params: spaceParams,
  emptyStatuses: [204, 205],
  async run(context, { params }) {
    return context.storage.write(async (tx) => {
      const access = await findSpace(tx, context, params.spaceId);
      // A space already deleted, or never there: nothing to delete.
      if (!access) return deleted(false);
      requirePermission(spacePermissions(access.role, access.space), "admin", "Deleting a space");
      await softDeleteSpace(tx, context, access.space);
      return deleted(true);
    });
  },
});

export const restoreSpace = defineOperation({
  id: "restoreSpace",
  method: "post",
  path: "/spaces/{spaceId}/restore",
  tag,
  summary: "Restore a space deleted in the last 7 days (admin on it)",
  params: spaceParams,
  response: spaceSchema,
  async run(context, { params }) {
    return context.storage.write(async (tx) => {
      const access = await findSpace(tx, context, params.spaceId, { includeDeleted: true });
      const now = context.clock();
      const expired =
        access?.space.state === "deleted" &&
        now.getTime() >= Date.parse(access.space.deletedAt ?? "") + SPACE_RETENTION_MS;
      if (!access || expired) throw notFound(`Space "${params.spaceId}" not found`);
      const { space, membership, role } = access;
      requirePermission(spacePermissions(role, space), "admin", "Restoring a space");
      if (space.state !== "deleted") throw conflict(`Space "${space.id}" is not deleted`);

      const { deletedAt: _, ...rest } = space;
      const restored: SpaceRecord = { ...rest, state: "live", updatedAt: now.toISOString() };
      // Deleting a collection deletes its spaces: such a space comes back last at the root.
      if (space.parent && !(await tx.get<CollectionRecord>(tables.collections.name, space.parent))) {
        restored.parent = "";
        restored.visibility = visibilityUnder("", space.visibility);
        restored.position = await endPosition(tx, space.organization);
      }
      await tx.put(tables.spaces.name, restored);
      return presentSpace(tx, context, membership, restored);
    });
  },
});

export const duplicateSpace = defineOperation({
  id: "duplicateSpace",
  method: "post",
  path: "/spaces/{spaceId}/duplicate",
  tag,
  summary: "Duplicate a space right after it (read on it, create at its place)",
  params: spaceParams,
  response: spaceSchema,
  status: 201,
  async run(context, { params }) {
    return context.storage.write(async (tx) => {
      const { space, membership } = await requireSpace(tx, context, params.spaceId);
      await requireCreateAt(tx, membership, space.parent, "Duplicating a space");
      const copy = await insertSpace(
        tx,
        context,
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
        await requireRevision(tx, context, space.revision),
      );
      return presentSpace(tx, context, membership, copy);
    });
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
 * (revisions, change requests, comments; see removeSpaceData), unless it was
 * restored since (or restored and deleted again: then a later job, with the new `deletedAt`,
 * removes it).
 */
export const purgeDeletedSpace: JobHandler = async (tx, _world, payload) => {
  const space = await tx.get<SpaceRecord>(tables.spaces.name, String(payload["space"]));
  if (!space || space.state !== "deleted" || space.deletedAt !== payload["deletedAt"]) return;
  await removeSpaceData(tx, space.id);
  await tx.delete(tables.spaces.name, space.id);
};
