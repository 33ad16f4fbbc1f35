/**
 * Typed failures of core operations. Core throws them with a stable `code`; `src/http` maps each
 * code to one status in a single table and renders `{error: {code, message}}`, the API's error shape.
 */
export type ErrorCode =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "method_not_allowed"
  | "conflict"
  | "gone"
  | "precondition_failed"
  | "payload_too_large"
  | "unsupported_media_type"
  /** The storage could not serve the request now (unreachable, or too busy to commit): retry later. */
  | "unavailable";

export class DocsbaseError extends Error {
  override readonly name = "DocsbaseError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export const badRequest = (message: string) => new DocsbaseError("bad_request", message);
export const unauthorized = (message = "A valid bearer token is required") =>
  new DocsbaseError("unauthorized", message);
export const forbidden = (message: string) => new DocsbaseError("forbidden", message);
export const notFound = (message: string) => new DocsbaseError("not_found", message);
export const conflict = (message: string) => new DocsbaseError("conflict", message);
/**
 * 503. With a `cause` (the storage failed), the HTTP handler also reports it to `onError`: the
 * operator must hear of an outage. Without one (a setting that is not configured) it does not.
 */
export const unavailable = (message: string, cause?: unknown) =>
  new DocsbaseError("unavailable", message, cause === undefined ? undefined : { cause });
export const preconditionFailed = (message: string) => new DocsbaseError("precondition_failed", message);

export function isDocsbaseError(error: unknown): error is DocsbaseError {
  return error instanceof DocsbaseError;
}
