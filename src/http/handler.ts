import { invoke, type Outcome } from "../core/invoke.js";
import type { AnyOperation, HttpMethod } from "../core/registry.js";
import { badRequest, DocsbaseError, isDocsbaseError, unauthorized } from "../core/shared/errors.js";
import type { Caller, Context } from "../core/shared/world.js";
import type { PlainAnswer, PlainRequest } from "./plain.js";
import { withCors } from "./cors.js";
import { decodeSegment, DOT_SEGMENT_MESSAGE, hasDotSegment } from "./paths.js";
import { addressGroup, RateLimitedError, type RateLimiter } from "./rate-limit.js";
import { RouteTable } from "./routes.js";
import { UnservedOperations, unservedAnswer } from "./unserved.js";

export type { BodyErrors, PlainAnswer, PlainRequest } from "./plain.js";
import { errorAnswer, STATUS_OF } from "./status.js";

export interface HandlerOptions {
  /** The registry to mount. */
  readonly operations: Readonly<Record<string, AnyOperation>>;
  /** The caller a bearer token stands for, or null for an unknown token. */
  readonly authenticate: (token: string) => Promise<Caller | null>;
  /**
   * The host app's own authentication, tried before the bearer token: the caller a request stands
   * for (its session cookie, say), or null to fall back to the Authorization header.
   */
  readonly authenticateRequest?: (request: Request) => Promise<Caller | null>;
  /** The context of one call, once its caller is known. */
  readonly context: (caller: Caller | null) => Promise<Context>;
  /** The OpenAPI document served at `/v1/openapi.json`. */
  readonly openApi: () => Record<string, unknown>;
  /** Largest accepted request body in bytes; larger answers 413. */
  readonly maxBodyBytes: number;
  /** Routes outside the registry (file downloads, PDFs...), tried before the registry's. */
  readonly extraRoutes?: readonly ExtraRoute[];
  /** Where unexpected errors are reported. */
  readonly onError?: (error: unknown, request: Request) => void;
  /** Rate limits on failed authentications and on requests (429); none when absent. */
  readonly rateLimit?: RateLimiter;
  /** The client's address, which failed authentications and anonymous requests count against. */
  readonly clientAddress?: (request: PlainRequest) => string | undefined;
  /** Origins whose pages may call the API across origins (`corsOrigins`, cors.ts); none when absent. */
  readonly corsOrigins?: ReadonlySet<string>;
}

/** A route outside the registry: its path under `/v1`, written as the registry writes paths. */
export interface ExtraRoute {
  readonly method: "get";
  /** E.g. `/files/{versionId}/{name}`. */
  readonly path: string;
  /** Its answer, given the path's parameters as sent (percent-encoded). */
  readonly handle: (params: Readonly<Record<string, string>>, request: PlainRequest) => Promise<PlainAnswer>;
}

type Serve = (request: PlainRequest, params: Readonly<Record<string, string>>) => Promise<PlainAnswer>;

/** One of the handler's routes: its method, its path as the registry writes paths, under `/v1`. */
export interface HttpRoute {
  readonly method: HttpMethod;
  /** E.g. `/v1/spaces/{spaceId}`. */
  readonly path: string;
  /** The path's last parameter, when it spans several segments. */
  readonly restParam?: string | undefined;
  readonly serve: Serve;
}

/**
 * The runtime-neutral handler (a function from a request to its answer), with what a host's own
 * router needs to serve its routes: the routes, in the order they are matched, and the answers of
 * a request that router has routed.
 */
export interface Handler {
  (request: PlainRequest): Promise<PlainAnswer>;
  readonly routes: readonly HttpRoute[];
  /** The answer of `route` to a request whose path gave these parameters (as sent). Never rejects. */
  answerRoute(
    route: HttpRoute,
    request: PlainRequest,
    params: Readonly<Record<string, string>>,
  ): Promise<PlainAnswer>;
  /**
   * The answer to a request no route of its method has: 501 naming the operation when it is one of
   * the reference's that the registry does not serve, else 405 naming the methods `path` has (a
   * path as the routes write them, `/v1/...`), else 404; `shown` is the path the messages name.
   */
  answerUnrouted(request: PlainRequest, path: string, shown: string): Promise<PlainAnswer>;
}

const JSON_TYPE = "application/json; charset=utf-8";

/**
 * The runtime-neutral handler: one route per operation of the registry, all served by the same
 * generic function, matched by itty-router (`routes.ts`). Answers JSON, the reference error body,
 * 501 for an operation of the reference the registry does not serve (`unserved.ts`), 404 for
 * unknown paths, 405 for a known path with another method, 400 for malformed JSON, 413
 * past the body limit. Never rejects: an unexpected error is reported to `onError` and answered 500.
 */
