import * as z from "zod";
import { documentInput } from "../document/schema.js";
import { templateReference } from "../content/templates.js";
import { boundedId, pathParam } from "../shared/schema.js";
import type { World } from "../shared/world.js";
import { changeRequestStatus, type ChangeRequestRecord } from "./tables.js";
import type { SpaceRecord } from "../spaces/tables.js";
import { userSchema } from "../users/schemas.js";

/** `ChangeRequestSubject`: at most 100 characters, the API's limit. */
export const changeRequestSubject = z.string().max(100);

/**
 * Longest `description` document, in characters of its JSON (docs/api.md, "Limits"): several
 * times what the longest comment (100,000 characters of markdown) takes as a document.
 */
export const MAX_DESCRIPTION_JSON_LENGTH = 500_000;

/** A change request description: a document whose JSON fits `MAX_DESCRIPTION_JSON_LENGTH`. */
const changeRequestDescription = documentInput.refine(
  (document) => JSON.stringify(document).length <= MAX_DESCRIPTION_JSON_LENGTH,
  { error: `Too big: expected a document of at most ${MAX_DESCRIPTION_JSON_LENGTH} characters of JSON` },
);

export const changeRequestParams = z.object({ spaceId: pathParam(), changeRequestId: pathParam() });

/**
 * `createChangeRequest`. The reference allows other properties (`agentTaskId`...): they are
 * accepted and ignored. `status` may ask for a draft; a new change request is `open` otherwise.
 */
export const createChangeRequestBody = z
  .looseObject({
    subject: changeRequestSubject.optional(),
    status: changeRequestStatus.extract(["draft", "open"]).optional(),
    template: templateReference.optional(),
  })
  .optional();

/** `updateChangeRequestById`: only a merge merges, so `merged` is refused with its reason. */
export const updateChangeRequestBody = z.object({
  subject: changeRequestSubject.optional(),
  description: changeRequestDescription.optional(),
  status: changeRequestStatus
    .refine((status) => status !== "merged", {
      error: 'a change request becomes "merged" through POST .../merge, not by a status change',
    })
    .optional(),
});

/** Which side's version a resolved conflict takes: the change request's or the space's. */
const resolutionSide = z.enum(["changeRequest", "space"]);

/**
 * `updateChangeRequest`'s optional body (a docsbase extension: the reference's has none): the
 * side each conflicting page or file takes, by id.
 */
export const updateResolutionsBody = z
  .object({
    resolutions: z
      .object({
        pages: z.record(boundedId(), resolutionSide).optional(),
        files: z.record(boundedId(), resolutionSide).optional(),
      })
      .optional(),
  })
  .optional();

/** The list filters of both list operations (the space list also takes `status`). */
export const changeRequestFilters = {
  status: changeRequestStatus.optional(),
  creator: boundedId().optional(),
  contributor: boundedId().optional(),
  requestedReviewer: boundedId().optional(),
  conversationsIssuesCluster: boundedId().optional(),
};

export const changeRequestSchema = z.object({
  object: z.literal("change-request"),
  id: z.string(),
  number: z.number(),
  status: changeRequestStatus,
  subject: z.string(),
  description: z.record(z.string(), z.unknown()).optional(),
  createdBy: userSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  space: z.string(),
  revision: z.string(),
  revisionInitial: z.string(),
  revisionMergedAncestor: z.string().optional(),
  revisionMerged: z.string().optional(),
  comments: z.number(),
  outdated: z.boolean(),
  conversationsIssuesCluster: z.string().optional(),
  urls: z.object({ app: z.string(), location: z.string() }),
});
export type ChangeRequest = z.infer<typeof changeRequestSchema>;

/** The `{revision, result}` answer of update and merge, with the conflicts when there are any. */
export const mergeOutcomeSchema = (result: "update" | "merge") =>
  z.object({
    revision: z.string(),
    result: z.enum([result, "conflicts"]),
    conflicts: z
      .array(
        z.union([
          z.object({ page: z.string(), reason: z.string() }),
          z.object({ file: z.string(), reason: z.string() }),
          z.object({ reusableContent: z.string(), reason: z.string() }),
        ]),
      )
      .optional(),
  });

/** The revision a change request last synchronized with its space from. */
export const ancestorOf = (record: ChangeRequestRecord) =>
  record.revisionMergedAncestor ?? record.revisionInitial;

/**
 * True when the space moved on since the change request was created or last updated (its merge
 * would then need a three-way merge); a merged change request is never outdated.
 */
export const isOutdated = (record: ChangeRequestRecord, space: Pick<SpaceRecord, "revision">) =>
  record.status !== "merged" && space.revision !== ancestorOf(record);

export const changeRequestLocation = (world: World, record: Pick<ChangeRequestRecord, "space" | "id">) =>
  `${world.baseUrl}/v1/spaces/${record.space}/change-requests/${record.id}`;
