import { scheduleJob } from "../jobs/index.js";
import type { WriteTransaction } from "../storage/port.js";
import { commitRevision, type Revision } from "../content-tree/revisions.js";
import type { World } from "../shared/world.js";
import { type SpaceRecord, spacesTable } from "./tables.js";

/** How long a deleted space stays restorable before it is permanently removed, 7 days as the API defines. */
export const SPACE_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Whether a deleted space can still be restored at `now`: within {@link SPACE_RETENTION_MS} of its
 * deletion. Past it the space is gone for every operation, whether or not the purge job has run.
 */
export function isRestorable(space: Pick<SpaceRecord, "deletedAt">, now: Date): boolean {
  return now.getTime() < Date.parse(space.deletedAt ?? "") + SPACE_RETENTION_MS;
}

/**
 * The visibility a space gets under `parent`: `in-collection` (whoever can access the collection)
 * exists only inside a collection, and `private` is its counterpart at the root. Other
 * visibilities (public, unlisted...) are explicit choices and survive moves.
 */
export function visibilityUnder(
  parent: string,
  current?: SpaceRecord["visibility"],
): SpaceRecord["visibility"] {
  if (parent) return !current || current === "private" ? "in-collection" : current;
  return !current || current === "in-collection" ? "private" : current;
}

/** The fields a new space takes from its creator or its source; the rest are set here. */
export type NewSpace = Pick<
  SpaceRecord,
  "organization" | "parent" | "position" | "title" | "emoji" | "visibility" | "editMode" | "defaultLevel"
> &
  Partial<Pick<SpaceRecord, "language" | "mergeRules">>;

/**
 * Stores a new live space with its first revision: empty, or sharing the content of `source` (a
 * duplicate), whose revision then becomes the parent of the new one.
 */
export async function insertSpace(
  tx: WriteTransaction,
  world: World,
  fields: NewSpace,
  source?: Revision,
): Promise<SpaceRecord> {
  const id = world.ids();
  const { record: revision } = await commitRevision(tx, world, {
    space: id,
    base: null,
    otherParents: source ? [source.record.id] : [],
    ...(source ? { startFrom: source } : {}),
    changes: {},
  });
  const space = newSpaceRecord(world, id, fields, revision.id);
  await tx.put(spacesTable, space);
  return space;
}

/**
 * The record of a new live space `id` at `revision` (already written): what {@link insertSpace}
 * stores, and a replica's local copy of a remote space (src/sync).
 */
export function newSpaceRecord(
  world: Pick<World, "clock">,
  id: string,
  fields: NewSpace,
  revision: string,
): SpaceRecord {
  const now = world.clock().toISOString();
  const { language, mergeRules, ...rest } = fields;
  return {
    ...rest,
    id,
    state: "live",
    ...(language ? { language } : {}),
    mergeRules: mergeRules ?? { type: "inherit" },
    revision,
    createdAt: now,
    updatedAt: now,
    counters: { comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 },
  };
}

/** The job type of the permanent removal of a deleted space. */
export const PURGE_SPACE_JOB = "purgeSpace";

/**
 * Marks a live space deleted and schedules its permanent removal at the end of the retention
 * window. The job carries `deletedAt`, so a space restored then deleted again is only removed by
 * the job of its latest deletion.
 */
export async function softDeleteSpace(tx: WriteTransaction, world: World, space: SpaceRecord): Promise<void> {
  const now = world.clock();
  const deletedAt = now.toISOString();
  await tx.put(spacesTable, { ...space, state: "deleted", deletedAt, updatedAt: deletedAt });
  await scheduleJob(
    tx,
    world,
    space.organization,
    PURGE_SPACE_JOB,
    new Date(now.getTime() + SPACE_RETENTION_MS),
    {
      space: space.id,
      deletedAt,
    },
  );
}
