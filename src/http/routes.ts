import { IttyRouter, type IRequest, type IttyRouterType, type Route as IttyRoute } from "itty-router";

/**
 * The handler's routes, matched by itty-router: paths written as the registry writes them
 * (`/v1/spaces/{spaceId}`), each turned into an itty-router pattern (`/v1/spaces/:spaceId`, a rest
 * parameter `:pagePath+`) by {@link ittyPath}.
 *
 * Matching rules (itty-router 5's, written down so that a change of version that alters them fails
 * the routing property test):
 * - a `{name}` segment matches one non-empty segment, handed over as sent (still percent-encoded);
 * - trailing slashes are ignored (`/v1/orgs/` is `/v1/orgs`), any other empty segment matches
 *   nothing;
 * - the rest parameter (`restParam`, the last segment) takes everything after the `/` that follows
 *   the segments before it, slashes included, trailing ones too, and is never empty;
 * - literals compare exactly (case-sensitive); the first route added wins where several match.
 *
 * An itty router tries its routes in order, a regular expression each, until one matches. So that
 * a request meets only the few routes that could match it, the table keeps one itty router per
 * bucket: method, segment count (trailing slashes aside), and the first two segments (`v1/spaces`;
 * a segment no route has as a literal counts as "any other"). A bucket holds, in the order added,
 * every route that can match a path of its kind; it is built on its first request. The buckets are
 * bounded by the routes (methods, lengths and literals they have), whatever paths clients send.
 *
 * @example
 * const routes = new RouteTable<string>();
 * routes.add("get", "/v1/spaces/{spaceId}", "getSpaceById");
 * routes.match("GET", "/v1/spaces/abc/"); // { value: "getSpaceById", params: { spaceId: "abc" }, order: 0 }
 * routes.methods("/v1/spaces/abc"); // ["GET"]
 */
export class RouteTable<T> {
  /** Every route, in the order added. */
  readonly #routes: TableRoute<T>[] = [];
  /** The methods (upper case) routes were added with, each with its number. */
  readonly #methods = new Map<string, number>();
  /** The literals routes have as their first, and as their second segment. */
  readonly #literals: [string[], string[]] = [[], []];
  /** Segments of the longest route (a rest route's counted without its rest parameter). */
  #longest = 0;
  /** The bucket routers built so far, by the number of their kind; dropped when a route is added. */
  readonly #buckets = new Map<number, Bucket<T>>();

