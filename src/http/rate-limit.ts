import { LRUCache } from "lru-cache";
import { hashToken } from "../core/users/tokens.js";
import { type PlainRequest, plainRequest } from "./plain.js";

/** At most `limit` events per key in each window of `windowMs` (fixed windows, opened by a key's first event). */
export interface Limit {
  readonly limit: number;
  readonly windowMs: number;
}

/**
 * The limits of `createDocsbase({ rateLimit })`. Each is a {@link Limit} or `false` to turn it off;
 * an omitted one takes its value from {@link DEFAULT_RATE_LIMIT}.
 */
export interface RateLimitOptions {
  /** Failed authentications (unknown token, malformed header) per client address. */
  readonly failedAuthPerAddress?: Limit | false;
  /**
   * Failed authentications per token prefix, so that guesses at one token are caught from however
   * many addresses they come: the first 8 characters of the presented token, or for a JWT (a
   * lookup's `apiToken`, whose first characters are always the same) a hash of its header and
   * payload, so that guesses at one token count together and other tokens do not.
   */
  readonly failedAuthPerTokenPrefix?: Limit | false;
  /**
   * Requests per caller (the user a token stands for); anonymous requests count per client address,
   * and those made with a reader token (the `apiToken` of a lookup) per address that obtained it.
   */
  readonly requests?: Limit | false;
  /**
   * Requests to operations that need no token yet hand one out (`/urls/published`, which issues a
   * reader token), per client address (per caller when one is authenticated), on top of `requests`.
   * The name is older than the lookups' read transactions; it means the lookups.
   */
  readonly publicWrites?: Limit | false;
  /** Requests made with reader tokens, per site whose lookup issued them, from any address. */
  readonly readerRequestsPerSite?: Limit | false;
  /** Counters kept per limit; past it the least recently used is dropped. */
  readonly maxKeys?: number;
}

/** The limits the standalone server applies, and any `rateLimit` object leaves unchanged. */
export const DEFAULT_RATE_LIMIT = {
  failedAuthPerAddress: { limit: 20, windowMs: 60_000 },
  failedAuthPerTokenPrefix: { limit: 20, windowMs: 60_000 },
  requests: { limit: 6_000, windowMs: 60_000 },
  publicWrites: { limit: 600, windowMs: 60_000 },
  readerRequestsPerSite: { limit: 30_000, windowMs: 60_000 },
  maxKeys: 10_000,
} as const satisfies Required<RateLimitOptions>;

/** How many leading characters of a presented token key its failures. */
export const TOKEN_PREFIX_LENGTH = 8;

/**
 * The key a presented token's failures count under. Usually its first
 * {@link TOKEN_PREFIX_LENGTH} characters: guesses at a `dbt_` token share them. Every JWT starts
 * `eyJhbGci`, so one bad JWT would lock out every reader that way: a JWT counts under a hash of
 * its header and payload instead, which guesses at one token's signature share and other tokens do
 * not. Hashed, so that a key is 32 characters however long the token; the LRU maps keep at most
 * `maxKeys` of them, however many distinct tokens an attacker sends.
 */
export function tokenKey(token: string): string {
  const signed = JWT_SIGNED_PART.exec(token)?.[1];
  return signed === undefined ? token.slice(0, TOKEN_PREFIX_LENGTH) : `jwt:${hashToken(signed).slice(0, 32)}`;
}

/** The signed part (header and payload) of a compact JWS. */
const JWT_SIGNED_PART = /^(eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+)\.[A-Za-z0-9_-]*$/;

/** A refusal with status 429; `headers` carry `Retry-After` and the `X-RateLimit-*` fields. */
export class RateLimitedError extends Error {
  override readonly name = "RateLimitedError";
  constructor(
    message: string,
    readonly headers: Record<string, string>,
  ) {
    super(message);
  }
}

export interface RateLimiter {
  /** Throws {@link RateLimitedError} when this address or token ({@link tokenKey}) has failed too often. */
  checkAuthentication(address: string | undefined, token: string | undefined): void;
  /** Counts a failed authentication against the address and the token ({@link tokenKey}). */
  authenticationFailed(address: string | undefined, token: string | undefined): void;
  /**
   * Counts one request of a caller (`user:<id>`) or an address (its {@link addressGroup}), and of
   * `also`'s site and public-write counters; throws {@link RateLimitedError} past any of their
   * limits, else returns the `X-RateLimit-*` headers of the one with the least left.
   */
  request(key: string | undefined, also?: RequestCounters): Record<string, string>;
  /** Forgets every count, as a fresh limiter (the test double's `reset` and `restore`). */
  clear(): void;
}

/** What else a request counts against, beside its caller or address. */
export interface RequestCounters {
  /** The site of the reader token it is made with (`readerRequestsPerSite`). */
  readonly site?: string | undefined;
  /** Whether it hands out a token without one (`publicWrites`, counted against the key of `requests`). */
  readonly publicWrite?: boolean;
}

interface Window {
  count: number;
  readonly resetAt: number;
}

/**
 * Fixed-window counters in bounded LRU maps, timed by the injected clock so that tests move time
 * instead of sleeping. Counters live in this instance's memory: several instances behind one
 * address each count on their own, so the effective limit is the limit times the instances.
 */
