import * as z from "zod";
import { loadRevision, requireRevision } from "../content-tree/revisions.js";
import { commitDraft, findChangeRequest } from "../content/target.js";
import { sha256 } from "../content/versions.js";
import { requireCaller } from "../permissions/membership.js";
import { defineOperation } from "../registry.js";
import { badRequest, conflict, notFound } from "../shared/errors.js";
import { pathParam } from "../shared/schema.js";
import { onSpace } from "../spaces/access.js";
import { defineTable } from "../storage/table.js";
import { presentChangeRequest } from "./present.js";
import { pushChanges } from "./push-changes.js";
import { type PushBody, pushBody, pushIdParam } from "./push-schemas.js";
import { newChangeRequest, saveChangeRequest } from "./records.js";
import { changeRequestSchema } from "./schemas.js";
import { changeRequestsTable } from "./tables.js";

/**
 * `pushChangeRequest`, docsbase's own operation: content changes made against a known revision
 * (offline, in a replica) arrive as one change request, in one transaction.
 *
 * The client names each push (`pushId`). The server records the push with its caller, the change
 * request it opened or extended and a SHA-256 digest of its canonical body; the same push sent
 * again (a retry after a dropped connection) finds that record and answers the change request as
 * it is now, applying nothing twice. The same id with another body or by another user is a 409.
 */

export const pushRecord = z.object({
  /** `${space}:${pushId}`. */
  key: z.string(),
  space: z.string(),
  pushId: z.string(),
  user: z.string(),
  /** The change request the push opened or extended. */
  changeRequest: z.string(),
  /** SHA-256 of the canonical JSON of the validated body, hex. */
  digest: z.string(),
  createdAt: z.string(),
});
export type PushRecord = z.infer<typeof pushRecord>;

export const pushesTable = defineTable({
  name: "changeRequestPushes",
  key: "key",
  indexes: {
    bySpace: ["space", "createdAt"],
    byChangeRequest: ["changeRequest", "createdAt"],
  },
  record: pushRecord,
});

/** JSON with object keys sorted at every level: one text per value, whatever the key order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const digestOf = (body: PushBody) => sha256(new TextEncoder().encode(canonicalJson(body)));

const hasEntries = (body: PushBody) => (body.pages?.length ?? 0) + (body.files?.length ?? 0) > 0;

export const pushChangeRequest = defineOperation({
  id: "pushChangeRequest",
  method: "put",
  path: "/spaces/{spaceId}/pushes/{pushId}",
  tag: "change-requests",
  summary:
    "Push content changes made against a revision as one change request (opened or extended), atomically; a retried push (same id, caller and body) applies nothing twice",
  params: z.object({ spaceId: pathParam(), pushId: pushIdParam }),
  access: onSpace("edit"),
  body: pushBody,
  response: changeRequestSchema,
  async run(scope, { params, body }) {
    const { tx, space } = scope;
    const user = requireCaller(scope).userId;
    const digest = await digestOf(body);
    const key = `${space.id}:${params.pushId}`;
    const previous = await tx.get(pushesTable, key);
    if (previous) {
      if (previous.user !== user || previous.digest !== digest) {
        throw conflict(
          `path.pushId: push "${params.pushId}" was already made, with another body or by another user`,
        );
      }
      const changeRequest = await tx.get(changeRequestsTable, previous.changeRequest);
      if (!changeRequest)
        throw notFound(`path.pushId: the change request of push "${params.pushId}" is gone`);
      return presentChangeRequest(tx, scope, changeRequest, space);
    }

    let changeRequest;
    let updatedSpace = space;
    if (body.changeRequest !== undefined) {
      const named = body.changeRequest;
      changeRequest = await findChangeRequest(tx, space.id, named);
      if (!changeRequest)
        throw notFound(`body.changeRequest: change request "${named}" not found in this space`);
      if (changeRequest.status === "merged" || changeRequest.status === "archived") {
        throw conflict(
          `body.changeRequest: change request #${changeRequest.number} is ${changeRequest.status}`,
        );
      }
      const [opening] = await tx.list(pushesTable, {
        index: "byChangeRequest",
        where: [changeRequest.id],
        limit: 1,
      });
      if (!opening || changeRequest.createdBy !== user) {
        throw conflict(
          `body.changeRequest: change request #${changeRequest.number} was not opened by a push of yours`,
        );
      }
      if (hasEntries(body)) {
        const content = await requireRevision(tx, scope, changeRequest.revision);
        const changes = await pushChanges(tx, scope, content, body);
        await commitDraft({ ...scope, content, changeRequest }, changes);
      }
    } else {
      if (body.revision === undefined) {
        throw badRequest(
          "body.revision: required to open a change request (the revision the changes were made against)",
        );
      }
      const initial = await loadRevision(tx, scope, body.revision);
      if (!initial || initial.record.space !== space.id) {
        throw notFound(`body.revision: revision "${body.revision}" not found in this space`);
      }
      if (!hasEntries(body)) throw badRequest("body: nothing to push (no page or file entries)");
      const changes = await pushChanges(tx, scope, initial, body);
      changeRequest = await newChangeRequest(tx, scope, space, {
        status: "open",
        subject: body.subject ?? "",
        createdBy: user,
        revision: initial.id,
        revisionInitial: initial.id,
        contributors: [],
      });
      updatedSpace = await saveChangeRequest(tx, space, changeRequest, undefined);
      await commitDraft({ ...scope, space: updatedSpace, content: initial, changeRequest }, changes);
    }
    const push: PushRecord = {
      key,
      space: space.id,
      pushId: params.pushId,
      user,
      changeRequest: changeRequest.id,
      digest,
      createdAt: scope.clock().toISOString(),
    };
    await tx.put(pushesTable, push);
    const stored = (await tx.get(changeRequestsTable, changeRequest.id))!;
    return presentChangeRequest(tx, scope, stored, updatedSpace);
  },
});

export const pushOperations = { pushChangeRequest };
