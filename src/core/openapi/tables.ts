import * as z from "zod";
import { defineTable } from "../storage/table.js";

/** The reference's `OpenAPISpecVisibility`. */
export const openAPISpecVisibility = z.enum(["private", "public"]);
export type OpenAPISpecVisibility = z.infer<typeof openAPISpecVisibility>;

/** The reference's `OpenAPISpecProcessingState`. */
export const openAPISpecProcessingState = z.enum(["pending", "progress", "complete"]);

/** The reference's `OpenAPISpecProcessingErrorCode`. */
export const openAPISpecProcessingErrorCode = z.enum(["FETCH_TIMEOUT", "FETCH_ERROR", "PARSE_ERROR"]);
export type OpenAPISpecProcessingErrorCode = z.infer<typeof openAPISpecProcessingErrorCode>;

/** The reference's `OpenAPIErrorObject`. */
export const openAPIErrorObject = z.object({ message: z.string(), code: z.string().optional() });
export type OpenAPIErrorObject = z.infer<typeof openAPIErrorObject>;

/** Where a spec's document comes from: a URL fetched by the processing job, or text given inline. */
export const openAPISourceRecord = z.union([z.object({ url: z.string() }), z.object({ text: z.string() })]);
export type OpenAPISourceRecord = z.infer<typeof openAPISourceRecord>;

export const openAPISpecRecord = z.object({
  id: z.string(),
  organization: z.string(),
  /** Unique per organization; the spec's key in paths. */
  slug: z.string(),
  source: openAPISourceRecord,
  visibility: openAPISpecVisibility,
  processingState: openAPISpecProcessingState,
  /**
   * Bumped by every create or PUT. A processing job carries the value it was queued with and drops
   * its result if the spec was updated meanwhile (the newer job then decides).
   */
  sourceRevision: z.number(),
  lastVersion: z.string().optional(),
  lastProcessedAt: z.string().optional(),
  lastProcessErrorCode: openAPISpecProcessingErrorCode.optional(),
  lastProcessedErrors: z.array(openAPIErrorObject).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type OpenAPISpecRecord = z.infer<typeof openAPISpecRecord>;

export const openAPISpecsTable = defineTable({
  name: "openapi_specs",
  key: "id",
  indexes: {
    byOrganization: ["organization", "createdAt"],
    bySlug: ["organization", "slug"],
  },
  record: openAPISpecRecord,
});

/**
 * The reference's `OpenAPISpecContent`: `filesystem` maps the URL of every file of the processed
 * document (the document itself, then each file its `$ref`s reached) to its parsed content;
 * `url` is the document's own key.
 */
export const openAPISpecContent = z.object({
  filesystem: z.record(z.string(), z.unknown()),
  url: z.string(),
});
export type OpenAPISpecContent = z.infer<typeof openAPISpecContent>;

export const openAPISpecVersionRecord = z.object({
  id: z.string(),
  spec: z.string(),
  organization: z.string(),
  /** Orders the versions of a spec: 1 for the first, one more for each new version. */
  number: z.number(),
  createdAt: z.string(),
  content: openAPISpecContent,
});
export type OpenAPISpecVersionRecord = z.infer<typeof openAPISpecVersionRecord>;

export const openAPISpecVersionsTable = defineTable({
  name: "openapi_spec_versions",
  key: "id",
  indexes: { bySpec: ["spec", "number"] },
  record: openAPISpecVersionRecord,
});
