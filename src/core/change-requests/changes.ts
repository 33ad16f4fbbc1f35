import * as z from "zod";
import { onChangeRequest, onContent } from "../content/access.js";
import { loadRevision, requireRevision } from "../content-tree/revisions.js";
import { readableWithReaderToken } from "../permissions/reader-token.js";
import { defineOperation } from "../registry.js";
import { MAX_PAGE_SIZE } from "../shared/pagination.js";
import { pathParam, queryBoolean, queryInteger } from "../shared/schema.js";
import { presentedMergedFrom } from "./merged-from.js";
import { ancestorOf, changeRequestParams, changeRequestSchema } from "./schemas.js";
import { semanticChanges, semanticChangeSchema, type SemanticChange } from "./semantic-changes.js";

/**
 * What a change request or a revision changes, as the reference's `RevisionSemanticChange` list
 * (semantic-changes.ts, which gives the order). Both answer the first `limit` changes (default 10,
 * as the reference, 0 to `MAX_PAGE_SIZE`) and count the rest in `more`.
 *
 * - `getChangeRequestChanges`: against the change request's base, the space revision it was
 *   created from or last updated from (`revisionMergedAncestor ?? revisionInitial`), so that what
 *   an update pulled in from the space is not listed as its own. Reading needs `read` on the
 *   space, as every change request read.
 * - `getRevisionSemanticChanges`: a revision against its first parent (the space's or the change
 *   request's revision it was written on; for a merge, the space's revision before the merge); a
 *   revision without a parent in its space (a new space's first; a duplicate's first, whose parent
 *   is the source space's revision) against empty content, so everything in it is created. A
 *   merge of a change request also answers `mergedFrom`, that change request as
 *   `getChangeRequestById` presents it. Access is that of the other revision reads,
 *   reader tokens included; a reader token, which reads no change request, gets no `mergedFrom`.
 */

const DEFAULT_LIMIT = 10;

const limitQuery = { limit: queryInteger(0, MAX_PAGE_SIZE).optional() };
const changesResponse = { changes: z.array(semanticChangeSchema), more: z.number() };

/** The first `limit` changes, and how many were left out. */
function limited(changes: readonly SemanticChange[], limit = DEFAULT_LIMIT) {
  return { changes: changes.slice(0, limit), more: Math.max(0, changes.length - limit) };
}

export const getChangeRequestChanges = defineOperation({
  id: "getChangeRequestChanges",
  method: "get",
  path: "/spaces/{spaceId}/change-requests/{changeRequestId}/changes",
  tag: "change-requests",
  summary:
    "List what a change request changes against its base: pages, files and reusable contents created, edited, moved, deleted",
  params: changeRequestParams,
  access: onChangeRequest("view"),
  query: z.object(limitQuery),
  response: z.object(changesResponse),
  async run(scope, { query }) {
    const { tx, changeRequest } = scope;
    const [base, head] = await Promise.all([
      requireRevision(tx, scope, ancestorOf(changeRequest)),
      requireRevision(tx, scope, changeRequest.revision),
    ]);
    return limited(await semanticChanges(scope, base, head), query.limit);
  },
});

export const getRevisionSemanticChanges = defineOperation({
  id: "getRevisionSemanticChanges",
  method: "get",
  path: "/spaces/{spaceId}/revisions/{revisionId}/changes",
  tag: "revisions",
  summary:
    "List what a revision changes against its first parent, and the change request a merge revision merged",
  access: readableWithReaderToken(onContent("revision", "view")),
  params: z.object({ spaceId: pathParam(), revisionId: pathParam() }),
  // `metadata` and `computed` change nothing here: there is no git metadata or computed content.
  query: z.object({
    ...limitQuery,
    metadata: queryBoolean().optional(),
    computed: queryBoolean().optional(),
  }),
  response: z.object({ ...changesResponse, mergedFrom: changeRequestSchema.optional() }),
  async run(scope, { query }) {
    const { tx, content, space } = scope;
    const [parent] = content.record.parents;
    const loaded = parent === undefined ? undefined : await loadRevision(tx, scope, parent);
    // A duplicate's first revision has the source space's as parent: never read across spaces.
    const base = loaded?.record.space === space.id ? loaded : null;
    const [changes, merged] = await Promise.all([
      semanticChanges(scope, base, content),
      presentedMergedFrom(scope, content.record, space),
    ]);
    return { ...limited(changes, query.limit), ...(merged ? { mergedFrom: merged } : {}) };
  },
});

export const changesOperations = { getChangeRequestChanges, getRevisionSemanticChanges };
