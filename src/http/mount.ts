import type { IRequest, Route as IttyRoute } from "itty-router";
import type { BackgroundContext } from "../core/jobs/index.js";
import type { HttpMethod } from "../core/registry.js";
import type { HttpRoute } from "./handler.js";
import { answerResponse, type PlainAnswer, type PlainRequest, plainRequest } from "./plain.js";
import { ittyPath } from "./routes.js";

/**
 * A host app's itty-router router (`Router`, `AutoRouter` or `IttyRouter`): the methods mounting
 * registers routes with.
 */
export type HostRouter = { readonly [M in HttpMethod | "all"]: IttyRoute };

/** Where the routes go on the host's router. */
export interface MountOptions {
  /**
   * A path before `/v1` (`/docs` serves `/docs/v1/...`), added after the router's own `base`.
   * Default: none. Set `baseUrl` to match, so that the URLs in answers point back here.
   */
  readonly prefix?: string;
}

/**
 * Answers a request the host's router routed; a context with `waitUntil` among the arguments of
 * the router's `fetch` (a Worker's `ctx`) is handed on, for the jobs the request queued.
 */
export type AnswerRouted = (routed: Routed, context?: BackgroundContext) => Promise<PlainAnswer>;

/** What a host's router found for a request: one of docsbase's routes, or none under `/v1`. */
export type Routed =
  | {
      readonly request: PlainRequest;
      readonly route: HttpRoute;
      readonly params: Readonly<Record<string, string>>;
    }
  | {
      readonly request: PlainRequest;
      readonly route: undefined;
      readonly path: string;
      readonly shown: string;
    };

/** The rest parameter of the catch-all route, named so that no host's `base` parameter meets it. */
const REST = "docsbaseRestOfPath";

/**
 * Registers every route of docsbase on the host's router, in docsbase's order, then one route for
 * every other request under `/v1`, so that it gets docsbase's own 404 or 405: the host's router
 * matches the request and hands over the path's parameters, docsbase serves them.
 */
export function mountRoutes(
  router: HostRouter,
  routes: readonly HttpRoute[],
  answer: AnswerRouted,
  options: MountOptions = {},
): void {
  const prefix = (options.prefix ?? "").replace(/\/+$/, "");
  if (prefix !== "" && !prefix.startsWith("/")) throw new Error(`prefix must start with "/": ${prefix}`);
  const respond = async (routed: Routed, args: readonly unknown[]) =>
    answerResponse(await answer(routed, args.find(hasWaitUntil)));
  for (const route of routes) {
    router[route.method](
      prefix + ittyPath(route.path, route.restParam),
      (request: IRequest, ...args: unknown[]) =>
        respond({ request: plainRequest(unproxied(request)), route, params: request.params }, args),
    );
  }
  const unrouted = (request: IRequest, ...args: unknown[]) => {
    const rest = request.params[REST];
    const path = rest === undefined ? "/v1" : `/v1/${rest}`;
    const shown = new URL(request.url).pathname;
    return respond({ request: plainRequest(unproxied(request)), route: undefined, path, shown }, args);
  };
  router.all(`${prefix}/v1`, unrouted);
  router.all(`${prefix}/v1/:${REST}+`, unrouted);
}

/**
 * The request itself. itty-router's `withParams` (which `AutoRouter` runs first) hands handlers a
 * proxy of it, which binds every function read through it to the request and throws reading a
 * null `body`; `valueOf`, so bound, returns the request.
 */
function unproxied(request: IRequest): Request {
  return request.valueOf() as Request;
}

function hasWaitUntil(value: unknown): value is BackgroundContext {
  return typeof (value as { waitUntil?: unknown } | null)?.waitUntil === "function";
}
