import type { GitBookAPI } from "@gitbook/api";
import { isMemoryStorage, memoryStorage } from "../adapters/memory/index.js";
import type { Client } from "../core/client.js";
import type { Operations } from "../core/operations.js";
import { isDocsbaseError } from "../core/shared/errors.js";
import type { InvokeObserver, ObservedAnswer, ObservedCall } from "../core/shared/observe.js";
import { createDocsbase, type Docsbase, type DocsbaseOptions } from "../docsbase.js";
import { throwingUnserved } from "./unserved.js";
import { STATUS_OF } from "../http/status.js";
import { nextJobAt } from "../core/jobs/index.js";
import { createTestTime, settlingCalls, type TestClock, type TestJobs, type TestTime } from "./clock.js";
import { createFaults, FaultError, type Fault, type FaultOptions } from "./faults.js";
import { officialClient } from "./client.js";
import { createJournal, pathOf, type CallEntry, type CallJournal } from "./journal.js";
import type { Fixture } from "./fixture.js";
import { loadFixture } from "./fixture-load.js";
import { requestedIds } from "./fixture-ids.js";
import { randomId } from "../core/shared/world.js";
import { createSnapshots, type TestSnapshot } from "./snapshots.js";

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
  /**
   * An official `GitBookAPI` client (`@gitbook/api`, an optional peer dependency imported on the
   * first call) acting as `user`, wired to the double: `endpoint` and `fetch` are this double's,
   * so its calls are journaled and faults and `onUnserved` apply to them. Rejects, saying to
   * install `@gitbook/api`, when the package is missing.
   *
   * @example
   * ```ts
   * const api = await test.client(alice);
   * const { data: user } = await api.user.getAuthenticatedUser(); // user.id === alice.id
   * ```
   */
  client(user: TestUser): Promise<GitBookAPI>;
  /** Sends a JSON request as `token` and returns the status and the parsed body. */
  // Bodies are whatever the test expects; `any` by default keeps assertions on them terse.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  request<T = any>(
    method: string,
    path: string,
    options?: { token?: string | null; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; body: T; headers: Headers }>;
  /**
   * The journal: every call through this double, over its `fetch` (so `request` and an official
   * client given it) or in process (`as`), in the order they ended; a filter keeps the entries
   * equal on each key it gives. `test.calls.clear()` empties it. The double's own `createUser` is
   * not journaled.
   *
   * @example
   * ```ts
   * await test.as(alice).createOrganization({ body: { title: "Acme" } });
   * const [call] = test.calls({ operationId: "createOrganization" });
   * // call: { method: "POST", path: "/orgs", body: { title: "Acme" }, status: 201, user: alice.id, ... }
   * ```
   */
  readonly calls: CallJournal;
  /**
   * Makes the calls of an operation (`{ operationId }`), or of a method and path (`{ method, path }`,
   * the path as the API writes it, `/spaces/{spaceId}`, or as called), fail without reaching stored
   * data: an error answer (`status`, default 500; a 429 with `Retry-After` and the rate-limit
   * headers), a network failure (`networkError`), or a delay (`delayMs`) before the real answer.
   * Faults apply to calls whose token and input are valid, in the order they were made; the first
   * that hits a call decides. See docs/testing.md, "Faults".
   */
  fault(options: FaultOptions): Fault;
  /**
   * Adds a fixture's objects to the double, created by the API's operations (not journaled); its
   * references may also name objects already in the double. A bad fixture rejects with a
   * `FixtureError` naming its path, before anything is created. See docs/testing.md, "Fixtures".
   */
  seed(fixture: Fixture): Promise<void>;
  /** The double's clock: `now()`, `set(time)`, `advance(duration)`. See docs/testing.md, "Time and jobs". */
  readonly clock: TestClock;
  /** The double's background jobs: `drain()` runs those due now, `pending()` lists those waiting. */
  readonly jobs: TestJobs;
  /**
   * The stored state now (what every caller reads), for `restore`. Cheap whatever the size of the
   * world: unchanged data is shared, and a later write copies only what it changes. See
   * docs/testing.md, "Snapshots, forks and reset".
   */
  snapshot(): Promise<TestSnapshot>;
  /** Puts back the stored state of one of this double's snapshots; the journal, faults and clock stay. */
  restore(snapshot: TestSnapshot): Promise<void>;
  /**
   * An independent double with the same options, starting from this one's stored state, with an
   * empty journal and no faults: neither sees the other's writes.
   */
  fork(): Promise<TestDocsbase>;
  /** Back to the state right after `createTestDocsbase` returned: its data and clock, no journal, no faults. */
  reset(): Promise<void>;
}

