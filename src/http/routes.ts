import { IttyRouter, type IRequest, type IttyRouterType, type Route as IttyRoute } from "itty-router";

/**
 * The handler's routes, matched by itty-router: paths written as the registry writes them
 * (`/v1/spaces/{spaceId}`), each turned into an itty-router pattern (`/v1/spaces/:spaceId`, a rest
 * parameter `:pagePath+`) by {@link ittyPath}.
 *
 * Matching rules (itty-router's, unchanged since docsbase first used it):
 * - a `{name}` segment matches one non-empty segment, handed over as sent (still percent-encoded);
 * - trailing slashes are ignored (`/v1/orgs/` is `/v1/orgs`), any other empty segment matches
 *   nothing;
 * - the rest parameter (`restParam`, the last segment) takes everything after the `/` that follows
 *   the segments before it, slashes included, trailing ones too, and may be empty;
 * - literals compare exactly (case-sensitive); the first route added wins where several match.
 *
 * One itty router tries its routes in order, a regular expression each, until one matches. So that
 * a request meets only the few routes that could match it, the table keeps one itty router per
 * bucket: method, segment count (trailing slashes aside), and the first two segments (`v1/spaces`;
 * a segment no route has as a literal counts as "any other"). A bucket holds, in the order added,
 * every route that can match a path of its kind; it is built on its first request. The buckets are
 * bounded by the routes (methods, lengths and literals they have), whatever paths clients send.
 *
 * @example
 * const routes = new RouteTable<string>();
 * routes.add("get", "/v1/spaces/{spaceId}", "getSpaceById");
 * await routes.match("GET", "/v1/spaces/abc/"); // { value: "getSpaceById", params: { spaceId: "abc" }, order: 0 }
 * await routes.methods("/v1/spaces/abc"); // ["GET"]
 */
export class RouteTable<T> {
  /** Every route, in the order added. */
  readonly #routes: TableRoute<T>[] = [];
  /** The methods (upper case) routes were added with. */
  readonly #methods = new Set<string>();
  /** The literals routes have as their first, and as their second segment. */
  readonly #literals: [Set<string>, Set<string>] = [new Set(), new Set()];
  /** Segments of the longest route (a rest route's counted without its rest parameter). */
  #longest = 0;
  /** The bucket routers built so far, by {@link bucketKey}; dropped when a route is added. */
  readonly #buckets = new Map<string, Bucket<T>>();

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
    this.#methods.add(route.method);
    if (typeof parts[1] === "string") this.#literals[0].add(parts[1]);
    if (typeof parts[2] === "string") this.#literals[1].add(parts[2]);
    this.#longest = Math.max(this.#longest, parts.length);
    this.#buckets.clear();
  }

  /**
   * The first route of `method` (upper case) that `pathname` matches, with its raw parameters.
   * `pathname` is a URL's path as the URL parser serializes it (no dot segment, no backslash).
   */
  match(method: string, pathname: string): Promise<RouteMatch<T> | undefined> {
    if (!this.#methods.has(method)) return NOTHING;
    return this.#bucket(method, pathname).fetch({ method, url: ORIGIN + pathname });
  }

  /** The methods (upper case, each once, in the order of their first matching route) `pathname` has. */
  async methods(pathname: string): Promise<string[]> {
    const found: { method: string; order: number }[] = [];
    for (const method of this.#methods) {
      const match = await this.match(method, pathname);
      if (match) found.push({ method, order: match.order });
    }
    return found.sort((a, b) => a.order - b.order).map(({ method }) => method);
  }

  /** The router of the routes of `method` that can match a path shaped like `pathname`. */
  #bucket(method: string, pathname: string): Bucket<T> {
    // The segments, trailing slashes aside: how many, and the first two (split("/") costs more).
    let end = pathname.length;
    while (end > 1 && pathname.charCodeAt(end - 1) === 47 /* "/" */) end--;
    let count = 1;
    const slashes = [end, end, end];
    for (let at = pathname.indexOf("/"); at !== -1 && at < end; at = pathname.indexOf("/", at + 1)) {
      if (count <= 3) slashes[count - 1] = at;
      count++;
    }
    const first = count > 1 ? pathname.slice(slashes[0]! + 1, slashes[1]) : undefined;
    const second = count > 2 ? pathname.slice(slashes[1]! + 1, slashes[2]) : undefined;
    const heads = [
      first !== undefined && this.#literals[0].has(first) ? first : ANY_OTHER,
      second !== undefined && this.#literals[1].has(second) ? second : ANY_OTHER,
    ] as const;
    // Past the longest route, only rest routes match, and they match any length from theirs on.
    const key = `${method} ${Math.min(count, this.#longest + 1)} ${heads[0]} ${heads[1]}`;
    return this.#buckets.get(key) ?? this.#build(key, method, Math.min(count, this.#longest + 1), heads);
  }

  /** A bucket's router: the routes of `method` that fit paths of `count` segments and these heads. */
  #build(key: string, method: string, count: number, heads: readonly [string, string]): Bucket<T> {
    const bucket: Bucket<T> = IttyRouter();
    for (const route of this.#routes) {
      if (route.method !== method) continue;
      if (route.rest ? count < route.parts.length : count !== route.parts.length) continue;
      // A parameter, or a segment of the rest parameter, takes any head.
      const fits = [route.parts[1], route.parts[2]].every(
        (part, index) => part === undefined || part === null || part === heads[index],
      );
      const { value, order } = route;
      // itty-router registers a route under any method name it is called by.
      if (fits)
        (bucket[method] as IttyRoute)(route.pattern, ({ params }: IRequest) => ({ value, params, order }));
    }
    this.#buckets.set(key, bucket);
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

/** An itty router of a bucket: its routes answer the match. */
type Bucket<T> = IttyRouterType<IRequest, [], RouteMatch<T> | undefined>;

const NOTHING = Promise.resolve(undefined);

/** The head of a segment that no route has as a literal at its position. */
const ANY_OTHER = "{}";

/** itty-router reads URLs, not paths: each path is matched under this origin. */
const ORIGIN = "http://docsbase.invalid";

const PARAMETER = /^\{\w+\}$/;

/** A parameter, or a literal itty-router matches as written (it escapes only `.`). */
const SEGMENT = /^(?:\{\w+\}|[^:*+?()[\]{}^$|\\/]+)$/;
