import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type BundleReport, measureBundle, packageOf } from "./support/browser-bundle.js";

/**
 * The browser bundle's size (issue 27, item 6), counted in bytes: core plus the IndexedDB adapter,
 * bundled by esbuild for the browser as docs/browser.md shows, loads at most 250 KB gzipped before
 * its first line runs. PDF export, OpenAPI parsing and validation (YAML included) and the X.509
 * certificate parser are lazy chunks, fetched when an operation first needs them.
 */
const LAZY_PACKAGES = [
  "pdf-lib",
  "@pdf-lib/standard-fonts",
  "pako",
  "yaml",
  "ajv",
  "@scalar/openapi-parser",
  "@scalar/openapi-validator",
  "asn1js",
  "@peculiar/asn1-x509",
];

describe("browser bundle", () => {
  let report: BundleReport;
  beforeAll(async () => {
    report = await measureBundle();
  });

  it("leaves PDF export, OpenAPI parsing and certificates out of the initial load", () => {
    const initial = new Set([...report.initialInputs.keys()].map(packageOf));
    expect(LAZY_PACKAGES.filter((name) => initial.has(name))).toEqual([]);
    const lazy = report.lazy.map((chunk) => chunk.top).join(", ");
    for (const name of ["pdf-lib", "yaml", "asn1js"]) expect(lazy).toContain(name);
  });

  it("bundles zod's used parts only: no translations of its messages", () => {
    const locales = [...report.initialInputs.keys()].filter((input) => input.includes("zod/v4/locales/"));
    expect(locales.length).toBeLessThanOrEqual(1);
  });

  it("loads at most 250 KB gzipped before the first line runs", () => {
    expect(report.initial.gzip).toBeLessThanOrEqual(250_000);
  });
});

describe("docs/browser.md", () => {
  const root = join(import.meta.dirname, "..");
  const example = join(root, "examples", "browser");
  const files = ["src/in-page.js", "src/service-worker.js", "public/app.js", "public/notes.js"].map((file) =>
    squeeze(readFileSync(join(example, file), "utf8")),
  );

  it("shows the examples' code as it is in examples/browser", () => {
    const markdown = readFileSync(join(root, "docs", "browser.md"), "utf8");
    const blocks = [...markdown.matchAll(/^```js\n([\s\S]*?)^```$/gm)].map(([, code]) => squeeze(code!));
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    for (const block of blocks)
      expect(
        files.some((file) => file.includes(block)),
        block,
      ).toBe(true);
  });
});

/** The code without its indentation, so that an excerpt from inside a function compares. */
function squeeze(code: string): string {
  return code
    .split("\n")
    .map((line) => line.trim())
    .join("\n");
}