export function createHandler(options: HandlerOptions): Handler {
  const routes: HttpRoute[] = [
    {
      method: "get",
      path: "/v1/openapi.json",
      serve: async () => ({
        status: 200,
        headers: { "content-type": "application/json" },
        body: JSON.stringify(options.openApi()),
      }),
    },
  ];
  for (const route of options.extraRoutes ?? []) {
    routes.push({
      method: route.method,
      path: `/v1${route.path}`,
      serve: (request, params) => route.handle(params, request),
    });
  }
  for (const operation of Object.values(options.operations)) {
    routes.push({
      method: operation.method,
      path: `/v1${operation.path}`,
      restParam: operation.restParam,
      serve: (request, params) => serve(operation, request, params, options),
    });
  }
  const table = new RouteTable<HttpRoute>();
  for (const route of routes) table.add(route.method, route.path, route, route.restParam);

  const unserved = new UnservedOperations(
    new Set(Object.values(options.operations).map((operation) => operation.id)),
  );
  const answerUnrouted = async (request: PlainRequest, path: string, shown: string) => {
    const operation = unserved.match(request.method, path);
    if (operation) return unservedAnswer(operation);
    // Another method's route on this path: 405, naming the methods it has.
    const allowed = table.methods(path);
    if (allowed.length > 0) {
      return errorAnswer(405, `Method ${request.method} is not allowed on ${shown}`, {
        allow: allowed.join(", "),
      });
    }
    return errorAnswer(404, `No route for ${request.method} ${shown}`);
  };
  const handle = async (request: PlainRequest): Promise<PlainAnswer> => {
    try {
      // Parsing the URL would resolve the segment away; a runtime that hands the target over as
      // sent is judged here (the standalone server checks the raw target itself).
      if (hasDotSegment(request.url)) return errorAnswer(400, DOT_SEGMENT_MESSAGE);
      const pathname = pathnameOf(request.url);
      const found = table.match(request.method, pathname);
      if (found) return await found.value.serve(request, found.params);
      return await answerUnrouted(request, pathname, pathname);
    } catch (error) {
      return renderError(error, request, options);
    }
  };
  const answer = options.corsOrigins?.size ? withCors(options.corsOrigins, handle) : handle;
  return Object.assign(answer, {
    routes,
    async answerRoute(route: HttpRoute, request: PlainRequest, params: Readonly<Record<string, string>>) {
      try {
        return await route.serve(request, params);
      } catch (error) {
        return renderError(error, request, options);
      }
    },
    answerUnrouted,
  });
}

/**
 * An absolute `http(s)` URL, or a request target starting with `/`, whose path holds only
 * characters the URL parser leaves as they are (every URL a `Request` hands over is serialized
 * already): the path is then cut out of the string.
 */
