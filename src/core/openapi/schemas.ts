import * as z from "zod";
import { httpUrl, pathParam, timestamp, url, wellFormed } from "../shared/schema.js";
import { MAX_FILE_BYTES } from "./limits.js";
import {
  openAPIErrorObject,
  openAPISpecProcessingErrorCode,
  openAPISpecProcessingState,
  openAPISpecVisibility,
} from "./tables.js";

/** A spec's slug, the API's limit: 1 to 100 characters of letters and digits in dash-separated runs. */
export const OPENAPI_SLUG_PATTERN = /^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/;
export const MAX_OPENAPI_SLUG_LENGTH = 100;

export const openAPISpecSlug = z
  .string()
  .min(1)
  .max(MAX_OPENAPI_SLUG_LENGTH)
  .regex(OPENAPI_SLUG_PATTERN, "Expected letters and digits in runs separated by single dashes")
  .check(wellFormed());

/**
 * The reference's `OpenAPISpecSource`: `{url}` (an absolute http: or https: URL, at most 2048
 * characters) or `{text}` (the document itself, at most `MAX_FILE_BYTES` bytes of UTF-8). Written
 * as one object with a rule rather than a union so that a refusal names the field.
 */
export const openAPISpecSource = z
  .object({
    url: httpUrl().optional(),
    text: z
      .string()
      .min(1)
      .refine((text) => new TextEncoder().encode(text).length <= MAX_FILE_BYTES, {
        error: `Too big: expected at most ${MAX_FILE_BYTES} bytes of UTF-8`,
      })
      .optional(),
  })
  .refine((source) => (source.url === undefined) !== (source.text === undefined), {
    error: "expected exactly one of url, text",
  })
  .transform((source) => (source.url !== undefined ? { url: source.url } : { text: source.text! }));

export const specParams = z.object({ organizationId: pathParam(), specSlug: pathParam() });
export const versionParams = specParams.extend({ versionId: pathParam() });

export const openAPISpecSchema = z.object({
  object: z.literal("openapi-spec"),
  id: z.string(),
  createdAt: timestamp(),
  updatedAt: timestamp(),
  slug: z.string(),
  sourceURL: url().optional(),
  processingState: openAPISpecProcessingState,
  visibility: openAPISpecVisibility,
  lastVersion: z.string().optional(),
  lastProcessedAt: timestamp().optional(),
  lastProcessErrorCode: openAPISpecProcessingErrorCode.optional(),
  lastProcessedErrors: z.array(openAPIErrorObject).optional(),
  permissions: z.object({ view: z.boolean(), edit: z.boolean() }),
  urls: z.object({ location: url(), app: url(), published: url().optional() }),
});
export type OpenAPISpec = z.infer<typeof openAPISpecSchema>;

export const openAPISpecVersionSchema = z.object({
  object: z.literal("openapi-spec-version"),
  id: z.string(),
  createdAt: timestamp(),
  url: url(),
  urls: z.object({ location: url() }),
});
export type OpenAPISpecVersion = z.infer<typeof openAPISpecVersionSchema>;

export { openAPISpecContent as openAPISpecContentSchema } from "./tables.js";
