import { createClient, type Client } from "./core/client.js";
import type { ConversationAnalyzer } from "./core/conversations/analyzer.js";
import {
  backgroundJobs,
  listJobs,
  type BackgroundContext,
  type JobInfo,
  type JobOptions,
  type JobQuery,
} from "./core/jobs/index.js";
import { assemble, type OperationsOf, type ResourceModule } from "./core/module.js";
import { MODULES } from "./core/modules.js";
import { migrateRevisions } from "./core/content-tree/migrate.js";
import { DEFAULT_CACHE_BYTES, DerivedCache } from "./core/shared/cache.js";
import type { Operations } from "./core/operations.js";
import { badRequest, DocsbaseError } from "./core/shared/errors.js";
import type { InvokeObserver } from "./core/shared/observe.js";
import { createSafeFetch, type SafeFetchOptions } from "./core/net/outbound.js";
import { type ResolveTxt, runtimeTxtResolver } from "./core/net/resolve-txt.js";
import { randomId, type Caller, type Context, type World } from "./core/shared/world.js";
import type { Translator } from "./core/translations/translator.js";
import type { Storage } from "./core/storage/port.js";
import { watchWrites } from "./core/storage/watch.js";
import { tokensTable, usersTable } from "./core/users/tables.js";
import { TokenCache, type TokenCacheOptions } from "./core/users/token-cache.js";
import { bootstrapOperator, type BootstrapResult } from "./core/users/bootstrap.js";
import { authenticateToken } from "./core/users/tokens.js";
import { downloadRoutes } from "./http/downloads.js";
import { corsOriginsOf } from "./http/cors.js";
import { createHandler, type HttpRoute } from "./http/handler.js";
import {
  type AnswerRouted,
  type HostRouter,
  mountRoutes,
  type MountOptions,
  type Routed,
} from "./http/mount.js";
import { answerResponse, type PlainAnswer, type PlainRequest, plainRequest } from "./http/plain.js";
import { clientAddressOf, createRateLimiter, type RateLimitOptions } from "./http/rate-limit.js";
import { openApiDocument } from "./http/openapi.js";
import { countedStorage } from "./core/shared/counters.js";

