import { randomBytes } from "node:crypto";
import { DEFAULT_MAX_BODY_BYTES, type RequestHandler } from "../docsbase.js";
import { DocsbaseError, isDocsbaseError } from "../core/shared/errors.js";
import type { PlainAnswer } from "../http/plain.js";
import { errorAnswer, STATUS_OF } from "../http/status.js";
import { testDoubleHandler } from "../testing/admin.js";
import { createTestDocsbase, type TestDocsbase, type TestDocsbaseOptions } from "../testing/double.js";
import type { Fixture } from "../testing/fixture.js";

/** What `docsbase serve --test-double` serves: a fixture to start with, and a frozen clock's start. */
export interface TestDoubleOptions {
  readonly fixture?: Fixture;
  /** An ISO date: the clock starts there, frozen (`--now`); without it, it follows the system clock. */
  readonly now?: string;
}

/**
 * Thrown by the handler for a call a `networkError` fault hits: the server destroys the connection
 * without an answer, which is what a client sees of a network failure.
 */
export class DroppedConnection extends Error {
  override readonly name = "DroppedConnection";
}

/**
 * A test double (memory storage) and the node server's handler for it: `/_docsbase/` is its admin
 * API, everything else its `fetch`, so that HTTP calls are journaled and faulted. Jobs due now run
 * right after the call that queued them, as on a real server; later ones when the clock reaches them.
 * Without `operatorToken`, one is generated and returned as `printToken` for the server to print.
 */
export async function serveTestDouble(
  options: TestDoubleOptions & Omit<TestDocsbaseOptions, "fixture" | "now" | "runJobs" | "onUnserved">,
): Promise<{ test: TestDocsbase; handler: RequestHandler; printToken?: string }> {
  const { fixture, now, operatorToken, ...rest } = options;
  const printToken = operatorToken ? undefined : `dbt_${randomBytes(24).toString("base64url")}`;
  const test = await createTestDocsbase({
    ...rest,
    ...(fixture ? { fixture } : {}),
    ...(now !== undefined ? { now } : {}),
    operatorToken: operatorToken ?? printToken,
    runJobs: "auto",
  });
  const handle = testDoubleHandler(test);
  const bodyErrors = {
    tooLarge: () => new DocsbaseError("payload_too_large", "The request body is too large"),
    readError: () => new DocsbaseError("bad_request", "The request body could not be read"),
  };
  const handler: RequestHandler = async (plain) => {
    let response: Response;
    try {
      const withBody = plain.method !== "GET" && plain.method !== "HEAD";
      const body = withBody ? await plain.readBody(DEFAULT_MAX_BODY_BYTES, bodyErrors) : undefined;
      const copy = plain.request();
      const headers = new Headers(copy.headers);
      headers.delete("content-length");
      headers.delete("transfer-encoding");
      const request = new Request(copy.url, {
        method: plain.method,
        headers,
        ...(body && body.length > 0 ? { body: body as Uint8Array<ArrayBuffer> } : {}),
      });
      response = await handle(request);
    } catch (error) {
      // The double's `fetch` rejects with a TypeError for a network fault, and for nothing else.
      if (error instanceof TypeError) throw new DroppedConnection(error.message);
      if (isDocsbaseError(error)) return errorAnswer(STATUS_OF[error.code], error.message);
      throw error;
    }
    return answerOf(response);
  };
  return { test, handler, ...(printToken ? { printToken } : {}) };
}

async function answerOf(response: Response): Promise<PlainAnswer> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  const empty = response.status === 204 || response.status === 304;
  return { status: response.status, headers, body: empty ? null : bytes };
}
