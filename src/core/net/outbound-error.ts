/**
 * Why an outbound request failed. Stable: callers branch on it (an OpenAPI import records
 * `timeout` as the reference processing error `FETCH_TIMEOUT` and every other code as
 * `FETCH_ERROR`).
 */
export type OutboundErrorCode =
  /** Not an absolute http: or https: URL, or a URL the runtime cannot send (credentials in it). */
  | "invalid_url"
  /** The host is, or resolves to, an address the guard refuses (loopback, private...). */
  | "address_refused"
  /** More redirects than allowed (5 by default). */
  | "too_many_redirects"
  /** The whole exchange, resolution and body included, took longer than allowed. */
  | "timeout"
  /** The response body is larger than allowed. */
  | "too_large"
  /** Resolution failed, the connection failed or broke, or the runtime hid a redirect. */
  | "network_error";

/** Thrown by the outbound guard's `fetch` (see `createSafeFetch`) for refusals and failures. */
export class OutboundError extends Error {
  override readonly name = "OutboundError";
  constructor(
    readonly code: OutboundErrorCode,
    message: string,
    /** The URL of the hop that failed (after redirects, the last one). */
    readonly url: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isOutboundError(error: unknown): error is OutboundError {
  return error instanceof OutboundError;
}
