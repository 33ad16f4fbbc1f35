import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assemble } from "../core/module.js";
import { MODULES } from "../core/modules.js";
import { ittyPath, RouteTable } from "./routes.js";

describe("RouteTable", () => {
  const routes = new RouteTable<string>();
  routes.add("get", "/v1/spaces/{spaceId}", "getSpace");
  routes.add("patch", "/v1/spaces/{spaceId}", "updateSpace");
  routes.add("get", "/v1/spaces/{spaceId}/content/path/{pagePath}", "pageByPath", "pagePath");
  routes.add("get", "/v1/spaces/{spaceId}/content/{what}/{which}", "contentThing");
  routes.add("get", "/v1/orgs", "listOrgs");

  it("matches segments, hands parameters over as sent, and ignores trailing slashes", () => {
    expect(routes.match("GET", "/v1/spaces/a%20b")).toEqual({
      value: "getSpace",
      params: { spaceId: "a%20b" },
      order: 0,
    });
    expect(routes.match("GET", "/v1/spaces/abc//")).toEqual({
      value: "getSpace",
      params: { spaceId: "abc" },
      order: 0,
    });
    expect(routes.match("GET", "/v1/orgs/")).toEqual({ value: "listOrgs", params: {}, order: 4 });
    expect(routes.match("PATCH", "/v1/spaces/abc")?.value).toBe("updateSpace");
  });

  it("matches nothing for empty segments, other literals, other methods or lengths", () => {
    for (const path of [
      "/v1/spaces/",
      "/v1/spaces//x",
      "/v1//spaces/x",
      "/v1/Spaces/x",
      "/v1/spaces/x/y",
      "/v2/orgs",
      "/",
      "",
    ]) {
      expect(routes.match("GET", path), path).toBeUndefined();
    }
    expect(routes.match("DELETE", "/v1/spaces/abc")).toBeUndefined();
    expect(routes.match("get", "/v1/spaces/abc")).toBeUndefined();
    expect(routes.match("BREW", "/v1/spaces/abc")).toBeUndefined();
  });

  it("gives a rest parameter everything after its slash, and the first route added wins", () => {
    expect(routes.match("GET", "/v1/spaces/s/content/path/a/b/")?.params).toEqual({
      spaceId: "s",
      pagePath: "a/b/",
    });
    // A rest parameter is never empty.
    expect(routes.match("GET", "/v1/spaces/s/content/path/")).toBeUndefined();
    expect(routes.match("GET", "/v1/spaces/s/content/path")).toBeUndefined();
    // Both routes match; the rest route was added first.
    expect(routes.match("GET", "/v1/spaces/s/content/path/x")?.value).toBe("pageByPath");
    expect(routes.match("GET", "/v1/spaces/s/content/other/x")?.value).toBe("contentThing");
    // Longer than any route: only the rest route can match.
    expect(routes.match("GET", "/v1/spaces/s/content/path/a/b/c/d/e/f/g/h")?.params).toEqual({
      spaceId: "s",
      pagePath: "a/b/c/d/e/f/g/h",
    });
  });

  it("lists the methods a path has, in the order of their first matching route", () => {
    expect(routes.methods("/v1/spaces/abc/")).toEqual(["GET", "PATCH"]);
    expect(routes.methods("/v1/nothing")).toEqual([]);
  });

  it("keeps the order added across parameters and literals in the keyed segments", () => {
    const table = new RouteTable<string>();
    table.add("get", "/v1/{tenant}/x", "tenantX");
    table.add("get", "/v1/orgs/x", "orgsX");
    table.add("get", "/{version}/orgs/y", "anyVersion");
    table.add("get", "/v1/orgs/y", "orgsY");
    expect(table.match("GET", "/v1/orgs/x")?.value).toBe("tenantX");
    expect(table.match("GET", "/v1/other/x")?.value).toBe("tenantX");
    expect(table.match("GET", "/v1/orgs/y")?.value).toBe("anyVersion");
    expect(table.match("GET", "/v2/orgs/y")?.params).toEqual({ version: "v2" });
    // A route added after requests were matched takes its place in the order.
    table.add("post", "/v1/orgs/x", "postOrgsX");
    expect(table.methods("/v1/orgs/x")).toEqual(["GET", "POST"]);
  });

  it("refuses a literal itty-router would not match as written", () => {
    const table = new RouteTable<string>();
    for (const path of ["/v1/notes:search", "/v1/a*", "/v1/{a}b", "/v1//x", "v1/x", "/v1/x/"]) {
      expect(() => table.add("get", path, "x"), path).toThrow(/segments must be/);
    }
  });

  it("writes registry paths as itty-router patterns", () => {
    expect(ittyPath("/v1/spaces/{spaceId}/content/path/{pagePath}", "pagePath")).toBe(
      "/v1/spaces/:spaceId/content/path/:pagePath+",
    );
    expect(ittyPath("/v1/spaces/{spaceId}")).toBe("/v1/spaces/:spaceId");
  });

  it("routes every request as the regular expressions of the registry's patterns", () => {
    const registered = Object.values(assemble([...MODULES]).operations).map(
      ({ method, path, restParam }) => ({ method, path, restParam }),
    );
    // A few routes a host module could add, among docsbase's: a parameter where docsbase has
    // literals (the keyed segments included), and a rest route of its own.
    const hosted = [
      { method: "get" as const, path: "/{area}/spaces/{spaceId}", restParam: undefined },
      { method: "post" as const, path: "/spaces/{spaceId}/{rest}", restParam: "rest" },
      { method: "get" as const, path: "/orgs/{organizationId}/{any}", restParam: undefined },
    ];
    const operations = [...registered.slice(0, 40), ...hosted, ...registered.slice(40)];
    const table = new RouteTable<number>();
    // The documented rules, written as a regular expression per route tried in order (trailing
    // slashes allowed, `[^/]+?` per parameter, `[^]+` after the rest parameter's slash).
    const patterns = operations.map((operation, index) => {
      table.add(operation.method, `/v1${operation.path}`, index, operation.restParam);
      const source = `/v1${operation.path}`.replace(/\/\{(\w+)\}/g, (_, name: string) =>
        name === operation.restParam ? `(/(?<${name}>[^]+))` : `(/(?<${name}>[^/]+?))`,
      );
      return { method: operation.method.toUpperCase(), regex: new RegExp(`^${source}/*$`), index };
    });
    const literals = [...new Set(operations.flatMap((operation) => operation.path.split("/")))].filter(
      (segment) => !segment.startsWith("{"),
    );
    const segment = fc.oneof(
      fc.constantFrom(...literals),
      fc.constantFrom("x", "a%2Fb", "ab.c", "", "%C3%A9", "v1"),
    );
    const tail = fc.constantFrom("", "/", "//", "/x", "/x/y/");
    const path = fc.oneof(
      // Segments at random, mostly matching nothing.
      fc
        .tuple(fc.array(segment, { minLength: 1, maxLength: 9 }), tail)
        .map(([segments, end]) => `/v1/${segments.join("/")}${end}`),
      // An operation's path, its parameters filled with any segment (empty ones included).
      fc
        .tuple(fc.constantFrom(...operations.map((operation) => operation.path)), fc.array(segment), tail)
        .map(([template, values, end]) => {
          let next = 0;
          return `/v1${template.replace(/\{\w+\}/g, () => values[next++] ?? "id")}${end}`;
        }),
    );
    const method = fc.constantFrom("GET", "POST", "PATCH", "PUT", "DELETE");
    fc.assert(
      fc.property(path, method, (pathname, verb) => {
        const expected = patterns.find((pattern) => pattern.method === verb && pattern.regex.test(pathname));
        const found = table.match(verb, pathname);
        expect(found?.value).toBe(expected?.index);
        if (expected) expect(found?.params).toEqual({ ...pathname.match(expected.regex)?.groups });
        const methods = [...new Set(patterns.filter((p) => p.regex.test(pathname)).map((p) => p.method))];
        expect(table.methods(pathname)).toEqual(methods);
      }),
      { numRuns: 3000 },
    );
    // Real paths, too: each operation's own path with ids filled in.
    for (const operation of operations) {
      const pathname = `/v1${operation.path.replace(/\{\w+\}/g, "id1")}`;
      const verb = operation.method.toUpperCase();
      const expected = patterns.find((pattern) => pattern.method === verb && pattern.regex.test(pathname));
      expect(table.match(verb, pathname)?.value, pathname).toBe(expected?.index);
    }
  });
});