export interface DocsbaseOptions {
  /** Where data lives: `memoryStorage()`, `sqliteStorage({ filename })`... */
  readonly storage: Storage;
  /** Absolute base of API URLs in responses, without `/v1`. Default `http://localhost`. */
  readonly baseUrl?: string;
  /** Absolute base of application URLs (`urls.app`). Default: `baseUrl`. */
  readonly appUrl?: string;
  /**
   * Where a renderer serves the published sites, as GitBook's renderer does at
   * `<its origin>/url/<host>/<path>`: `http://localhost:3000/url/`. The published URLs docsbase
   * hands out (`urls.published` of sites, sections, site spaces, share links and spaces; redirect
   * targets) are then this URL followed by the site's own URL without its scheme. Published lookups
   * still take the site's own URL. Default: none, the site's own URL. An absolute `http:` or
   * `https:` URL without query or fragment, else `createDocsbase` throws.
   */
  readonly publishedUrl?: string;
  /**
   * Absolute base of download URLs (files' `downloadURL`, PDF export URLs), without `/v1`: an
   * origin of their own, which the host routes to this same handler, so that nothing a user
   * uploads is ever served from the API's or the host app's origin. Default: `baseUrl`. See
   * docs/api.md, "Downloads".
   */
  readonly downloadBaseUrl?: string;
  /** Show PDF files and exports inline rather than as attachments. Default `false`. */
  readonly inlinePdf?: boolean;
  /** Current time. Default: the system clock. */
  readonly clock?: () => Date;
  /** Identifier generator. Default: 20 random base62 characters. */
  readonly ids?: () => string;
  /** Largest accepted request body, in bytes. Default 10 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * Origins whose pages and workers may call the API from the browser across origins (CORS), as
   * the `Origin` header writes them (`https://app.example.com`), or `"*"` for any: `fetch`
   * answers their preflight requests and adds the CORS headers to every answer to them. The API
   * authenticates with bearer tokens, never cookies, so no credentials are allowed. Default: none
   * (no CORS header; a preflight answers 405). `createDocsbase` throws on an entry that is not an
   * origin. See docs/api.md, "Cross-origin requests".
   */
  readonly corsOrigins?: readonly string[];
  /**
   * The memory budget, in bytes, of derived values kept between requests (tree nodes, page
   * versions, materialized revisions, search indexes, link graphs, rendered documents), each
   * accounted by its estimated size. Default 512 MiB (docs/architecture.md, "Content trees").
   */
  readonly cacheBytes?: number;
  /** Where unexpected errors go. Default: `console.error`. */
  readonly onError?: (error: unknown, request: Request) => void;
  /**
   * Background jobs: attempts before a job is kept as dead (default 8), lease length (default
   * 5 minutes), and `onFailure`, told of each failed attempt. See docs/architecture.md.
   */
  readonly jobs?: JobOptions;
  /**
   * Lets outbound HTTP (`world.fetch`: OpenAPI URLs, integration events...) reach loopback,
   * private, link-local and other non-public addresses, for local development. Default `false`.
   */
  readonly allowPrivateNetwork?: boolean;
  /**
   * Outbound HTTP: `transport` (default: the runtime's `fetch`), `resolveHost`, `timeoutMs`
   * (default 10 s), `maxResponseBytes` (default 10 MiB), `maxRedirects` (default 5). The address
   * rule applies around an injected transport too. See docs/architecture.md, "Outbound HTTP".
   */
  readonly outbound?: Omit<SafeFetchOptions, "allowPrivateNetwork">;
  /**
   * Custom hostnames of sites: a site answers for one only once the claim is verified by a DNS TXT
   * record or approved by the operator (`verify`, default `true`); `false` makes a claim answer at
   * once, first come first served, for single-tenant use. `resolveTxt` reads TXT records (default:
   * the runtime's resolver, `node:dns` or `Deno.resolveDns`). See docs/sites.md, "Custom hostnames".
   */
  readonly hostnames?: { readonly verify?: boolean; readonly resolveTxt?: ResolveTxt | null };
  /**
   * The translation engine of translation runs: an async function from `{ texts, from, to,
   * instructions }` to the translated texts (its second argument lends it the guarded outbound
   * fetch); `libreTranslate({ url })` (src/core/translations/libretranslate.ts) is one. Without it, creating or running a
   * translation answers 503. See docs/translations.md.
   */
  readonly translator?: Translator;
  /**
   * What analyses ingested conversations into issues (`analyze`, and the similarity `threshold`
   * from which an issue joins a cluster). Default: the built-in lexical analyzer, in process and
   * deterministic. See docs/conversations.md.
   */
  readonly conversationAnalyzer?: ConversationAnalyzer;
  /**
   * The host app's own authentication, tried on every HTTP request before the bearer token: the
   * docsbase user a request stands for (from the host's session cookie, say), or null to fall back
   * to `Authorization: Bearer`. The user must exist in docsbase; an unknown id answers 401.
   */
  readonly authenticate?: (request: Request) => Promise<HostIdentity | null> | HostIdentity | null;
  /**
   * Resource modules of the host's own, mounted beside docsbase's: their tables, operations
   * (under `/v1`, in the OpenAPI document and the typed client), jobs and hooks.
   */
  readonly modules?: readonly ResourceModule[];
  /**
   * Rate limits, answered 429 with `Retry-After` and `X-RateLimit-*`: failed authentications per
   * client address and per token prefix, and requests per caller. Default: none (`false`), for
   * in-process and test-double use; `true` applies `DEFAULT_RATE_LIMIT`, an object overrides some
   * of its limits. The standalone server turns them on. See docs/api.md, "Rate limits".
   */
  readonly rateLimit?: boolean | RateLimitOptions;
  /**
   * The address a request comes from, which failed authentications and anonymous requests count
   * against (the standalone server passes the socket's peer). Without it, and without
   * `trustProxy`, limits per address do not apply.
   */
  readonly clientAddress?: (request: Request) => string | undefined;
  /**
   * Take the client address from `X-Forwarded-For`, written by this many proxies in front
   * (`true`: one). Default `false`: the header is ignored, since any client can send it.
   */
  readonly trustProxy?: boolean | number;
  /**
   * Bearer tokens seen in the last `ttlMs` (default 5 s, by `clock`) authenticate without a storage
   * read; at most `maxEntries` (default 10,000) are kept. A revocation or user change on this
   * instance takes effect at once; on another instance sharing the database, within `ttlMs`.
   * `false` reads every token from storage. See docs/scaling.md, "Bearer tokens".
   */
  readonly tokenCache?: TokenCacheOptions | false;
  /**
   * Told of every operation call, over HTTP or in process, around it: once its input is valid (it
   * may then wait, throw, or answer in the operation's stead) and when it ends. What the test
   * double's journal and faults are made of (docs/testing.md); absent, calls pay nothing for it.
   */
  readonly observe?: InvokeObserver;
}

