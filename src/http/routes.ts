/**
 * The handler's routes: paths written as the registry writes them (`/v1/spaces/{spaceId}`), keyed
 * by method and segment count, so that finding a request's route costs a map lookup and a few
 * string comparisons instead of one regular expression per route (issue 8, "A lean request path").
 *
 * Matching, as the router it replaced (itty-router) matched, so that no answer changes:
 * - a `{name}` segment matches one non-empty segment, handed over as sent (still percent-encoded);
 * - trailing slashes are ignored (`/v1/orgs/` is `/v1/orgs`), any other empty segment matches
 *   nothing;
 * - the rest parameter (`restParam`, the last segment) takes everything after the `/` that follows
 *   the segments before it, slashes included, trailing ones too, and may be empty;
 * - literals compare exactly (case-sensitive); the first route added wins where several match.
 *
 * @example
 * const routes = new RouteTable<string>();
 * routes.add("get", "/v1/spaces/{spaceId}", "getSpaceById");
 * routes.match("GET", "/v1/spaces/abc/"); // { value: "getSpaceById", params: { spaceId: "abc" } }
 * routes.methods("/v1/spaces/abc"); // ["GET"]
 */
export class RouteTable<T> {
  /** Routes without a rest parameter, by `METHOD segment-count`. */
  readonly #fixed = new Map<string, Route<T>[]>();
  /** Routes ending in a rest parameter, by method. */
  readonly #rest = new Map<string, Route<T>[]>();
  /** Every route, in the order added (for {@link methods}). */
  readonly #all: Route<T>[] = [];

  /** Adds a route; `restParam` names the path's last parameter when it spans several segments. */
  add(method: string, path: string, value: T, restParam?: string): void {
    const segments = path.split("/");
    const last = segments.length - 1;
    const route: Route<T> = {
      method: method.toUpperCase(),
      order: this.#all.length,
      parts: segments.map((segment) => (/^\{\w+\}$/.test(segment) ? null : segment)),
      names: segments.map((segment) => /^\{(\w+)\}$/.exec(segment)?.[1] ?? ""),
      rest: restParam !== undefined && segments[last] === `{${restParam}}`,
      value,
    };
    this.#all.push(route);
    if (route.rest) {
      // The rest parameter is not one of the segments compared.
      route.parts.length = last;
      append(this.#rest, route.method, route);
    } else {
      append(this.#fixed, `${route.method} ${segments.length}`, route);
    }
  }

  /** The first route of `method` (upper case) that `pathname` matches, with its raw parameters. */
  match(method: string, pathname: string): RouteMatch<T> | undefined {
    let found: Route<T> | undefined;
    let params: Record<string, string> | undefined;
    const segments = trimTrailingSlashes(pathname).split("/");
    const fixed = this.#fixed.get(`${method} ${segments.length}`);
    if (fixed) {
      for (const route of fixed) {
        params = matchParts(route, segments);
        if (params) {
          found = route;
          break;
        }
      }
    }
    // A rest route added before the fixed one found (if any) comes first.
    for (const route of this.#rest.get(method) ?? []) {
      if (found && route.order >= found.order) break;
      const restParams = matchRest(route, pathname);
      if (restParams) return { value: route.value, params: restParams };
    }
    return found && params ? { value: found.value, params } : undefined;
  }

  /** The methods (upper case, each once, in the order of their first matching route) `pathname` has. */
  methods(pathname: string): string[] {
    const methods = new Set<string>();
    const segments = trimTrailingSlashes(pathname).split("/");
    for (const route of this.#all) {
      const matched = route.rest
        ? matchRest(route, pathname)
        : route.parts.length === segments.length && matchParts(route, segments);
      if (matched) methods.add(route.method);
    }
    return [...methods];
  }
}

/** A matched route: its value and its parameters, as sent (percent-encoded). */
export interface RouteMatch<T> {
  readonly value: T;
  readonly params: Record<string, string>;
}

interface Route<T> {
  readonly method: string;
  /** Position in the table: the first added of several matching routes wins. */
  readonly order: number;
  /** Each segment's literal, or null for a parameter (a rest route's last one left out). */
  readonly parts: (string | null)[];
  /** Each segment's parameter name ("" for a literal). */
  readonly names: readonly string[];
  readonly rest: boolean;
  readonly value: T;
}

function append<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function trimTrailingSlashes(pathname: string): string {
  let end = pathname.length;
  while (end > 1 && pathname.charCodeAt(end - 1) === 47 /* "/" */) end--;
  return end === pathname.length ? pathname : pathname.slice(0, end);
}

/** A rest route's parameters: a `/` must follow the segments before the rest parameter. */
function matchRest<T>(route: Route<T>, pathname: string): Record<string, string> | undefined {
  const segments = pathname.split("/");
  if (segments.length <= route.parts.length) return undefined;
  const params = matchParts(route, segments);
  if (params)
    params[route.names[route.parts.length] as string] = segments.slice(route.parts.length).join("/");
  return params;
}

/** The parameters of the route's compared parts, or undefined when a part differs. */
function matchParts<T>(route: Route<T>, segments: readonly string[]): Record<string, string> | undefined {
  const { parts, names } = route;
  let params: Record<string, string> | undefined;
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index];
    const segment = segments[index] as string;
    if (part === null) {
      if (segment === "") return undefined;
      (params ??= {})[names[index] as string] = segment;
    } else if (part !== segment) {
      return undefined;
    }
  }
  return params ?? {};
}
