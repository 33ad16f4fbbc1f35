import * as z from "zod";
import { onChangeRequest } from "../content/access.js";
import { commitRevision, requireRevision } from "../content-tree/revisions.js";
import { templateChanges } from "../content/templates.js";
import { contentRole, requireCaller, type Membership } from "../permissions/membership.js";
import { inOrganization } from "../permissions/organization.js";
import { defineOperation } from "../registry.js";
import { conflict } from "../shared/errors.js";
import { LARGE_ITEMS_PAGE_CHARS, listOf, pageQuery, paginate } from "../shared/pagination.js";
import { pathParam } from "../shared/schema.js";
import { onSpace } from "../spaces/access.js";
import { spacePermissions } from "../spaces/permissions.js";
import { type SpaceRecord, spacesTable } from "../spaces/tables.js";
import type { ReadTransaction } from "../storage/port.js";
import { changesOperations } from "./changes.js";
import { contributorOperations } from "./contributors.js";
import { recordContribution } from "./contributions.js";
import { mergeOperations } from "./merging.js";
import { newChangeRequest, saveChangeRequest } from "./records.js";
import { isRequestedReviewer } from "./reviewers.js";
import { presentChangeRequest } from "./present.js";
import { UserPresenter } from "../users/present.js";
import {
  changeRequestFilters,
  changeRequestParams,
  changeRequestSchema,
  createChangeRequestBody,
  updateChangeRequestBody,
} from "./schemas.js";
import { type ChangeRequestRecord, changeRequestsTable } from "./tables.js";

/**
 * Change requests: a numbered line of edits on a
 * space, created from the space's current revision and merged back into it. Content writes inside
 * a change request are in content/writes.ts; update and merge in merging.ts.
 *
 * Reading needs `read` on the space; creating, editing (`PATCH`) and updating need the space's
 * `edit` permission (which a locked space denies); merging needs `merge`.
 */

const tag = "change-requests";
const spaceParams = z.object({ spaceId: pathParam() });

export const createChangeRequest = defineOperation({
  id: "createChangeRequest",
  method: "post",
  path: "/spaces/{spaceId}/change-requests",
  tag,
  summary: "Create a change request from the space's current content, optionally applying a template",
  params: spaceParams,
  access: onSpace("edit"),
  body: createChangeRequestBody,
  response: changeRequestSchema,
  status: 201,
  async run(scope, { body = {} }) {
    const { tx, space } = scope;
    const initial = await requireRevision(tx, scope, space.revision);
    let revision = initial.record.id;
    if (body.template) {
      const target = { spaceId: space.id, content: initial };
      const changes = await templateChanges(tx, scope, body.template, target, "body.template");
      revision = (await commitRevision(tx, scope, { space: space.id, base: initial, changes })).record.id;
    }
    const record = await newChangeRequest(tx, scope, space, {
      status: body.status ?? "open",
      subject: body.subject ?? "",
      createdBy: requireCaller(scope).userId,
      revision,
      revisionInitial: initial.record.id,
      contributors: body.template ? [requireCaller(scope).userId] : [],
    });
    const updated = await saveChangeRequest(tx, space, record, undefined);
    // A template's pages are the creator's first edit.
    if (body.template) await recordContribution(tx, scope, record.id, record.createdBy, "edit");
    return presentChangeRequest(tx, scope, record, updated);
  },
});

export const getChangeRequestById = defineOperation({
  id: "getChangeRequestById",
  method: "get",
  path: "/spaces/{spaceId}/change-requests/{changeRequestId}",
  tag,
  summary: "Get a change request by id or by number",
  params: changeRequestParams,
  access: onChangeRequest("view"),
  response: changeRequestSchema,
  async run(scope) {
    return presentChangeRequest(scope.tx, scope, scope.changeRequest, scope.space);
  },
});

export const updateChangeRequestById = defineOperation({
  id: "updateChangeRequestById",
  method: "patch",
  path: "/spaces/{spaceId}/change-requests/{changeRequestId}",
  tag,
  summary: "Update the subject, description or status (draft, open, archived) of a change request",
  params: changeRequestParams,
  access: onChangeRequest("edit"),
  body: updateChangeRequestBody,
  response: changeRequestSchema,
  async run(scope, { body }) {
    const { tx, space, changeRequest: current } = scope;
    if (body.status !== undefined && current.status === "merged") {
      throw conflict(`Change request #${current.number} is merged: its status cannot change`);
    }
    const record: ChangeRequestRecord = { ...current };
    if (body.subject !== undefined) record.subject = body.subject;
    if (body.description !== undefined) record.description = body.description;
    if (body.status !== undefined) record.status = body.status;
    if (JSON.stringify(record) === JSON.stringify(current))
      return presentChangeRequest(tx, scope, current, space);
    record.updatedAt = scope.clock().toISOString();
    const updated = await saveChangeRequest(tx, space, record, current);
    return presentChangeRequest(tx, scope, record, updated);
  },
});