/** `createDocsbase`'s options, and the double's own. */
export interface TestDocsbaseOptions extends Partial<DocsbaseOptions> {
  /**
   * What a call of an operation of the reference that docsbase does not serve gets: `"respond"`
   * (the default) its 501 answer, `"throw"` a rejection of the call (`fetch`, `request`, an
   * official client wired to `fetch`) with an `UnservedOperationError` naming the operation.
   */
  readonly onUnserved?: "respond" | "throw";
  /** The objects the double starts with: see {@link TestDocsbase.seed}. */
  readonly fixture?: Fixture;
  /** Starts the clock at this time and keeps it frozen: it moves only by `clock.set` and `clock.advance`. */
  readonly now?: TestTime;
  /**
   * When the jobs a call queues due now run: `"manual"` (the default) when the test drains them
   * (`jobs.drain()`, `clock.advance`); `"auto"` before the call's promise resolves.
   */
  readonly runJobs?: "auto" | "manual";
  /** The operator's token (16 characters or more). Default `"dbt_operator_test_token"`. */
  readonly operatorToken?: string;
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
  const {
    onUnserved = "respond",
    fixture,
    now,
    runJobs = "manual",
    operatorToken: givenToken = "dbt_operator_test_token",
    ...options
  } = testOptions;
  const baseUrl = options.baseUrl ?? "http://docsbase.test";
  const storage = options.storage ?? memoryStorage();
  const time = createTestTime(
    { ...(now !== undefined ? { now } : {}), ...(options.clock ? { clock: options.clock } : {}) },
    { run: () => docsbase.runJobs(), next: () => nextJobAt({ storage }), list: () => docsbase.jobs() },
  );
  const clock = time.read;
  const { journal, record } = createJournal();
  const faults = createFaults(clock);
  // The double's own calls (createUser's), told apart by their body objects.
  const own = new WeakSet<object>();
  // The calls under way over `fetch`, by request: the observer tells each what it reached.
  const overHttp = new WeakMap<Request, HttpCall>();
  const networkFailures = new WeakSet<object>();
  const observe: InvokeObserver = {
    async admitted(call) {
      const effect = isOwn(call) ? undefined : faults.effectOn(call);
      if (!effect) return undefined;
      if (effect.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, effect.delayMs));
      const http = call.raw.http && overHttp.get(call.raw.http.request());
      if (effect.networkError) {
        if (http) {
          http.networkError = true;
          return { status: 500, headers: {} };
        }
        const failure = new TypeError("fetch failed (network failure injected by the test double)");
        networkFailures.add(failure);
        throw failure;
      }
      if (!effect.answer) return undefined;
      if (http) return effect.answer;
      throw new FaultError(effect.answer.status, effect.answer.body, effect.answer.headers);
    },
    ended(call, result) {
      if (isOwn(call)) return;
      const http = call.raw.http && overHttp.get(call.raw.http.request());
      if (http) {
        http.call = call;
        if ("answer" in result) http.answer = result.answer;
        return;
      }
      const answer = "answer" in result ? result.answer : answerOfError(result.error, networkFailures);
      record(entryOf(call, answer, clock()));
    },
  };
  const isOwn = (call: ObservedCall) => typeof call.raw.body === "object" && own.has(call.raw.body as object);
  // Random ids, or the id a fixture gives to the object being created.
  const ids = requestedIds(options.ids ?? (() => randomId()));
  const docsbase = createDocsbase({
    ...options,
    storage,
    clock,
    baseUrl,
    observe: runJobs === "auto" ? settlingCalls(observe, time.settle) : observe,
    ids: () => ids.next(),
  });
  const snapshots = createSnapshots(docsbase, storage);
  const { token, userId: operatorId } = await docsbase.bootstrap({ token: givenToken });
  const operatorToken = token ?? givenToken;
  const send = async (input: RequestInfo | URL, init?: RequestInit) => {
    // A Request given alone is sent as it is (its body is read once, by the handler).
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    const http: HttpCall = { networkError: false };
    overHttp.set(request, http);
    const response = await docsbase.fetch(request);
    const entry = await httpEntryOf(request, response, http, clock());
    record(entry);
    if (http.networkError) throw new TypeError("fetch failed (network failure injected by the test double)");
    return response;
  };
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
      const userBody = { displayName, email: email ?? `user${users}-${Date.now()}@example.com` };
      const tokenBody = {};
      own.add(userBody).add(tokenBody);
      const user = await operator.createUser({ body: userBody });
      const { token: userToken } = await operator.createUserToken({ userId: user.id, body: tokenBody });
      return { id: user.id, token: userToken };
    },
    as(user) {
      const token = typeof user === "string" ? user : user.token;
      let client = clients.get(token);
      if (!client) clients.set(token, (client = docsbase.as({ token })));
      return client;
    },
    client: (user) => officialClient(test, typeof user === "string" ? user : user.token),
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
    calls: journal,
    fault: (faultOptions) => faults.add(faultOptions),
    seed: (seeded) =>
      loadFixture(
        { docsbase, storage, operatorId, operatorToken, ids, clock, own: (body) => (own.add(body), body) },
        seeded,
      ),
    clock: time.clock,
    jobs: time.jobs,
    snapshot: () => snapshots.take(),
    restore: (snapshot) => snapshots.restore(snapshot),
    async fork() {
      // The fork starts from the stored state (the fixture included) and the clock as they are now.
      const { fixture: _fixture, now: _now, ...same } = testOptions;
      const from = await snapshots.fork();
      const position = time.position();
      const fork = await createTestDocsbase({
        ...same,
        storage: memoryStorage({ from }),
        ...("now" in position && !options.clock ? { now: position.now } : {}),
      });
      if ("shift" in position && !options.clock) fork.clock.set(Date.now() + position.shift);
      return fork;
    },
    async reset() {
      await snapshots.restore(initial, "reset");
      time.rewind();
      journal.clear();
      faults.clear();
    },
  };
  if (fixture) await test.seed(fixture);
  // What `reset` goes back to: the state as `createTestDocsbase` returns it.
  const initial = isMemoryStorage(storage) ? await snapshots.take() : undefined;
  return test;
}

