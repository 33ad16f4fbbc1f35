import { MAX_BODY_DEPTH } from "../shared/nesting.js";

/** Limits of OpenAPI processing (docs/openapi-specs.md, "Limits"). */

/** Largest file accepted, the document or a file it references (UTF-8 bytes). */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** Largest total of the document and every file it references (UTF-8 bytes). */
export const MAX_TOTAL_BYTES = 10 * 1024 * 1024;
/** Most files fetched for external `$ref`s, the document itself not counted. */
export const MAX_REFERENCED_FILES = 50;
/** Longest chain of files: the document is depth 0, a file it references depth 1... */
export const MAX_REFERENCE_DEPTH = 10;
/**
 * Largest total of the document and every file it references once parsed, as stored (UTF-8 bytes
 * of their JSON): YAML aliases make this larger than the text.
 */
export const MAX_RESOLVED_BYTES = 10 * 1024 * 1024;
/**
 * Deepest nesting of objects and arrays in a parsed file, and in the document once its references
 * are inlined (the document itself is depth 0): the one bound every request body has too.
 */
export const MAX_NESTING_DEPTH = MAX_BODY_DEPTH;
/** Most JSON values (objects, arrays, scalars) in the document once its references are inlined. */
export const MAX_RESOLVED_NODES = 1_000_000;
/**
 * Deadline of a whole processing, every fetch included (each fetch also has the outbound deadline):
 * well within a job's time (`jobTimeoutMs`, 60 s by default), so that the job records its outcome.
 */
export const MAX_PROCESSING_MS = 30_000;
/** Most problems listed in `lastProcessedErrors`. */
export const MAX_REPORTED_ERRORS = 20;