type Filters = { [K in keyof typeof changeRequestFilters]?: z.output<(typeof changeRequestFilters)[K]> };

/**
 * The filters other than `status`, or undefined when none is set (so counting stays indexed).
 * `requestedReviewer` reads the change request's requested reviewers (reviewers.ts).
 */
function filterOf(
  tx: ReadTransaction,
  query: Filters,
): ((record: ChangeRequestRecord) => Promise<boolean>) | undefined {
  const { creator, contributor, requestedReviewer, conversationsIssuesCluster } = query;
  if (!creator && !contributor && !requestedReviewer && !conversationsIssuesCluster) return undefined;
  return async (record) =>
    (!creator || record.createdBy === creator) &&
    (!contributor || record.contributors.includes(contributor)) &&
    (!conversationsIssuesCluster || record.conversationsIssuesCluster === conversationsIssuesCluster) &&
    (!requestedReviewer || (await isRequestedReviewer(tx, record, requestedReviewer)));
}

const listQuery = z.object({ ...pageQuery, ...changeRequestFilters });

export const listChangeRequestsForSpace = defineOperation({
  id: "listChangeRequestsForSpace",
  method: "get",
  path: "/spaces/{spaceId}/change-requests",
  tag,
  summary: "List a space's change requests, newest first; status defaults to open",
  params: spaceParams,
  access: onSpace("view"),
  query: listQuery,
  response: listOf(changeRequestSchema),
  async run(scope, { query }) {
    const { tx, space } = scope;
    const users = new UserPresenter(tx, scope);
    const filter = filterOf(tx, query);
    return paginate(tx, query, {
      table: changeRequestsTable,
      index: "bySpaceStatus",
      where: [space.id, query.status ?? "open"],
      reverse: true,
      ...(filter ? { filter } : {}),
      map: (record: ChangeRequestRecord) => presentChangeRequest(tx, scope, record, space, users),
      // Each description may be 500,000 characters: the page is bounded in size, not count.
      maxChars: LARGE_ITEMS_PAGE_CHARS,
    });
  },
});

/** The live spaces of an organization that the member can read, memoized per list request. */
function readableSpaces(tx: ReadTransaction, membership: Membership) {
  const spaces = new Map<string, Promise<SpaceRecord | undefined>>();
  return (id: string) => {
    let found = spaces.get(id);
    if (!found) {
      found = (async () => {
        const space = await tx.get(spacesTable, id);
        if (!space || space.state !== "live") return undefined;
        const role = await contentRole(tx, membership, space);
        return spacePermissions(role, space).view ? space : undefined;
      })();
      spaces.set(id, found);
    }
    return found;
  };
}

export const listChangeRequestsForOrganization = defineOperation({
  id: "listChangeRequestsForOrganization",
  method: "get",
  path: "/orgs/{organizationId}/change-requests",
  tag,
  summary: "List the change requests of the spaces you can read in an organization, newest first",
  params: z.object({ organizationId: pathParam() }),
  access: inOrganization("member"),
  query: listQuery,
  response: listOf(changeRequestSchema),
  async run(scope, { query }) {
    const { tx, membership } = scope;
    const spaceOf = readableSpaces(tx, membership);
    const users = new UserPresenter(tx, scope);
    const filter = filterOf(tx, query);
    return paginate(tx, query, {
      table: changeRequestsTable,
      index: "byOrganizationStatus",
      where: [membership.organization.id, query.status ?? "open"],
      reverse: true,
      // Members see every live space, so for them only deleted spaces filter; a guest sees the
      // change requests of the spaces their grants give them (the same resolution, per space).
      filter: async (record: ChangeRequestRecord) =>
        (!filter || (await filter(record))) && (await spaceOf(record.space)) !== undefined,
      map: async (record: ChangeRequestRecord) =>
        presentChangeRequest(tx, scope, record, (await spaceOf(record.space))!, users),
      maxChars: LARGE_ITEMS_PAGE_CHARS,
    });
  },
});

export const changeRequestOperations = {
  createChangeRequest,
  getChangeRequestById,
  updateChangeRequestById,
  listChangeRequestsForSpace,
  listChangeRequestsForOrganization,
  ...mergeOperations,
  ...contributorOperations,
  ...changesOperations,
};
