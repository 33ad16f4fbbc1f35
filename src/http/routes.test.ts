import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assemble } from "../core/module.js";
import { MODULES } from "../core/modules.js";
import { RouteTable } from "./routes.js";

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
    });
    expect(routes.match("GET", "/v1/spaces/abc//")).toEqual({
      value: "getSpace",
      params: { spaceId: "abc" },
    });
    expect(routes.match("GET", "/v1/orgs/")).toEqual({ value: "listOrgs", params: {} });
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
    ]) {
      expect(routes.match("GET", path), path).toBeUndefined();
    }
    expect(routes.match("DELETE", "/v1/spaces/abc")).toBeUndefined();
    expect(routes.match("get", "/v1/spaces/abc")).toBeUndefined();
  });

  it("gives a rest parameter everything after its slash, and the first route added wins", () => {
    expect(routes.match("GET", "/v1/spaces/s/content/path/a/b/")?.params).toEqual({
      spaceId: "s",
      pagePath: "a/b/",
    });
    expect(routes.match("GET", "/v1/spaces/s/content/path/")?.params).toEqual({ spaceId: "s", pagePath: "" });
    expect(routes.match("GET", "/v1/spaces/s/content/path")).toBeUndefined();
    // Both routes match; the rest route was added first.
    expect(routes.match("GET", "/v1/spaces/s/content/path/x")?.value).toBe("pageByPath");
    expect(routes.match("GET", "/v1/spaces/s/content/other/x")?.value).toBe("contentThing");
  });

  it("lists the methods a path has, in the order of their first matching route", () => {
    expect(routes.methods("/v1/spaces/abc/")).toEqual(["GET", "PATCH"]);
    expect(routes.methods("/v1/nothing")).toEqual([]);
  });

  it("routes every request as the regular expressions of the registry's patterns did", () => {
    const operations = Object.values(assemble([...MODULES]).operations);
    const table = new RouteTable<number>();
    // The router it replaced: per route, a regular expression tried in order (trailing slashes
    // allowed, `[^/]+?` per parameter, `(.*)?` after the rest parameter's slash).
    const patterns = operations.map((operation, index) => {
      table.add(operation.method, `/v1${operation.path}`, index, operation.restParam);
      const source = `/v1${operation.path}`.replace(/\/\{(\w+)\}/g, (_, name: string) =>
        name === operation.restParam ? `(/(?<${name}>(.*)?))` : `(/(?<${name}>[^/]+?))`,
      );
      return { method: operation.method.toUpperCase(), regex: new RegExp(`^${source}/*$`), index };
    });
    const literals = [...new Set(operations.flatMap((operation) => operation.path.split("/")))].filter(
      (segment) => !segment.startsWith("{"),
    );
    const segment = fc.oneof(
      fc.constantFrom(...literals),
      fc.constantFrom("x", "a%2Fb", "ab.c", "", "%C3%A9"),
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
