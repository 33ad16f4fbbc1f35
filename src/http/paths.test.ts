import { describe, expect, it } from "vitest";
import { isDocsbaseError } from "../core/shared/errors.js";
import { decodeSegment, hasDotSegment } from "./paths.js";

describe("decodeSegment", () => {
  it("decodes UTF-8 escapes", () => {
    expect(decodeSegment("name", "r%C3%A9sum%C3%A9%20x.txt")).toBe("résumé x.txt");
    expect(decodeSegment("name", "%F0%9F%98%80")).toBe("😀");
  });

  it("refuses malformed, truncated, surrogate and overlong escapes as bad_request naming the segment", () => {
    for (const bad of ["%zz", "%", "%E0%A4%A", "%ED%A0%80", "%C0%AF", "a%2"]) {
      let thrown: unknown;
      try {
        decodeSegment("versionId", bad);
      } catch (error) {
        thrown = error;
      }
      expect(isDocsbaseError(thrown) && thrown.code, bad).toBe("bad_request");
      expect((thrown as Error).message).toMatch(/^path\.versionId: /);
    }
  });
});

describe("hasDotSegment", () => {
  it("finds dot segments in every spelling, and nothing else", () => {
    for (const target of [
      "/v1/orgs/X/members/%2e%2e",
      "/v1/orgs/X/members/%2E%2E/",
      "/v1/orgs/X/members/.%2e?x=1",
      "/v1/orgs/X/%2e/members",
      "/v1/orgs/X/members/..",
      "/v1/./user",
      "/v1/orgs/X\\..\\Y",
      "http://host:1/v1/orgs/X/members/%2e%2e",
    ]) {
      expect(hasDotSegment(target), target).toBe(true);
    }
    for (const target of [
      "/v1/orgs/X/members/%2e%2ex",
      "/v1/files/abc/..%2fx.txt",
      "/v1/files/abc/x..txt",
      "/v1/orgs/X?path=/../..",
      "/v1/orgs/X#/..",
      "http://x.example/v1/user",
      "/v1/files/abc/...",
    ]) {
      expect(hasDotSegment(target), target).toBe(false);
    }
  });
});
