import { describe, expect, it } from "vitest";
import { OutboundError } from "../net/outbound-error.js";
import type { FetchFunction } from "../net/outbound.js";
import { MAX_REFERENCE_DEPTH, MAX_REFERENCED_FILES, processSource } from "./document.js";

/** `processSource` over an in-memory web: reference rules, loops and limits. */
const web =
  (files: Record<string, string>): FetchFunction =>
  async (input) => {
    const url = String(input);
    if (url.startsWith("http://refused.test/")) throw new OutboundError("address_refused", "refused", url);
    const body = files[url];
    return body === undefined ? new Response("missing", { status: 404 }) : new Response(body);
  };

const doc = (schema: object) =>
  JSON.stringify({
    openapi: "3.1.0",
    info: { title: "T", version: "1" },
    paths: {},
    components: { schemas: { Root: schema } },
  });

describe("processSource", () => {
  it("follows references between files, including loops, and keeps every file", async () => {
    const fetch = web({
      "https://a.test/api.json": doc({ $ref: "./tree.json#/Tree" }),
      "https://a.test/tree.json": JSON.stringify({
        Tree: { type: "object", properties: { children: { type: "array", items: { $ref: "#/Tree" } } } },
      }),
    });
    const result = await processSource(fetch, { url: "https://a.test/api.json" }, "unused");
    expect(result.ok).toBe(true);
    if (result.ok)
      expect([...result.files.keys()]).toEqual(["https://a.test/api.json", "https://a.test/tree.json"]);
  });

  it("refuses a relative reference in a text source, and accepts an absolute one", async () => {
    const relative = await processSource(web({}), { text: doc({ $ref: "other.json" }) }, "key");
    expect(relative).toMatchObject({ ok: false, code: "PARSE_ERROR" });
    if (!relative.ok)
      expect(relative.errors[0]!.message).toMatch(/^key#\/components\/schemas\/Root\/\$ref: relative/);
    const fetch = web({ "https://a.test/s.json": JSON.stringify({ type: "string" }) });
    const absolute = await processSource(fetch, { text: doc({ $ref: "https://a.test/s.json" }) }, "key");
    expect(absolute.ok).toBe(true);
  });

  it("fails a reference to a refused address with FETCH_ERROR, naming where it is", async () => {
    const result = await processSource(web({}), { text: doc({ $ref: "http://refused.test/x.json" }) }, "key");
    expect(result).toMatchObject({ ok: false, code: "FETCH_ERROR" });
    if (!result.ok) {
      expect(result.errors[0]!.message).toContain("key#/components/schemas/Root/$ref");
      expect(result.errors[0]!.message).toContain("address_refused");
    }
  });

  it("limits the depth and the number of referenced files", async () => {
    const chain: Record<string, string> = { "https://a.test/0.json": doc({ $ref: "1.json" }) };
    for (let i = 1; i <= MAX_REFERENCE_DEPTH + 1; i++) {
      chain[`https://a.test/${i}.json`] = JSON.stringify({ $ref: `${i + 1}.json` });
    }
    chain[`https://a.test/${MAX_REFERENCE_DEPTH + 2}.json`] = JSON.stringify({ type: "string" });
    const deep = await processSource(web(chain), { url: "https://a.test/0.json" }, "unused");
    expect(deep).toMatchObject({ ok: false, code: "PARSE_ERROR" });
    if (!deep.ok) expect(deep.errors[0]!.message).toContain(`deeper than ${MAX_REFERENCE_DEPTH}`);

    const many: Record<string, string> = {};
    const properties: Record<string, object> = {};
    for (let i = 0; i <= MAX_REFERENCED_FILES; i++) {
      properties[`p${i}`] = { $ref: `f${i}.json` };
      many[`https://a.test/f${i}.json`] = JSON.stringify({ type: "string" });
    }
    many["https://a.test/api.json"] = doc({ type: "object", properties });
    const wide = await processSource(web(many), { url: "https://a.test/api.json" }, "unused");
    expect(wide).toMatchObject({ ok: false, code: "PARSE_ERROR" });
    if (!wide.ok) expect(wide.errors[0]!.message).toContain(`more than ${MAX_REFERENCED_FILES} files`);
  });

  it("requires info.version, which the validator would otherwise default", async () => {
    const text = JSON.stringify({ openapi: "3.0.3", info: { title: "T" }, paths: {} });
    const result = await processSource(web({}), { text }, "key");
    expect(result).toMatchObject({ ok: false, code: "PARSE_ERROR" });
  });
});
