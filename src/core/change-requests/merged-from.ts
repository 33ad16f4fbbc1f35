import type { RevisionRecord } from "../content-tree/tables.js";
import type { Context, World } from "../shared/world.js";
import type { SpaceRecord } from "../spaces/tables.js";
import type { ReadTransaction } from "../storage/port.js";
import { presentChangeRequest } from "./present.js";
import type { ChangeRequest } from "./schemas.js";
import { type ChangeRequestRecord, changeRequestsTable } from "./tables.js";

/** What the cache remembers of a merge written before revisions recorded their change request. */
interface FoundMerge {
  readonly changeRequest: string | undefined;
}

/**
 * The change request a merge revision merged: the one it records (`changeRequest`); for a merge
 * written before revisions recorded it, the merged change request of the space whose
 * `revisionMerged` it is, found by reading the space's merged change requests once per instance
 * (a revision never changes: the answer is kept in the cache of derived data, so a revision read
 * does not repeat the scan). Undefined for other revisions and for a replica's local rebases.
 */
export async function mergedFrom(
  tx: ReadTransaction,
  world: Pick<World, "cache">,
  record: RevisionRecord,
): Promise<ChangeRequestRecord | undefined> {
  if (record.type !== "merge") return undefined;
  const id = record.changeRequest ?? (await legacyMerge(tx, world, record));
  if (id === undefined) return undefined;
  const recorded = await tx.get(changeRequestsTable, id);
  return recorded?.space === record.space ? recorded : undefined;
}

/**
 * The id of the change request a merge written before revisions recorded it merged: the merged
 * change request of its space whose `revisionMerged` it is, scanned once and then remembered.
 */
async function legacyMerge(
  tx: ReadTransaction,
  world: Pick<World, "cache">,
  record: RevisionRecord,
): Promise<string | undefined> {
  const memoKey = `merged-from:${record.id}`;
  const memo = world.cache.get(memoKey) as FoundMerge | undefined;
  if (memo) return memo.changeRequest;
  const merged = await tx.list(changeRequestsTable, {
    index: "bySpaceStatus",
    where: [record.space, "merged"],
  });
  const id = merged.find((changeRequest) => changeRequest.revisionMerged === record.id)?.id;
  world.cache.set(memoKey, { changeRequest: id } satisfies FoundMerge, 2 * memoKey.length + 128);
  return id;
}

/**
 * The `mergedFrom` a revision read answers: the merged change request as `getChangeRequestById`
 * presents it, for a caller who reads change requests; nothing for a lookup's reader token, which
 * reads none, nor for a revision that merged no change request.
 */
export async function presentedMergedFrom(
  scope: Context & { readonly tx: ReadTransaction },
  record: RevisionRecord,
  space: SpaceRecord,
): Promise<ChangeRequest | undefined> {
  if (scope.caller?.scope) return undefined;
  const merged = await mergedFrom(scope.tx, scope, record);
  return merged && presentChangeRequest(scope.tx, scope, merged, space);
}
