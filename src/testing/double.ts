import { memoryStorage } from "../adapters/memory/index.js";
import type { Client } from "../core/client.js";
import type { Operations } from "../core/operations.js";
import { createDocsbase, type Docsbase, type DocsbaseOptions } from "../docsbase.js";
import { throwingUnserved } from "./unserved.js";

/** The typed in-process client of docsbase's operations, as `TestDocsbase.as` returns it. */
export type TestClient = Client<Operations>;

/** Whom a typed client acts as: a token, or a user as `createUser` returns it. */
export type TestUser = string | { readonly token: string };

export interface TestDocsbase {
  readonly docsbase: Docsbase;
  /** The operator's token. */
  readonly operatorToken: string;
  /** The base URL the official client takes as `endpoint` (it appends `/v1` itself). */
  readonly endpoint: string;
  /** A `fetch` bound to the handler: pass it where a client takes a custom fetch. */
  readonly fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  /** Creates a user and a token for them (the user's email is unique unless given). */
  createUser(displayName: string, email?: string): Promise<{ id: string; token: string }>;
  /**
   * The typed in-process client acting as `user`, a token or a user as `createUser` returns it
   * (`docsbase.as({ token })`): one method per operation, named by its `operationId`, taking its
   * path and query parameters side by side and `body`, and resolving to its response body, all
   * typed from the operation's schemas, so that a renamed field fails to compile. Input is
   * validated as over HTTP, and a refusal rejects with the `DocsbaseError` that HTTP turns into
   * its answer: the same message, and a `code` per status (`"not_found"` for 404, `"forbidden"`
   * for 403, `"bad_request"` for 400...). What only HTTP shows (a delete's 205 or 204, headers,
   * raw bodies) takes `request`.
   *
   * @example
   * ```ts
   * const test = await createTestDocsbase();
   * const alice = await test.createUser("Alice");
   * const org = await test.as(alice).createOrganization({ body: { title: "Acme" } });
   * const { items } = await test.as(alice).listSpacesInOrganizationById({ organizationId: org.id });
   * await expect(test.as("dbt_unknown").getAuthenticatedUser()).rejects.toMatchObject({
   *   code: "unauthorized",
   * });
   * ```
   */
  as(user: TestUser): TestClient;
  /** Sends a JSON request as `token` and returns the status and the parsed body. */
  // Bodies are whatever the test expects; `any` by default keeps assertions on them terse.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  request<T = any>(
    method: string,
    path: string,
    options?: { token?: string | null; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; body: T; headers: Headers }>;
}

/** `createDocsbase`'s options, and the double's own. */
export interface TestDocsbaseOptions extends Partial<DocsbaseOptions> {
  /**
   * What a call of an operation of the reference that docsbase does not serve gets: `"respond"`
   * (the default) its 501 answer, `"throw"` a rejection of the call (`fetch`, `request`, an
   * official client wired to `fetch`) with an `UnservedOperationError` naming the operation.
   */
  readonly onUnserved?: "respond" | "throw";
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
export async function createTestDocsbase(testOptions: TestDocsbaseOptions = {}): Promise<TestDocsbase> {
  const { onUnserved = "respond", ...options } = testOptions;
  const baseUrl = options.baseUrl ?? "http://docsbase.test";
  const docsbase = createDocsbase({ storage: memoryStorage(), ...options, baseUrl });
  const { token } = await docsbase.bootstrap({ token: "dbt_operator_test_token" });
  const operatorToken = token ?? "dbt_operator_test_token";
  const send = (input: RequestInfo | URL, init?: RequestInit) => docsbase.fetch(new Request(input, init));
  const fetch = onUnserved === "throw" ? throwingUnserved(send) : send;
  let users = 0;
  // One client per token: tests write `test.as(user).x()` inline, and a client has a method per operation.
  const clients = new Map<string, TestClient>();
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
    as(user) {
      const token = typeof user === "string" ? user : user.token;
      let client = clients.get(token);
      if (!client) clients.set(token, (client = docsbase.as({ token })));
      return client;
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