/** A call under way over the double's `fetch`: what the observer saw of it. */
interface HttpCall {
  call?: ObservedCall;
  /** The operation's answer, whose body the response serializes (none when the call threw). */
  answer?: ObservedAnswer;
  networkError: boolean;
}

/** A call's entry; `path` as called (an HTTP call's own), else filled in from its parameters. */
function entryOf(call: ObservedCall, answer: ObservedAnswer, at: Date, path = pathOf(call)): CallEntry {
  const input = call.input ?? call.raw;
  return {
    operationId: call.operationId,
    method: call.method.toUpperCase(),
    path,
    params: input.params,
    query: input.query,
    body: input.body,
    status: answer.status,
    response: answer.body,
    user: call.userId,
    at,
  };
}

/** What HTTP would have answered for an error an in-process call rejects with (status 0: no answer). */
function answerOfError(error: unknown, networkFailures: WeakSet<object>): ObservedAnswer {
  if (error instanceof FaultError) return { status: error.status, body: error.body, headers: error.headers };
  if (typeof error === "object" && error !== null && networkFailures.has(error))
    return { status: 0, headers: {} };
  const status = isDocsbaseError(error) ? STATUS_OF[error.code] : 500;
  const message = isDocsbaseError(error) ? error.message : "Internal server error";
  return { status, body: { error: { code: status, message } }, headers: {} };
}

/** The entry of a call over `fetch`, from its answer and what the observer saw of it (if anything). */
async function httpEntryOf(
  request: Request,
  response: Response,
  http: HttpCall,
  at: Date,
): Promise<CallEntry> {
  let answer: ObservedAnswer = { status: 0, headers: {} };
  if (!http.networkError) {
    const json = /json/i.test(response.headers.get("content-type") ?? "");
    // The answer's body is what the response carries as JSON: journaled as it is, rather than read
    // back from a clone of the response (a stream copy that tripled a call's cost).
    const body = !json
      ? undefined
      : http.answer?.body !== undefined
        ? http.answer.body
        : await response
            .clone()
            .text()
            .then((text) => (text ? JSON.parse(text) : undefined));
    answer = { status: response.status, body, headers: {} };
  }
  if (http.call) return entryOf(http.call, answer, at, pathUnderV1(request.url));
  const url = new URL(request.url);
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) query[key] = value;
  return {
    operationId: undefined,
    method: request.method.toUpperCase(),
    path: pathUnderV1(request.url),
    params: {},
    query,
    body: undefined,
    status: answer.status,
    response: answer.body,
    user: undefined,
    at,
  };
}

/** A request's path under `/v1` (`/spaces/x`); a path outside it as it is. */
function pathUnderV1(url: string): string {
  // A Request's url is absolute and normalized: the path starts at the first "/" after "scheme://".
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const end = url.search(/[?#]/);
  const pathname = start < 0 ? "/" : url.slice(start, end < 0 ? undefined : end);
  return pathname.startsWith("/v1/") ? pathname.slice(3) : pathname;
}