  /** Adds a route; `restParam` names the path's last parameter when it spans several segments. */
  add(method: string, path: string, value: T, restParam?: string): void {
    const segments = path.split("/");
    const last = segments.length - 1;
    if (segments[0] !== "" || segments.slice(1).some((segment) => !SEGMENT.test(segment))) {
      throw new Error(
        `Route path ${path}: segments must be {name} or literals without : * + ? ( ) [ ] { } ^ $ | \\`,
      );
    }
    const rest = restParam !== undefined && segments[last] === `{${restParam}}`;
    const parts = segments.map((segment) => (PARAMETER.test(segment) ? null : segment));
    // A rest route compares the segments before its rest parameter.
    if (rest) parts.length = last;
    const route: TableRoute<T> = {
      method: method.toUpperCase(),
      order: this.#routes.length,
      pattern: ittyPath(path, rest ? restParam : undefined),
      parts,
      rest,
      value,
    };
    this.#routes.push(route);
    if (!this.#methods.has(route.method)) this.#methods.set(route.method, this.#methods.size);
    for (const [index, literals] of this.#literals.entries()) {
      const part = parts[index + 1];
      if (typeof part === "string" && !literals.includes(part)) literals.push(part);
    }
    this.#longest = Math.max(this.#longest, parts.length);
    this.#buckets.clear();
  }

  /**
   * The first route of `method` (upper case) that `pathname` matches, with its raw parameters.
   * `pathname` is a URL's path as the URL parser serializes it (no dot segment, no backslash).
   *
   * This is what itty-router's `fetch` does with a request (each route's regular expression tried
   * on the path in the order added, the first match's named groups as its parameters, its handler
   * asked), run on the bucket router's routes with the path at hand: `fetch` would parse the URL
   * again (`new URL` per request), which cost 8 µs of a 36 µs request in the handler's loop.
   */
  match(method: string, pathname: string): RouteMatch<T> | undefined {
    if (!this.#methods.has(method)) return undefined;
    // A bucket's routes are all of its method, each with one handler (see #build).
    for (const [, matcher, handlers] of this.#bucket(method, pathname).routes) {
      const found = pathname.match(matcher);
      if (found) return (handlers[0] as Matched<T>)({ params: found.groups ?? {} });
    }
    return undefined;
  }

  /** The methods (upper case, each once, in the order of their first matching route) `pathname` has. */
  methods(pathname: string): string[] {
    const found: { method: string; order: number }[] = [];
    for (const method of this.#methods.keys()) {
      const match = this.match(method, pathname);
      if (match) found.push({ method, order: match.order });
    }
    return found.sort((a, b) => a.order - b.order).map(({ method }) => method);
  }

  /**
   * The router of the routes of `method` that can match a path shaped like `pathname`. Its kind is
   * a number computed from the path without cutting it (this runs on every request).
   */
  #bucket(method: string, pathname: string): Bucket<T> {
    // The segments, trailing slashes aside: how many, and where the first two are.
    let end = pathname.length;
    while (end > 1 && pathname.charCodeAt(end - 1) === 47 /* "/" */) end--;
    let count = 1;
    let first = end;
    let second = end;
    let third = end;
    for (let at = pathname.indexOf("/"); at !== -1 && at < end; at = pathname.indexOf("/", at + 1)) {
      if (count === 1) first = at;
      else if (count === 2) second = at;
      else if (count === 3) third = at;
      count++;
    }
    // Past the longest route, only rest routes match, and they match any length from theirs on.
    const length = Math.min(count, this.#longest + 1);
    const [firsts, seconds] = this.#literals;
    const head = count > 1 ? literalAt(firsts, pathname, first + 1, second) : 0;
    const next = count > 2 ? literalAt(seconds, pathname, second + 1, third) : 0;
    const kind =
      (((this.#methods.get(method) as number) * (this.#longest + 2) + length) * (firsts.length + 1) + head) *
        (seconds.length + 1) +
      next;
    return (
      this.#buckets.get(kind) ??
      this.#build(kind, method, length, [firsts[head - 1] ?? ANY_OTHER, seconds[next - 1] ?? ANY_OTHER])
    );
  }

  /** A bucket's router: the routes of `method` that fit paths of `count` segments and these heads. */
  #build(kind: number, method: string, count: number, heads: readonly [string, string]): Bucket<T> {
    const bucket: Bucket<T> = IttyRouter();
    for (const route of this.#routes) {
      if (route.method !== method) continue;
      if (route.rest ? count < route.parts.length : count !== route.parts.length) continue;
      // A parameter, or a segment of the rest parameter, takes any head.
      const fits = [route.parts[1], route.parts[2]].every(
        (part, index) => part === undefined || part === null || part === heads[index],
      );
      const { value, order } = route;
      const matched: Matched<T> = ({ params }) => ({ value, params, order });
      // itty-router registers a route under any method name it is called by.
      if (fits) (bucket[method] as IttyRoute)(route.pattern, matched);
    }
    this.#buckets.set(kind, bucket);
    return bucket;
  }
}

/** A matched route: its value, its parameters as sent (percent-encoded), its place in the table. */
export interface RouteMatch<T> {
  readonly value: T;
  readonly params: Readonly<Record<string, string>>;
  /** How many routes were added before it. */
  readonly order: number;
}

/**
 * A registry path (`/spaces/{spaceId}/content/path/{pagePath}`) as an itty-router pattern
 * (`/spaces/:spaceId/content/path/:pagePath+`): `{name}` is `:name`, the rest parameter `:name+`.
 *
 * @example
 * ittyPath("/v1/spaces/{spaceId}"); // "/v1/spaces/:spaceId"
 */
export function ittyPath(path: string, restParam?: string): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => (name === restParam ? `:${name}+` : `:${name}`));
}

interface TableRoute<T> {
  readonly method: string;
  /** Position in the table: the first added of several matching routes wins. */
  readonly order: number;
  /** The itty-router pattern. */
  readonly pattern: string;
  /** Each segment's literal, or null for a parameter (a rest route's last one left out). */
  readonly parts: readonly (string | null)[];
  readonly rest: boolean;
  readonly value: T;
}

/** An itty router of a bucket. */
type Bucket<T> = IttyRouterType<IRequest, [], RouteMatch<T> | undefined>;

/** A bucket route's handler: the match, from the parameters itty-router found. */
type Matched<T> = (request: { readonly params: Record<string, string> }) => RouteMatch<T>;

/** The head of a segment that no route has as a literal at its position. */
const ANY_OTHER = "{}";

const PARAMETER = /^\{\w+\}$/;

/** Which of `literals` (counted from 1) the path has from `start` to `end`, or 0 for none. */
function literalAt(literals: readonly string[], path: string, start: number, end: number): number {
  for (let index = 0; index < literals.length; index++) {
    const literal = literals[index] as string;
    if (literal.length === end - start && path.startsWith(literal, start)) return index + 1;
  }
  return 0;
}

/** A parameter, or a literal itty-router matches as written (it escapes only `.`). */
const SEGMENT = /^(?:\{\w+\}|[^:*+?()[\]{}^$|\\/]+)$/;
