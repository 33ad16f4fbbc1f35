/**
 * What a call of an operation docsbase does not serve rejects with, when the test double was made
 * with `onUnserved: "throw"`: the 501 answer's message, with the operation it names.
 *
 * @example
 * const test = await createTestDocsbase({ onUnserved: "throw" });
 * await test.request("POST", "/orgs/acme/ask").catch((error) => error.operationId); // "askInOrganization"
 */
export class UnservedOperationError extends Error {
  override readonly name = "UnservedOperationError";
  /** The reference's id of the operation, e.g. `askInOrganization`. */
  readonly operationId: string;
  /** Its method, upper case. */
  readonly method: string;
  /** Its path template under `/v1`, e.g. `/orgs/{organizationId}/ask`. */
  readonly path: string;

  constructor(message: string) {
    super(message);
    const [, operationId = "", method = "", path = ""] = UNSERVED_MESSAGE.exec(message) ?? [];
    this.operationId = operationId;
    this.method = method;
    this.path = path;
  }
}

/** The message of the handler's 501 answer (src/http/unserved.ts, `unservedMessage`). */
const UNSERVED_MESSAGE = /^docsbase does not implement (\S+) \((\S+) (\S+)\)$/;

/**
 * `fetch` with a 501 for an unserved operation turned into a rejection: the double's `fetch`, and so
 * `request` and an official client wired to it, when `onUnserved` is `"throw"`.
 */
export function throwingUnserved(
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>,
): (input: RequestInfo | URL, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (response.status !== 501) return response;
    const message = ((await response.clone().json()) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === "string" && UNSERVED_MESSAGE.test(message))
      throw new UnservedOperationError(message);
    return response;
  };
}
