import { requirePermission } from "../collections/permissions.js";
import { requireCaller } from "../shared/access.js";
import { conflict, notFound } from "../shared/errors.js";
import type { Context } from "../shared/world.js";
import { requireSpace, spacePermissions, type SpaceAccess } from "../spaces/permissions.js";
import type { ReadTransaction, WriteTransaction } from "../storage/port.js";
import { tables, type ChangeRequestRecord, type SpaceRecord } from "../tables.js";
import {
  commitRevision,
  loadRevision,
  requireRevision,
  type ContentChanges,
  type RevisionContent,
} from "./revisions.js";

/**
 * Where content is read or written: a space's current content, a change request's content, or a
 * revision by id. Three families of operations (SPEC.md, "Space content", "Change requests and
 * their content") share their implementation through this.
 */

/** `{changeRequestId}` is the id or the number of the change request (SPEC.md). */
export async function findChangeRequest(
  tx: ReadTransaction,
  space: string,
  idOrNumber: string,
): Promise<ChangeRequestRecord | undefined> {
  if (/^[1-9]\d{0,9}$/.test(idOrNumber)) {
    const [byNumber] = await tx.list<ChangeRequestRecord>(tables.changeRequests.name, {
      index: "bySpaceNumber",
      where: [space, Number(idOrNumber)],
      limit: 1,
    });
    if (byNumber) return byNumber;
  }
  const byId = await tx.get<ChangeRequestRecord>(tables.changeRequests.name, idOrNumber);
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

/** Which content a read names. */
export type ContentSelector =
  | { readonly spaceId: string }
  | { readonly spaceId: string; readonly changeRequestId: string }
  | { readonly spaceId: string; readonly revisionId: string };

export interface ContentView {
  readonly access: SpaceAccess;
  readonly content: RevisionContent;
  readonly changeRequest?: ChangeRequestRecord;
}

/** Opens content for reading; the caller needs read access to the space. */
export async function openContent(
  tx: ReadTransaction,
  context: Context,
  selector: ContentSelector,
): Promise<ContentView> {
  const access = await requireSpace(tx, context, selector.spaceId);
  if ("changeRequestId" in selector) {
    const changeRequest = await requireChangeRequest(tx, access.space.id, selector.changeRequestId);
    return { access, changeRequest, content: await requireRevision(tx, context, changeRequest.revision) };
  }
  if ("revisionId" in selector) {
    const content = await loadRevision(tx, context, selector.revisionId);
    if (!content || content.record.space !== access.space.id) {
      throw notFound(`Revision "${selector.revisionId}" not found in this space`);
    }
    return { access, content };
  }
  return { access, content: await requireRevision(tx, context, access.space.revision) };
}

/** Content opened for a write, with the commit that makes the change its new head. */
export interface ContentDraft extends ContentView {
  commit(changes: ContentChanges): Promise<RevisionContent>;
}

/**
 * Opens a space's live content or a change request's content for writing. Writing needs the
 * `edit` permission, which a `locked` space denies to everyone (SPEC.md, Space `editMode`); a
 * merged or archived change request takes no more edits (409).
 */
export async function openDraft(
  tx: WriteTransaction,
  context: Context,
  selector: { spaceId: string; changeRequestId?: string },
): Promise<ContentDraft> {
  const caller = requireCaller(context);
  const access = await requireSpace(tx, context, selector.spaceId);
  requirePermission(spacePermissions(access.role, access.space), "edit", "Editing content");
  if (selector.changeRequestId === undefined) {
    const content = await requireRevision(tx, context, access.space.revision);
    return {
      access,
      content,
      async commit(changes) {
        const next = await commitRevision(tx, context, { space: access.space.id, base: content, changes });
        const space: SpaceRecord = {
          ...access.space,
          revision: next.record.id,
          updatedAt: context.clock().toISOString(),
        };
        await tx.put(tables.spaces.name, space);
        return next;
      },
    };
  }
  const changeRequest = await requireChangeRequest(tx, access.space.id, selector.changeRequestId);
  if (changeRequest.status === "merged" || changeRequest.status === "archived") {
    throw conflict(`Change request #${changeRequest.number} is ${changeRequest.status} and takes no edits`);
  }
  const content = await requireRevision(tx, context, changeRequest.revision);
  return {
    access,
    changeRequest,
    content,
    async commit(changes) {
      const next = await commitRevision(tx, context, { space: access.space.id, base: content, changes });
      const updated: ChangeRequestRecord = {
        ...changeRequest,
        revision: next.record.id,
        updatedAt: context.clock().toISOString(),
        contributors: changeRequest.contributors.includes(caller.userId)
          ? changeRequest.contributors
          : [...changeRequest.contributors, caller.userId],
      };
      await tx.put(tables.changeRequests.name, updated);
      return next;
    },
  };
}
