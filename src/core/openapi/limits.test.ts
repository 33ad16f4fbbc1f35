import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { MAX_NESTING_DEPTH, MAX_RESOLVED_BYTES } from "./limits.js";
import { openAPISpecVersionsTable } from "./tables.js";

const HEAD = `openapi: 3.1.0
info: { title: Pets, version: "1" }
paths: {}
`;

/** Issue 28, items 1 and 5: sources whose parsed value is far larger or deeper than their text. */
describe("OpenAPI processing limits", () => {
  async function processText(text: string) {
    const w = await createWorkspace();
    const ids = { organizationId: w.org, specSlug: "pets" };
    await w.client.createOpenAPISpec({ organizationId: w.org, body: { slug: "pets", source: { text } } });
    await w.test.jobs.drain();
    const spec = await w.client.getOpenAPISpecBySlug(ids);
    return { w, spec };
  }

  it("refuses a text whose YAML aliases resolve past the byte budget, and stores no version", async () => {
    // 110 KiB anchored once and aliased 99 times (yaml allows 100): 110 KiB of text, 10.7 MiB resolved.
    const scalar = "a".repeat(110 * 1024);
    const text = `${HEAD}x-padding:\n  - &big "${scalar}"\n${"  - *big\n".repeat(99)}`;
    expect(text.length).toBeLessThan(200 * 1024);
    const { w, spec } = await processText(text);
    expect(spec).toMatchObject({ processingState: "complete", lastProcessErrorCode: "PARSE_ERROR" });
    expect(spec.lastVersion).toBeUndefined();
    expect(spec.lastProcessedErrors).toEqual([
      {
        code: "PARSE_ERROR",
        message: `source.text: the document and its references exceed the limit of ${MAX_RESOLVED_BYTES} bytes once parsed (YAML aliases resolved)`,
      },
    ]);
    expect(
      await w.storage.read((tx) => tx.list(openAPISpecVersionsTable, { index: "bySpec", where: [spec.id] })),
    ).toEqual([]);
  });

  it("accepts aliases that stay within the budget", async () => {
    const text = `${HEAD}x-padding:\n  - &small "${"a".repeat(1024)}"\n${"  - *small\n".repeat(50)}`;
    const { spec } = await processText(text);
    expect(spec.lastProcessErrorCode).toBeUndefined();
    expect(spec.lastVersion).toBeDefined();
  });

  it("counts levels as request bodies do: the bound itself is accepted, one more is not", async () => {
    // The document is level 1 and `x-deep` opens level 2, so `brackets` arrays reach level
    // `brackets + 1`.
    const atDepth = (brackets: number) =>
      `{"openapi": "3.1.0", "info": {"title": "Pets", "version": "1"}, "paths": {}, "x-deep": ${"[".repeat(brackets)}${"]".repeat(brackets)}}`;
    const within = await processText(atDepth(MAX_NESTING_DEPTH - 1));
    expect(within.spec.lastProcessErrorCode).toBeUndefined();
    expect(within.spec.lastVersion).toBeDefined();
    const past = await processText(atDepth(MAX_NESTING_DEPTH));
    expect(past.spec.lastProcessErrorCode).toBe("PARSE_ERROR");
  });

  it.each([
    ["JSON", 1_000],
    ["JSON", 3_000],
    ["YAML", MAX_NESTING_DEPTH + 10],
  ])(
    "fails a %s text nested %i deep at once, with the limit named and no retry left",
    async (kind, depth) => {
      const nested = `${"[".repeat(depth)}${"]".repeat(depth)}`;
      const text =
        kind === "JSON"
          ? `{"openapi": "3.1.0", "info": {"title": "Pets", "version": "1"}, "paths": {}, "x-deep": ${nested}}`
          : `${HEAD}x-deep: ${nested}\n`;
      const { w, spec } = await processText(text);
      expect(spec).toMatchObject({
        processingState: "complete",
        lastProcessErrorCode: "PARSE_ERROR",
        lastProcessedErrors: [
          {
            code: "PARSE_ERROR",
            message: `source.text: nested deeper than the limit of ${MAX_NESTING_DEPTH} levels`,
          },
        ],
      });
      expect(spec.lastVersion).toBeUndefined();
      expect(await w.test.jobs.pending()).toEqual([]);
      expect((await w.api("GET", `/orgs/${w.org}/openapi/pets`)).status).toBe(200);
    },
  );
});