/** Who a host app says a request comes from: a docsbase user id. */
export interface HostIdentity {
  readonly userId: string;
}

/** Who an in-process client acts as. */
export type ClientAuth = { readonly token: string } | { readonly userId: string };

export interface Docsbase<Ops extends Operations = Operations> {
  /**
   * Serves the `/v1` API: usable as a fetch handler on any runtime. Pass the platform's execution
   * context (Hono's `c.executionCtx`, a Worker's `ctx`) to have a job queued due now by this
   * request drained through its `waitUntil`.
   *
   * @example
   * ```ts
   * export default { fetch: (request, env, ctx) => docsbase.fetch(request, ctx) };
   * ```
   */
  fetch(request: Request, context?: BackgroundContext): Promise<Response>;
  /**
   * A typed in-process client acting as the given caller, with HTTP's validation and errors.
   * Throws a `bad_request` `DocsbaseError` at once when `token` or `userId` is not a string (an
   * unset environment variable, for example); a string that names no one rejects each call with
   * `unauthorized`.
   */
  as(auth: ClientAuth): Client<Ops>;
  /**
   * Ensures the operator user exists; see {@link BootstrapResult}. A `token` is the operator's
   * token from now on; it must be 16 characters or more, as `docsbase serve` requires of
   * `DOCSBASE_ADMIN_TOKEN` (a `bad_request` `DocsbaseError` naming `token` otherwise). Without
   * one, on an empty database, the result carries the token created for the operator.
   */
  bootstrap(options?: { token?: string }): Promise<BootstrapResult>;
  /**
   * Runs the background jobs due now by the clock (permanent deletions...), including retries
   * whose backoff has passed; resolves with how many it started, failed ones included.
   */
  runJobs(): Promise<number>;
  /** The stored jobs, queued, running and dead ones (with their last error); for inspection. */
  jobs(query?: JobQuery): Promise<JobInfo[]>;
  /** The OpenAPI 3.1 document of the API. */
  openApi(): Record<string, unknown>;
  /**
   * The derived-value cache's figures, for monitoring: estimated bytes held (never above
   * `maxBytes`, the `cacheBytes` option) and entries.
   */
  readonly cache: { readonly bytes: number; readonly maxBytes: number; readonly size: number };
  /** Starts no further job, waits for the jobs under way, then closes the storage. */
  close(): Promise<void>;
}

/** Refuses a caller that names no one: a missing token must not surface as a crash deep inside hashing. */
function checkClientAuth(auth: unknown): asserts auth is ClientAuth {
  const given = typeof auth === "object" && auth !== null ? (auth as Record<string, unknown>) : {};
  const field = "userId" in given ? "userId" : "token";
  const value = given[field];
  if (typeof value === "string") return;
  const got = value === null ? "null" : typeof value;
  throw badRequest(`${field}: must be a string, got ${got}: as() takes { token } or { userId }`);
}

/** Default request-body limit: large enough for base64 file uploads of a few MiB. */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** The `publishedUrl` option with one trailing slash, or an error naming the option. */
function publishedUrlBase(text: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.search || url.hash) {
    throw new Error(
      `publishedUrl must be an absolute http:// or https:// URL without query or fragment, got "${text}"`,
    );
  }
  return `${text.replace(/\/+$/, "")}/`;
}

/**
 * Creates a docsbase instance over a storage adapter.
 *
 * @example
 * ```ts
 * import { createDocsbase } from "docsbase";
 * import { memoryStorage } from "docsbase/adapters/memory";
 *
 * const docsbase = createDocsbase({ storage: memoryStorage(), baseUrl: "http://localhost:8787" });
 * const { token } = await docsbase.bootstrap();
 * const response = await docsbase.fetch(
 *   new Request("http://localhost:8787/v1/user", { headers: { authorization: `Bearer ${token}` } }),
 * );
 * ```
 */
