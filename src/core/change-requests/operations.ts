import { z } from "zod";
import { requirePermission } from "../collections/permissions.js";
import { commitRevision, requireRevision } from "../content/revisions.js";
import { requireChangeRequest } from "../content/target.js";
import { templateChanges } from "../content/templates.js";
import { defineOperation } from "../registry.js";
import { contentRole, requireCaller, requireMembership, type Membership } from "../shared/access.js";
import { conflict } from "../shared/errors.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import { nextSequence } from "../shared/sequence.js";
import { pathParam } from "../shared/schema.js";
import { requireSpace, spacePermissions } from "../spaces/permissions.js";
import type { ReadTransaction } from "../storage/port.js";
import { tables, type ChangeRequestRecord, type SpaceRecord } from "../tables.js";
import { mergeOperations } from "./merging.js";
import { nextNumber, presenter, saveChangeRequest } from "./records.js";
import {
  changeRequestFilters,
  changeRequestParams,
  changeRequestSchema,
  createChangeRequestBody,
  updateChangeRequestBody,
} from "./schemas.js";

/**
 * Change requests (SPEC.md, "Change requests and their content"): a numbered line of edits on a
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
  body: createChangeRequestBody,
  response: changeRequestSchema,
  status: 201,
  async run(context, { params, body = {} }) {
    const caller = requireCaller(context);
    return context.storage.write(async (tx) => {
      const access = await requireSpace(tx, context, params.spaceId);
      requirePermission(spacePermissions(access.role, access.space), "edit", "Creating a change request");
      const spaceId = access.space.id;
      const initial = await requireRevision(tx, context, access.space.revision);
      let revision = initial.record.id;
      if (body.template) {
        const target = { spaceId, content: initial };
        const changes = await templateChanges(tx, context, body.template, target, "body.template");
        revision = (await commitRevision(tx, context, { space: spaceId, base: initial, changes })).record.id;
      }
      const now = context.clock().toISOString();
      const record: ChangeRequestRecord = {
        id: context.ids(),
        space: spaceId,
        organization: access.space.organization,
        number: await nextNumber(tx, spaceId),
        seq: await nextSequence(tx),
        status: body.status ?? "open",
        subject: body.subject ?? "",
        createdBy: caller.userId,
        createdAt: now,
        updatedAt: now,
        revision,
        revisionInitial: initial.record.id,
        contributors: [],
        requestedReviewers: [],
        comments: 0,
      };
      const space = await saveChangeRequest(tx, access.space, record, undefined);
      return presenter(tx, context)(record, space);
    });
  },
});

export const getChangeRequestById = defineOperation({
  id: "getChangeRequestById",
  method: "get",
  path: "/spaces/{spaceId}/change-requests/{changeRequestId}",
  tag,
  summary: "Get a change request by id or by number",
  params: changeRequestParams,
  response: changeRequestSchema,
  async run(context, { params }) {
    return context.storage.read(async (tx) => {
      const { space } = await requireSpace(tx, context, params.spaceId);
      const record = await requireChangeRequest(tx, space.id, params.changeRequestId);
      return presenter(tx, context)(record, space);
    });
  },
});

export const updateChangeRequestById = defineOperation({
  id: "updateChangeRequestById",
  method: "patch",
  path: "/spaces/{spaceId}/change-requests/{changeRequestId}",
  tag,
  summary: "Update the subject, description or status (draft, open, archived) of a change request",
  params: changeRequestParams,
  body: updateChangeRequestBody,
  response: changeRequestSchema,
  async run(context, { params, body }) {
    return context.storage.write(async (tx) => {
      const access = await requireSpace(tx, context, params.spaceId);
      requirePermission(spacePermissions(access.role, access.space), "edit", "Updating a change request");
      const current = await requireChangeRequest(tx, access.space.id, params.changeRequestId);
      if (body.status !== undefined && current.status === "merged") {
        throw conflict(`Change request #${current.number} is merged: its status cannot change`);
      }
      const record: ChangeRequestRecord = { ...current };
      if (body.subject !== undefined) record.subject = body.subject;
      if (body.description !== undefined) record.description = body.description;
      if (body.status !== undefined) record.status = body.status;
      if (JSON.stringify(record) === JSON.stringify(current)) {
        return presenter(tx, context)(current, access.space);
      }
      record.updatedAt = context.clock().toISOString();
      const space = await saveChangeRequest(tx, access.space, record, current);
      return presenter(tx, context)(record, space);
    });
  },
});

type Filters = { [K in keyof typeof changeRequestFilters]?: z.output<(typeof changeRequestFilters)[K]> };

/** The filters other than `status`, or undefined when none is set (so counting stays indexed). */
function filterOf(query: Filters): ((record: ChangeRequestRecord) => boolean) | undefined {
  const { creator, contributor, requestedReviewer, conversationsIssuesCluster } = query;
  if (!creator && !contributor && !requestedReviewer && !conversationsIssuesCluster) return undefined;
  return (record) =>
    (!creator || record.createdBy === creator) &&
    (!contributor || record.contributors.includes(contributor)) &&
    (!requestedReviewer || record.requestedReviewers.includes(requestedReviewer)) &&
    (!conversationsIssuesCluster || record.conversationsIssuesCluster === conversationsIssuesCluster);
}

const listQuery = z.object({ ...pageQuery, ...changeRequestFilters });

export const listChangeRequestsForSpace = defineOperation({
  id: "listChangeRequestsForSpace",
  method: "get",
  path: "/spaces/{spaceId}/change-requests",
  tag,
  summary: "List a space's change requests, newest first; status defaults to open",
  params: spaceParams,
  query: listQuery,
  response: listOf(changeRequestSchema),
  async run(context, { params, query }) {
    return context.storage.read(async (tx) => {
      const { space } = await requireSpace(tx, context, params.spaceId);
      const present = presenter(tx, context);
      const filter = filterOf(query);
      return paginate(tx, query, {
        table: tables.changeRequests,
        index: "bySpaceStatus",
        where: [space.id, query.status ?? "open"],
        reverse: true,
        ...(filter ? { filter } : {}),
        map: (record: ChangeRequestRecord) => present(record, space),
      });
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
        const space = await tx.get<SpaceRecord>(tables.spaces.name, id);
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
  query: listQuery,
  response: listOf(changeRequestSchema),
  async run(context, { params, query }) {
    return context.storage.read(async (tx) => {
      const membership = await requireMembership(tx, context, params.organizationId);
      const spaceOf = readableSpaces(tx, membership);
      const present = presenter(tx, context);
      const filter = filterOf(query);
      return paginate(tx, query, {
        table: tables.changeRequests,
        index: "byOrganizationStatus",
        where: [membership.organization.id, query.status ?? "open"],
        reverse: true,
        filter: async (record: ChangeRequestRecord) =>
          (!filter || filter(record)) && (await spaceOf(record.space)) !== undefined,
        map: async (record: ChangeRequestRecord) => present(record, (await spaceOf(record.space))!),
      });
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
};
