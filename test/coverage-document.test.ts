import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  COVERAGE_COMMAND,
  COVERAGE_FILE,
  coverageCounts,
  coverageMarkdown,
  installedCoverage,
} from "../scripts/coverage.js";
import { REFERENCE_OPERATIONS, REFERENCE_VERSION } from "../src/http/reference-operations.js";
import { createTestDocsbase } from "../src/testing/double.js";

const root = join(import.meta.dirname, "..");
const coverage = installedCoverage();
const counts = coverageCounts(coverage);

describe("docs/coverage.md", () => {
  it("is what the script derives from the registry and the installed @gitbook/api", async () => {
    const committed = readFileSync(join(root, COVERAGE_FILE), "utf8");
    const derived = await coverageMarkdown(coverage);
    expect(committed === derived, `${COVERAGE_FILE} is out of date: run ${COVERAGE_COMMAND}`).toBe(true);
  });

  it("lists the reference's operations the handler knows, each once", () => {
    expect(coverage.version).toBe(REFERENCE_VERSION);
    expect(
      coverage.reference.map(({ operationId, method, path }) => ({ operationId, method, path })),
    ).toEqual(REFERENCE_OPERATIONS);
    expect(counts.served + counts.notServed).toBe(REFERENCE_OPERATIONS.length);
  });

  // "Served" comes from the registry; this holds it to what a client sees: a reference operation
  // the page calls served is routed, one it calls not served answers 501 naming it.
  it("calls served exactly the reference operations the handler routes", async () => {
    const t = await createTestDocsbase();
    const differing: string[] = [];
    for (const { operationId, method, path, served } of coverage.reference) {
      const url = `http://docsbase.test/v1${path.replace(/\{[^}]+\}/g, "x")}`;
      const response = await t.fetch(url, { method: method.toUpperCase() });
      const body = await response.text();
      const unserved = response.status === 501 && body.includes(`does not implement ${operationId} `);
      if (served === unserved) differing.push(`${operationId}: ${response.status}`);
    }
    expect(differing).toEqual([]);
  });
});

describe("the README's Fidelity section", () => {
  it("states the counts and the version that the registry and the reference give", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const section = /^## Fidelity\n([\s\S]*?)(?=^## |$(?![\s\S]))/m.exec(readme)?.[1] ?? "";
    const stated =
      /serves \*\*(\d+) of the (\d+) operations\*\* of the reference API \(`@gitbook\/api@([^`]+)`[\s\S]*?\*\*(\d+) are not served\*\*[\s\S]*?\*\*(\d+) extensions\*\*/.exec(
        section,
      );
    expect(stated, "README.md's Fidelity section states the counts").not.toBeNull();
    const [, served, reference, version, notServed, extensions] = stated!;
    expect({
      served: Number(served),
      reference: Number(reference),
      notServed: Number(notServed),
      extensions: Number(extensions),
      version,
    }).toEqual({ ...counts, version: coverage.version });
    expect(section).toContain(`(${COVERAGE_FILE})`);
  });
});