const PLAIN_URL = /^(?:https?:\/\/[^/?#\\]*)?(\/[\w\-.~!$&'()*+,;=:@%/]*)(?:[?#]|$)/;

/** The path of a request URL, as `new URL(url).pathname` reads it, without parsing the common case. */
function pathnameOf(url: string): string {
  return PLAIN_URL.exec(url)?.[1] ?? new URL(url, "http://localhost").pathname;
}

async function serve(
  operation: AnyOperation,
  request: PlainRequest,
  raw: Readonly<Record<string, string>>,
  options: HandlerOptions,
): Promise<PlainAnswer> {
  const { caller, limitHeaders, addressKey } = await admit(operation, request, options);
  const params: Record<string, unknown> = {};
  for (const name in raw) params[name] = decodeSegment(name, raw[name] as string);
  const query = queryOf(request.url);
  const body = operation.body ? await readJson(request, options.maxBodyBytes) : undefined;
  const context = await options.context(caller);
  // Only an operation handing out a token needs the address (a lookup records it on the token);
  // other requests keep the context made once per caller.
  const outcome = await invoke(
    operation,
    addressKey !== undefined && operation.access.handsOutToken
      ? { ...context, clientAddress: addressKey }
      : context,
    {
      params,
      query,
      body,
      http: request,
    },
  );
  return render(outcome, limitHeaders);
}

/**
 * The key a caller's requests count against: a user's id; for a reader token, the address that
 * obtained it (else the one presenting it), so that fresh tokens never bring fresh quota; for an
 * anonymous request, its address.
 */
function limitKeyOf(caller: Caller | null, addressKey: string | undefined): string | undefined {
  if (!caller) return addressKey;
  if (caller.scope) return caller.scope.address ?? addressKey ?? `user:${caller.userId}`;
  return `user:${caller.userId}`;
}

/** The query string's parameters: one value per name, an array for a repeated name. */
function queryOf(url: string): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  const start = url.indexOf("?");
  if (start < 0) return query;
  const search = new URLSearchParams(url.slice(start + 1));
  for (const key of new Set(search.keys())) {
    const values = search.getAll(key);
    query[key] = values.length > 1 ? values : values[0];
  }
  return query;
}

/**
 * Authenticates and counts a request before anything reads its body: a request refused here (401,
 * 429) answers without its body being read, and the body stream is cancelled (issue 9, defect 7).
 */
async function admit(
  operation: AnyOperation,
  request: PlainRequest,
  options: HandlerOptions,
): Promise<{
  caller: Caller | null;
  limitHeaders: Record<string, string>;
  addressKey: string | undefined;
}> {
  try {
    const address = options.clientAddress?.(request);
    const caller = await callerOf(request, options, address);
    const addressKey = address ? addressGroup(address) : undefined;
    const limitHeaders =
      options.rateLimit?.request(limitKeyOf(caller, addressKey), {
        site: caller?.scope?.site,
        publicWrite: operation.access.handsOutToken === true,
      }) ?? {};
    if (operation.access.authenticated && !caller) throw unauthorized();
    return { caller, limitHeaders, addressKey };
  } catch (error) {
    request.discardBody();
    throw error;
  }
}

async function callerOf(
  request: PlainRequest,
  options: HandlerOptions,
  address: string | undefined,
): Promise<Caller | null> {
  if (options.authenticateRequest) {
    const hosted = await options.authenticateRequest(request.request());
    if (hosted) return hosted;
  }
  const header = request.header("authorization");
  if (!header) return null;
  const token = bearerToken(header);
  // Checked before the token is looked up, so that a blocked guesser learns nothing more.
  options.rateLimit?.checkAuthentication(address, token);
  const caller = token ? await options.authenticate(token) : null;
  if (caller) return caller;
  options.rateLimit?.authenticationFailed(address, token);
  throw unauthorized(token ? "The token is not valid" : 'The Authorization header must be "Bearer <token>"');
}

/** The token of a `Bearer <token>` Authorization header, else undefined. */
function bearerToken(header: string): string | undefined {
  // The usual form, "Bearer " and a token of visible ASCII, is read without a regular expression.
  if (header.startsWith("Bearer ") && header.length > 7) {
    let plain = true;
    for (let i = 7; i < header.length && plain; i++) {
      const code = header.charCodeAt(i);
      plain = code > 0x20 && code < 0x7f;
    }
    if (plain) return header.slice(7);
  }
  return /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
}

async function readJson(request: PlainRequest, maxBytes: number): Promise<unknown> {
  const declared = Number(request.header("content-length") ?? "0");
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const bytes = await readLimited(request, maxBytes);
  if (bytes.length === 0) return undefined;
  const type = request.header("content-type");
  if (type && !/^application\/([\w.+-]*\+)?json\b/i.test(type)) {
    throw new DocsbaseError("unsupported_media_type", `body: expected application/json, got ${type}`);
  }
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (error) {
    throw badRequest(`body: malformed JSON (${(error as Error).message})`);
  }
}

/** Reads the body, stopping as soon as it passes the limit (Content-Length may be absent or false). */
function readLimited(request: PlainRequest, maxBytes: number): Promise<Uint8Array> {
  return request.readBody(maxBytes, {
    tooLarge: () => tooLarge(maxBytes),
    // The client went away or timed out mid-body: its fault, not a server error.
    readError: (error) => badRequest(`body: could not be read (${(error as Error).message})`),
  });
}

const tooLarge = (maxBytes: number) =>
  new DocsbaseError("payload_too_large", `body: larger than the limit of ${maxBytes} bytes`);

/** The answer of an outcome, its headers a plain object of lower-case names. */
function render(outcome: Outcome, limitHeaders: Readonly<Record<string, string>>): PlainAnswer {
  const headers: Record<string, string> = {};
  for (const name in outcome.headers) headers[name.toLowerCase()] = outcome.headers[name] as string;
  for (const name in limitHeaders) headers[name] = limitHeaders[name] as string;
  if (outcome.body === undefined || outcome.status === 204 || outcome.status === 205) {
    return { status: outcome.status, headers, body: null };
  }
  headers["content-type"] = JSON_TYPE;
  const location = (outcome.body as { urls?: { location?: unknown } }).urls?.location;
  if (outcome.status === 201 && typeof location === "string" && headers.location === undefined) {
    headers.location = location;
  }
  return { status: outcome.status, headers, body: JSON.stringify(outcome.body) };
}

function renderError(error: unknown, request: PlainRequest, options: HandlerOptions): PlainAnswer {
  if (isDocsbaseError(error) && error.code === "unavailable") {
    // The storage is down or overloaded (a cause): the operator hears of it. Either way the client
    // is told to come back.
    if (error.cause !== undefined) (options.onError ?? defaultOnError)(error, request.request());
    return errorAnswer(503, error.message, { "retry-after": "1" });
  }
  if (isDocsbaseError(error)) return errorAnswer(STATUS_OF[error.code], error.message);
  if (error instanceof RateLimitedError) return errorAnswer(429, error.message, error.headers);
  (options.onError ?? defaultOnError)(error, request.request());
  return errorAnswer(500, "Internal server error");
}

function defaultOnError(error: unknown, request: Request) {
  console.error(`docsbase: unexpected error on ${request.method} ${request.url}`, error);
}
