import { nextSequence } from "../shared/sequence.js";
import type { World } from "../shared/world.js";
import type { ReadTransaction, WriteTransaction } from "../storage/port.js";
import { type ChangeRequestRecord, type ChangeRequestStatus, changeRequestsTable } from "./tables.js";
import { type SpaceRecord, spacesTable } from "../spaces/tables.js";

/**
 * Storage helpers of change requests: numbering and the space counters.
 */

/** The next number in a space: one more than the greatest so far (numbers are never reused). */
export async function nextNumber(tx: ReadTransaction, space: string): Promise<number> {
  const [last] = await tx.list(changeRequestsTable, {
    index: "bySpaceNumber",
    where: [space],
    reverse: true,
    limit: 1,
  });
  return (last?.number ?? 0) + 1;
}

type Counters = SpaceRecord["counters"];

const STATUS_COUNTER: Partial<Record<ChangeRequestStatus, keyof Counters>> = {
  open: "changeRequestsOpen",
  draft: "changeRequestsDraft",
};

/**
 * The space's counters after a change request moves from status `from` (undefined: it is new) to
 * `to`: `changeRequests` counts them all, `changeRequestsOpen` and `changeRequestsDraft` those in
 * that status. Written in the same transaction as the change request, so they stay exact.
 */
export function countersAfter(
  counters: Counters,
  from: ChangeRequestStatus | undefined,
  to: ChangeRequestStatus,
): Counters {
  const next = { ...counters };
  if (from === undefined) next.changeRequests += 1;
  const left = from && STATUS_COUNTER[from];
  const entered = STATUS_COUNTER[to];
  if (left && from !== to) next[left] = Math.max(0, next[left] - 1);
  if (entered && from !== to) next[entered] += 1;
  return next;
}

/**
 * Stores `record` (new when `previous` is undefined) and the space with its counters updated,
 * plus any `spaceChanges` (a merge moves the space's revision in the same write).
 */
export async function saveChangeRequest(
  tx: WriteTransaction,
  space: SpaceRecord,
  record: ChangeRequestRecord,
  previous: ChangeRequestRecord | undefined,
  spaceChanges: Partial<Pick<SpaceRecord, "revision" | "updatedAt">> = {},
): Promise<SpaceRecord> {
  await tx.put(changeRequestsTable, record);
  const counters = countersAfter(space.counters, previous?.status, record.status);
  const changed = JSON.stringify(counters) !== JSON.stringify(space.counters);
  if (!changed && Object.keys(spaceChanges).length === 0) return space;
  const updated: SpaceRecord = { ...space, ...spaceChanges, counters };
  await tx.put(spacesTable, updated);
  return updated;
}

/**
 * A new change request of `space` by `createdBy`, opened from the revision `revisionInitial` (its
 * head is `revision`), numbered next in the space. Stored by {@link saveChangeRequest}.
 */
export async function newChangeRequest(
  tx: WriteTransaction,
  world: Pick<World, "ids" | "clock">,
  space: SpaceRecord,
  fields: Pick<
    ChangeRequestRecord,
    "status" | "subject" | "createdBy" | "revision" | "revisionInitial" | "contributors"
  >,
): Promise<ChangeRequestRecord> {
  const now = world.clock().toISOString();
  return {
    id: world.ids(),
    space: space.id,
    organization: space.organization,
    number: await nextNumber(tx, space.id),
    // Ordered across the organization (listChangeRequestsForOrganization).
    seq: await nextSequence(tx, space.organization),
    ...fields,
    createdAt: now,
    updatedAt: now,
    comments: 0,
  };
}