export function createDocsbase<const Extra extends readonly ResourceModule[] = []>(
  options: DocsbaseOptions & { readonly modules?: Extra },
): Docsbase<Operations & OperationsOf<Extra>> {
  const api = assemble([...MODULES, ...(options.modules ?? [])]);
  const operations = api.operations as Operations & OperationsOf<Extra>;
  const baseUrl = (options.baseUrl ?? "http://localhost").replace(/\/+$/, "");
  const tokenCache = options.tokenCache === false ? undefined : new TokenCache(options.tokenCache);
  const world: World = {
    // Keeps the counters that list counts read, in every write transaction (shared/counters.ts),
    // and drops what the token cache holds of tokens and users this instance writes.
    storage: countedStorage(
      tokenCache
        ? watchWrites(options.storage, [tokensTable, usersTable], (written) =>
            tokenCache.forgetWritten(written),
          )
        : options.storage,
      api.counts,
    ),
    clock: options.clock ?? (() => new Date()),
    ids: options.ids ?? (() => randomId()),
    baseUrl,
    appUrl: (options.appUrl ?? baseUrl).replace(/\/+$/, ""),
    ...(options.publishedUrl !== undefined ? { publishedUrl: publishedUrlBase(options.publishedUrl) } : {}),
    ...(options.downloadBaseUrl ? { downloadBaseUrl: options.downloadBaseUrl.replace(/\/+$/, "") } : {}),
    cache: new DerivedCache(options.cacheBytes ?? DEFAULT_CACHE_BYTES),
    fetch: createSafeFetch({
      ...options.outbound,
      allowPrivateNetwork: options.allowPrivateNetwork ?? false,
    }),
    ...(options.translator ? { translator: options.translator } : {}),
    ...(options.conversationAnalyzer ? { conversationAnalyzer: options.conversationAnalyzer } : {}),
    jobQueued: (runAt) => jobs.jobQueued(runAt),
    lifecycle: api.lifecycle(() => world),
    ...(options.observe ? { observe: options.observe } : {}),
    hostnames: {
      verify: options.hostnames?.verify ?? true,
      resolveTxt:
        options.hostnames?.resolveTxt === undefined ? runtimeTxtResolver() : options.hostnames.resolveTxt,
    },
  };
  const jobs = backgroundJobs(world, api.jobs, options.jobs);
  let initialized: Promise<void> | undefined;
  let isReady = false;
  // Revisions stored before content trees get theirs before anything reads them (content-tree/migrate.ts).
  const ready = () =>
    (initialized ??= world.storage.init(api.schema).then(async () => {
      await migrateRevisions(world);
      isReady = true;
    }));
  // A caller's context is the world with the caller: made once per caller object (the token cache
  // hands the same one out while it keeps the token) and frozen, instead of copied per request.
  const contexts = new WeakMap<Caller, Context>();
  const anonymous: Context = Object.freeze({ ...world, caller: null });
  const contextOf = (caller: Caller | null): Context => {
    if (!caller) return anonymous;
    let context = contexts.get(caller);
    if (!context) contexts.set(caller, (context = Object.freeze({ ...world, caller })));
    return context;
  };
  const context = async (caller: Caller | null): Promise<Context> => {
    if (!isReady) await ready();
    return contextOf(caller);
  };
  const authenticate = async (token: string) => {
    if (!isReady) await ready();
    return authenticateToken(world, token, tokenCache);
  };
  const callerOfUser = async (userId: string): Promise<Caller> => {
    await ready();
    const user = await world.storage.read((tx) => tx.get(usersTable, userId));
    if (!user) throw new DocsbaseError("unauthorized", `No user "${userId}"`);
    return { userId, operator: user.kind === "operator" };
  };
  const hostAuthenticate = options.authenticate;
  let document: Record<string, unknown> | undefined;
  const openApi = () =>
    (document ??= openApiDocument(operations, {
      title: "docsbase",
      version: "1",
      serverUrl: `${baseUrl}/v1`,
    }));

  const corsOrigins = corsOriginsOf(options.corsOrigins ?? []);
  const rateLimiter = options.rateLimit
    ? createRateLimiter(options.rateLimit === true ? {} : options.rateLimit, () => world.clock().getTime())
    : undefined;
  const handle = createHandler({
    operations,
    authenticate,
    ...(hostAuthenticate
      ? {
          authenticateRequest: async (request: Request) => {
            const identity = await hostAuthenticate(request);
            return identity ? callerOfUser(identity.userId) : null;
          },
        }
      : {}),
    context,
    openApi,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    extraRoutes: downloadRoutes({ world, ready, inlinePdf: options.inlinePdf ?? false }),
    ...(options.onError ? { onError: options.onError } : {}),
    ...(rateLimiter ? { rateLimit: rateLimiter } : {}),
    clientAddress: (request: PlainRequest) => clientAddressOf(request, options),
    ...(options.corsOrigins ? { corsOrigins } : {}),
  });
  const onJobError = options.onError ?? ((error) => console.error("docsbase: background jobs failed", error));
  const handleRequest = jobs.fetch(handle, (error, request: PlainRequest) =>
    onJobError(error, request.request()),
  );
  const answerRouted = jobs.fetch(
    (routed: Routed) =>
      routed.route
        ? handle.answerRoute(routed.route, routed.request, routed.params)
        : handle.answerUnrouted(routed.request, routed.path, routed.shown),
    (error, routed) => onJobError(error, routed.request.request()),
  );

  const docsbase: Docsbase<Operations & OperationsOf<Extra>> = {
    fetch: async (request, context) => answerResponse(await handleRequest(plainRequest(request), context)),
    as(auth) {
      checkClientAuth(auth);
      return createClient(operations, async () => {
        if ("userId" in auth) return context(await callerOfUser(auth.userId));
        const caller = await authenticate(auth.token);
        if (!caller) throw new DocsbaseError("unauthorized", "The token is not valid");
        return context(caller);
      });
    },
    async bootstrap(bootstrapOptions = {}) {
      await ready();
      return bootstrapOperator(world, bootstrapOptions.token);
    },
    async runJobs() {
      await ready();
      return jobs.run();
    },
    async jobs(query) {
      await ready();
      return listJobs(world, query);
    },
    openApi,
    cache: world.cache,
    async close() {
      await jobs.stop();
      await options.storage.close();
    },
  };
  const forgetState = () => {
    world.cache.clear();
    tokenCache?.clear();
    rateLimiter?.clear();
  };
  internals.set(docsbase, {
    handleRequest,
    routes: handle.routes,
    answerRouted,
    forgetState,
    world: async () => {
      await ready();
      return world;
    },
  });
  return docsbase;
}

