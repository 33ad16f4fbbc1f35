import * as z from "zod";
import { onChangeRequest } from "../content/access.js";
import { requireRevision } from "../content-tree/revisions.js";
import { defineOperation } from "../registry.js";
import { MAX_PAGE_SIZE } from "../shared/pagination.js";
import { queryInteger } from "../shared/schema.js";
import { ancestorOf, changeRequestParams } from "./schemas.js";
import { semanticChanges, semanticChangeSchema } from "./semantic-changes.js";

/**
 * `getChangeRequestChanges`: what a change request changes against its base, the space revision
 * it was created from or last updated from (`revisionMergedAncestor ?? revisionInitial`), so that
 * what an update pulled in from the space is not listed as its own. The first `limit` changes
 * (default 10, as the reference) in the order of semantic-changes.ts; `more` counts the rest.
 * Reading needs `read` on the space, as every change request read.
 */

const DEFAULT_LIMIT = 10;

export const getChangeRequestChanges = defineOperation({
  id: "getChangeRequestChanges",
  method: "get",
  path: "/spaces/{spaceId}/change-requests/{changeRequestId}/changes",
  tag: "change-requests",
  summary:
    "List what a change request changes against its base: pages and files created, edited, moved, deleted",
  params: changeRequestParams,
  access: onChangeRequest("view"),
  query: z.object({ limit: queryInteger(0, MAX_PAGE_SIZE).optional() }),
  response: z.object({ changes: z.array(semanticChangeSchema), more: z.number() }),
  async run(scope, { query }) {
    const { tx, changeRequest } = scope;
    const [base, head] = await Promise.all([
      requireRevision(tx, scope, ancestorOf(changeRequest)),
      requireRevision(tx, scope, changeRequest.revision),
    ]);
    const changes = await semanticChanges(scope, base, head);
    const limit = query.limit ?? DEFAULT_LIMIT;
    return { changes: changes.slice(0, limit), more: Math.max(0, changes.length - limit) };
  },
});

export const changesOperations = { getChangeRequestChanges };
