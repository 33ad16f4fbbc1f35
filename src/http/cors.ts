import type { PlainAnswer, PlainRequest } from "./plain.js";

/**
 * Cross-origin requests (CORS) from the origins a host allows (`corsOrigins`): a page or a worker
 * served from another origin, such as an offline-first app whose replica calls the server
 * (docs/offline.md). docsbase authenticates with a bearer token, never a cookie, so the answers
 * allow no credentials and a wildcard is safe to offer; without the option, no CORS header is sent
 * and a preflight answers 405 as any `OPTIONS` does.
 */

/** The methods of the API's operations. */
const METHODS = "GET, POST, PUT, PATCH, DELETE";
/** The request headers a client of the API sends beyond the CORS-safelisted ones. */
const HEADERS = "authorization, content-type";
/** The answer headers a client may read beyond the safelisted ones. */
const EXPOSED =
  "content-disposition, location, retry-after, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset";
/** How long a browser may keep a preflight's answer, in seconds. */
const MAX_AGE = "600";

/**
 * An allowed origin as the `Origin` header writes it (`https://app.example.com`, with a port when
 * not the default), or `*` for any.
 */
const ORIGIN = /^https?:\/\/[^/?#\s]+$/;

/** The allowed origins, each checked; throws naming the one that is not an origin. */
export function corsOriginsOf(origins: readonly string[]): ReadonlySet<string> {
  for (const origin of origins) {
    if (origin !== "*" && !(ORIGIN.test(origin) && new URL(origin).origin === origin)) {
      throw new Error(
        `corsOrigins must list origins (scheme, host and port, such as https://app.example.com) or "*", got "${origin}"`,
      );
    }
  }
  return new Set(origins);
}

/**
 * The CORS side of the handler: `answer` answers a request, and what comes back carries the CORS
 * headers when the request's origin is allowed; a preflight from an allowed origin is answered
 * here (204) without reaching a route.
 */
export function withCors(
  allowed: ReadonlySet<string>,
  answer: (request: PlainRequest) => Promise<PlainAnswer>,
): (request: PlainRequest) => Promise<PlainAnswer> {
  const allowOf = (origin: string | null) =>
    origin === null ? undefined : allowed.has("*") ? "*" : allowed.has(origin) ? origin : undefined;
  return async (request) => {
    const allow = allowOf(request.header("origin"));
    if (allow === undefined) return answer(request);
    const common = { "access-control-allow-origin": allow, ...(allow === "*" ? {} : { vary: "origin" }) };
    if (request.method === "OPTIONS" && request.header("access-control-request-method") !== null) {
      request.discardBody();
      return {
        status: 204,
        headers: {
          ...common,
          "access-control-allow-methods": METHODS,
          "access-control-allow-headers": HEADERS,
          "access-control-max-age": MAX_AGE,
        },
        body: null,
      };
    }
    const answered = await answer(request);
    const vary = answered.headers["vary"];
    return {
      ...answered,
      headers: {
        ...answered.headers,
        ...common,
        ...(vary && allow !== "*" ? { vary: `${vary}, origin` } : {}),
        "access-control-expose-headers": EXPOSED,
      },
    };
  };
}
