import { recordContribution } from "../change-requests/contributions.js";
import { type ChangeRequestRecord, changeRequestsTable } from "../change-requests/tables.js";
import { requireCaller } from "../permissions/membership.js";
import { conflict, notFound } from "../shared/errors.js";
import type { Context, World } from "../shared/world.js";
import { type SpaceRecord, spacesTable } from "../spaces/tables.js";
import type { ReadTransaction, WriteTransaction } from "../storage/port.js";
import {
  commitRevision,
  loadRevision,
  requireRevision,
  type ContentChanges,
  type Revision,
} from "../content-tree/revisions.js";

/**
 * Where content is read or written: a space's current content, a change request's content, or a
 * revision by id. Three families of operations (space content, change-request content, revision
 * reads) share their implementation through this; the access rules of content/access.ts
 * load content with these functions before `run`.
 */

/** `{changeRequestId}` is the id or the number of the change request. */
export async function findChangeRequest(
  tx: ReadTransaction,
  space: string,
  idOrNumber: string,
): Promise<ChangeRequestRecord | undefined> {
  if (/^[1-9]\d{0,9}$/.test(idOrNumber)) {
    const [byNumber] = await tx.list(changeRequestsTable, {
      index: "bySpaceNumber",
      where: [space, Number(idOrNumber)],
      limit: 1,
    });
    if (byNumber) return byNumber;
  }
  const byId = await tx.get(changeRequestsTable, idOrNumber);
  return byId?.space === space ? byId : undefined;
}

export async function requireChangeRequest(
  tx: ReadTransaction,
  space: string,
  idOrNumber: string,
): Promise<ChangeRequestRecord> {
  const changeRequest = await findChangeRequest(tx, space, idOrNumber);
  if (!changeRequest) throw notFound(`Change request "${idOrNumber}" not found`);
  return changeRequest;
}

/** A merged or archived change request takes no more edits (409). */
export function requireOpenChangeRequest(changeRequest: ChangeRequestRecord): void {
  if (changeRequest.status === "merged" || changeRequest.status === "archived") {
    throw conflict(`Change request #${changeRequest.number} is ${changeRequest.status} and takes no edits`);
  }
}

/** The head revision of a change request, in a space. */
export const changeRequestContent = (tx: ReadTransaction, world: World, changeRequest: ChangeRequestRecord) =>
  requireRevision(tx, world, changeRequest.revision);

/** The current content of a space. */
export const spaceContent = (tx: ReadTransaction, world: World, space: SpaceRecord) =>
  requireRevision(tx, world, space.revision);

/** A revision of the space by id; 404 when it does not exist or belongs to another space. */
export async function revisionContent(
  tx: ReadTransaction,
  world: World,
  space: SpaceRecord,
  revisionId: string,
): Promise<Revision> {
  const content = await loadRevision(tx, world, revisionId);
  if (!content || content.record.space !== space.id) {
    throw notFound(`Revision "${revisionId}" not found in this space`);
  }
  return content;
}

/**
 * What a content write works on: the context and its write transaction, the space, the content it
 * edits and, in a change request, the change request. The scope of an operation declaring
 * `onDraft` (content/access.ts) is one.
 */
export interface Draft extends Context {
  readonly tx: WriteTransaction;
  readonly space: SpaceRecord;
  readonly content: Revision;
  readonly changeRequest?: ChangeRequestRecord | undefined;
}

/**
 * Commits `changes` on top of the draft's content and makes the new revision the head of the
 * space's live content or of the change request, whose contributors then include the caller (and
 * count this write as one of their edits, change-requests/contributions.ts).
 */
export async function commitDraft(draft: Draft, changes: ContentChanges): Promise<Revision> {
  const { tx, space, changeRequest, content } = draft;
  const next = await commitRevision(tx, draft, { space: space.id, base: content, changes });
  const now = draft.clock().toISOString();
  if (!changeRequest) {
    const updated: SpaceRecord = { ...space, revision: next.record.id, updatedAt: now };
    await tx.put(spacesTable, updated);
    return next;
  }
  const caller = requireCaller(draft);
  const updated: ChangeRequestRecord = {
    ...changeRequest,
    revision: next.record.id,
    updatedAt: now,
    contributors: changeRequest.contributors.includes(caller.userId)
      ? changeRequest.contributors
      : [...changeRequest.contributors, caller.userId],
  };
  await tx.put(changeRequestsTable, updated);
  await recordContribution(tx, draft, changeRequest.id, caller.userId, "edit");
  return next;
}