/** A request handler that answers without the fetch standard's objects; see {@link requestHandlerOf}. */
export type RequestHandler = (request: PlainRequest, context?: BackgroundContext) => Promise<PlainAnswer>;

/** What the functions below reach of an instance, by instance. */
const internals = new WeakMap<
  object,
  {
    handleRequest: RequestHandler;
    routes: readonly HttpRoute[];
    answerRouted: AnswerRouted;
    forgetState: () => void;
    world: () => Promise<World>;
  }
>();

/**
 * The world of an instance (its counted storage, clock, ids, cache), once its storage is ready: for
 * modules that build on core internals beside the operations (the replica of `docsbase/sync` writes
 * a pulled revision in one transaction). Internal: not exported by the package.
 */
export function worldOf(docsbase: Docsbase): Promise<World> {
  return internalsOf(docsbase).world();
}

/**
 * Drops what an instance keeps in memory of its storage's contents (derived values, tokens) and
 * its rate-limit counts, for when the storage was put back to an earlier state under it (the test
 * double's `restore` and `reset`). Internal: not exported by the package.
 */
export function forgetInstanceState(docsbase: Docsbase): void {
  internalsOf(docsbase).forgetState();
}

/**
 * The runtime-neutral handler behind `docsbase.fetch` (same routes, limits, jobs and errors), for a
 * server that describes its requests itself (`docsbase serve` on Node's HTTP server): no `Request`
 * or `Response` is built on the way. Internal: not exported by the package.
 */
export function requestHandlerOf(docsbase: Docsbase): RequestHandler {
  return internalsOf(docsbase).handleRequest;
}

/**
 * Mounts docsbase's `/v1` API on a host app's itty-router router, beside the host's own routes:
 * one route of the host's router per docsbase route (matched by that router, parameters and all),
 * then one for every other path under `/v1`, answered with docsbase's 404 or 405. Answers, errors,
 * authentication and limits are those of `docsbase.fetch`. Mount after the host's own routes
 * under `/v1`, if any: docsbase answers every path under it. A `waitUntil` context among the
 * arguments of the router's `fetch` (a Worker's `ctx`) drains the jobs a request queued, as the
 * second argument of `docsbase.fetch` does. The host's middleware must leave request bodies unread.
 *
 * @example
 * ```ts
 * import { AutoRouter } from "itty-router";
 * import { createDocsbase, mountDocsbase } from "docsbase";
 *
 * const docsbase = createDocsbase({ storage, baseUrl: "https://example.com/docs" });
 * const router = AutoRouter();
 * router.get("/health", () => ({ ok: true }));
 * mountDocsbase(router, docsbase, { prefix: "/docs" }); // serves /docs/v1/...
 * export default { fetch: router.fetch };
 * ```
 */
export function mountDocsbase(router: HostRouter, docsbase: Docsbase, options?: MountOptions): void {
  const { routes, answerRouted } = internalsOf(docsbase);
  mountRoutes(router, routes, answerRouted, options);
}

function internalsOf(docsbase: Docsbase) {
  const found = internals.get(docsbase);
  if (!found) throw new Error("Not a docsbase instance made by createDocsbase");
  return found;
}
