import type { OpenAPIErrorObject, OpenAPISpecProcessingErrorCode } from "./tables.js";

/** A processing failure: thrown while processing a source, turned into a result by `processSource`. */
export class Failure extends Error {
  constructor(
    readonly code: OpenAPISpecProcessingErrorCode,
    readonly errors: readonly OpenAPIErrorObject[],
  ) {
    super(errors[0]?.message ?? code);
  }
}

export const parseFailure = (message: string) =>
  new Failure("PARSE_ERROR", [{ message, code: "PARSE_ERROR" }]);

/** What a processing has used so far, and its deadline. */
export interface Budget {
  /** UTF-8 bytes of the files' texts. */
  bytes: number;
  /** UTF-8 bytes of the files once parsed, as JSON (YAML aliases resolved). */
  resolvedBytes: number;
  files: number;
  readonly deadline: AbortSignal;
}