export function createRateLimiter(options: RateLimitOptions, now: () => number): RateLimiter {
  const maxKeys = options.maxKeys ?? DEFAULT_RATE_LIMIT.maxKeys;
  const counter = (limit: Limit | false | undefined, fallback: Limit) => {
    const chosen = limit === undefined ? fallback : limit;
    return chosen ? { ...chosen, windows: new LRUCache<string, Window>({ max: maxKeys }) } : undefined;
  };
  const byAddress = counter(options.failedAuthPerAddress, DEFAULT_RATE_LIMIT.failedAuthPerAddress);
  const byPrefix = counter(options.failedAuthPerTokenPrefix, DEFAULT_RATE_LIMIT.failedAuthPerTokenPrefix);
  const requests = counter(options.requests, DEFAULT_RATE_LIMIT.requests);
  const publicWrites = counter(options.publicWrites, DEFAULT_RATE_LIMIT.publicWrites);
  const perSite = counter(options.readerRequestsPerSite, DEFAULT_RATE_LIMIT.readerRequestsPerSite);
  type Counter = NonNullable<typeof requests>;

  const current = (counter: Counter, key: string): Window => {
    const time = now();
    const window = counter.windows.get(key);
    if (window && window.resetAt > time) return window;
    const fresh = { count: 0, resetAt: time + counter.windowMs };
    counter.windows.set(key, fresh);
    return fresh;
  };
  // Checking creates no counter: only failures and requests take room in the maps.
  const exhausted = (counter: Counter, key: string): Window | undefined => {
    const window = counter.windows.get(key);
    return window && window.resetAt > now() && window.count >= counter.limit ? window : undefined;
  };
  const headersOf = (counter: Counter, window: Window): Record<string, string> => ({
    "x-ratelimit-limit": String(counter.limit),
    "x-ratelimit-remaining": String(Math.max(0, counter.limit - window.count)),
    "x-ratelimit-reset": String(Math.ceil(window.resetAt / 1000)),
  });
  const refuse = (counter: Counter, window: Window, message: string) => {
    const retryAfter = Math.max(1, Math.ceil((window.resetAt - now()) / 1000));
    return new RateLimitedError(`${message}; retry in ${retryAfter} s`, {
      "retry-after": String(retryAfter),
      ...headersOf(counter, window),
    });
  };
  const prefixOf = (token: string | undefined) => (token === undefined ? undefined : tokenKey(token));
  const addressKey = (address: string | undefined) => (address ? addressGroup(address) : undefined);

  return {
    checkAuthentication(address, token) {
      // Nothing has failed lately (the common case): nothing to look up.
      if (!byAddress?.windows.size && !byPrefix?.windows.size) return;
      const addressGroupKey = addressKey(address);
      const fromAddress = byAddress && addressGroupKey !== undefined && exhausted(byAddress, addressGroupKey);
      if (fromAddress)
        throw refuse(byAddress, fromAddress, "Too many failed authentications from this address");
      const prefix = prefixOf(token);
      const withPrefix = byPrefix && prefix !== undefined && exhausted(byPrefix, prefix);
      if (withPrefix)
        throw refuse(byPrefix, withPrefix, "Too many failed authentications with tokens like this one");
    },
    authenticationFailed(address, token) {
      const addressGroupKey = addressKey(address);
      if (byAddress && addressGroupKey !== undefined) current(byAddress, addressGroupKey).count++;
      const prefix = prefixOf(token);
      if (byPrefix && prefix !== undefined) current(byPrefix, prefix).count++;
    },
    request(key, also = {}) {
      const counted: [Counter, Window, string][] = [];
      if (key !== undefined) {
        if (requests) counted.push([requests, current(requests, key), "Too many requests"]);
        if (publicWrites && also.publicWrite) {
          counted.push([publicWrites, current(publicWrites, key), "Too many lookups"]);
        }
      }
      if (perSite && also.site !== undefined) {
        counted.push([
          perSite,
          current(perSite, also.site),
          "Too many requests with this site's reader tokens",
        ]);
      }
      let least: [Counter, Window] | undefined;
      for (const [counter, window, message] of counted) {
        window.count++;
        if (window.count > counter.limit) {
          window.count = counter.limit;
          throw refuse(counter, window, message);
        }
        if (!least || counter.limit - window.count < least[0].limit - least[1].count)
          least = [counter, window];
      }
      return least ? headersOf(...least) : {};
    },
    clear() {
      for (const counter of [byAddress, byPrefix, requests, publicWrites, perSite]) counter?.windows.clear();
    },
  };
}

/**
 * The key of an address: IPv4 as is, IPv4-mapped IPv6 as its IPv4 address, other IPv6 by its /64
 * network, since one client usually holds a whole /64 and could otherwise take a fresh address
 * for each attempt.
 */
export function addressGroup(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (!address.includes(":")) return address;
  const [head = "", tail] = address.split("%")[0]!.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups =
    tail === undefined
      ? left
      : [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/** Where the client's address comes from (see `createDocsbase`'s `clientAddress` and `trustProxy`). */
export interface ClientAddressOptions {
  readonly clientAddress?: (request: Request) => string | undefined;
  readonly trustProxy?: boolean | number;
}

/**
 * The address a request comes from: from `X-Forwarded-For` when `trustProxy` says how many proxies
 * (`true`: one) stand in front and append to it, the entry the nearest trusted proxy saw; else from
 * the address the runtime hands over with the request (the socket's peer in the standalone server),
 * or `clientAddress`. Without any, undefined.
 */
export function clientAddressOf(
  request: Request | PlainRequest,
  options: ClientAddressOptions,
): string | undefined {
  const plain = "headers" in request ? plainRequest(request) : request;
  const hops = options.trustProxy === true ? 1 : options.trustProxy || 0;
  if (hops > 0) {
    const forwarded = (plain.header("x-forwarded-for") ?? "")
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean);
    const entry = forwarded[Math.max(0, forwarded.length - hops)];
    if (entry) return entry;
  }
  // The runtime's own address (the socket's peer under `docsbase serve`), else the host's hook.
  return plain.address || options.clientAddress?.(plain.request()) || undefined;
}
