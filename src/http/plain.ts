import { readCapped } from "../core/shared/bytes.js";

/**
 * A request as any runtime can describe it without building a fetch `Request`: the fetch handler
 * wraps a `Request` in one ({@link plainRequest}), `docsbase serve` describes Node's request with
 * one (src/cli/node-http.ts).
 */
export interface PlainRequest {
  readonly method: string;
  /**
   * The URL: absolute (a `Request`'s) or the request target as sent (`/v1/spaces?limit=5`), whose
   * path the handler reads without parsing it when it holds only plain characters.
   */
  readonly url: string;
  /** A header's value (the name in lower case), null when absent. */
  header(name: string): string | null;
  /**
   * Reads the whole body (empty when there is none), stopping as soon as it passes `maxBytes` and
   * rejecting with `tooLarge()`; a body that cannot be read rejects with `readError(error)`.
   */
  readBody(maxBytes: number, errors: BodyErrors): Promise<Uint8Array>;
  /** Drops a body that will not be read (a request refused before reading it). */
  discardBody(): void;
  /** The client's address as the runtime knows it (the socket's peer), if it knows it. */
  readonly address?: string | undefined;
  /**
   * The request as a fetch `Request`, for hooks written against one (the host's authentication,
   * `onError`); a runtime that has none builds one on the first call (without the body).
   */
  request(): Request;
}

/** What {@link PlainRequest.readBody} rejects with. */
export interface BodyErrors {
  readonly tooLarge: () => Error;
  readonly readError: (error: unknown) => Error;
}

/** An answer as any runtime can write it; header names are lower case. */
export interface PlainAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Uint8Array | ReadableStream<Uint8Array> | null;
}

/** A fetch `Request` as a {@link PlainRequest}. */
export function plainRequest(request: Request): PlainRequest {
  return {
    method: request.method,
    url: request.url,
    header: (name) => request.headers.get(name),
    readBody: (maxBytes, errors) =>
      request.body ? readCapped(request.body, maxBytes, errors) : Promise.resolve(new Uint8Array()),
    // Cancelling an unread stream only drops it; a locked or absent one has nothing to cancel.
    discardBody: () => {
      if (request.body && !request.body.locked) request.body.cancel().catch(() => {});
    },
    request: () => request,
  };
}

/** A {@link PlainAnswer} as a fetch `Response`. */
export function answerResponse(answer: PlainAnswer): Response {
  return new Response(answer.body as BodyInit | null, { status: answer.status, headers: answer.headers });
}
