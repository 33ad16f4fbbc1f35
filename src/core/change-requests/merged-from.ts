import type { RevisionRecord } from "../content-tree/tables.js";
import type { Context } from "../shared/world.js";
import type { SpaceRecord } from "../spaces/tables.js";
import type { ReadTransaction } from "../storage/port.js";
import { presentChangeRequest } from "./present.js";
import type { ChangeRequest } from "./schemas.js";
import { type ChangeRequestRecord, changeRequestsTable } from "./tables.js";

/**
 * The change request a merge revision merged: the one it records (`changeRequest`); for a merge
 * written before revisions recorded it, the merged change request of the space whose
 * `revisionMerged` it is. Undefined for other revisions and for a replica's local rebases.
 */
export async function mergedFrom(
  tx: ReadTransaction,
  record: RevisionRecord,
): Promise<ChangeRequestRecord | undefined> {
  if (record.type !== "merge") return undefined;
  if (record.changeRequest !== undefined) {
    const recorded = await tx.get(changeRequestsTable, record.changeRequest);
    return recorded?.space === record.space ? recorded : undefined;
  }
  const merged = await tx.list(changeRequestsTable, {
    index: "bySpaceStatus",
    where: [record.space, "merged"],
  });
  return merged.find((changeRequest) => changeRequest.revisionMerged === record.id);
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
  const merged = await mergedFrom(scope.tx, record);
  return merged && presentChangeRequest(scope.tx, scope, merged, space);
}
