import { memoryStorage } from "../adapters/memory/index.js";
import { createDocsbase, type Docsbase, type DocsbaseOptions } from "../docsbase.js";

export interface TestDocsbase {
  readonly docsbase: Docsbase;
  /** The operator's token. */
  readonly operatorToken: string;
  /** The base URL the official client takes as `endpoint` (it appends `/v1` itself). */
  readonly endpoint: string;
  /** A `fetch` bound to the handler: pass it where a client takes a custom fetch. */
  readonly fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  /** Creates a user and a token for them. */
  createUser(displayName: string, email?: string): Promise<{ id: string; token: string }>;
  /** Sends a JSON request as `token` and returns the status and the parsed body. */
  // Bodies are whatever the test expects; `any` by default keeps assertions on them terse.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  request<T = any>(
    method: string,
    path: string,
    options?: { token?: string | null; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; body: T; headers: Headers }>;
}

/**
 * An in-process docsbase for tests of code that calls this API: no network, no files. Storage is
 * in memory unless given; the clock and ids can be injected like in `createDocsbase`.
 *
 * @example
 * ```ts
 * import { createTestDocsbase } from "docsbase/testing";
 * import { GitBookAPI } from "@gitbook/api";
 *
 * const test = await createTestDocsbase();
 * const api = new GitBookAPI({ endpoint: test.endpoint, authToken: test.operatorToken,
 *   serviceBinding: { fetch: test.fetch } });
 * const { data: user } = await api.user.getAuthenticatedUser();
 * ```
 */
export async function createTestDocsbase(options: Partial<DocsbaseOptions> = {}): Promise<TestDocsbase> {
  const baseUrl = options.baseUrl ?? "http://docsbase.test";
  const docsbase = createDocsbase({ storage: memoryStorage(), ...options, baseUrl });
  const { token } = await docsbase.bootstrap({ token: "dbt_operator_test_token" });
  const operatorToken = token ?? "dbt_operator_test_token";
  const fetch = (input: RequestInfo | URL, init?: RequestInit) => docsbase.fetch(new Request(input, init));
  let users = 0;
  const test: TestDocsbase = {
    docsbase,
    operatorToken,
    endpoint: baseUrl,
    fetch,
    async createUser(displayName, email) {
      users++;
      const operator = docsbase.as({ token: operatorToken });
      const user = await operator.createUser({
        body: { displayName, email: email ?? `user${users}-${Date.now()}@example.com` },
      });
      const { token: userToken } = await operator.createUserToken({ userId: user.id });
      return { id: user.id, token: userToken };
    },
    async request(method, path, requestOptions = {}) {
      const headers: Record<string, string> = { ...requestOptions.headers };
      const token = requestOptions.token === undefined ? operatorToken : requestOptions.token;
      if (token) headers["authorization"] = `Bearer ${token}`;
      let body: string | undefined;
      if (requestOptions.body !== undefined) {
        headers["content-type"] ??= "application/json";
        body =
          typeof requestOptions.body === "string" ? requestOptions.body : JSON.stringify(requestOptions.body);
      }
      const response = await fetch(`${baseUrl}/v1${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
      });
      const text = await response.text();
      return {
        status: response.status,
        body: text ? JSON.parse(text) : undefined,
        headers: response.headers,
      };
    },
  };
  return test;
}
