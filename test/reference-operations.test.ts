import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REFERENCE_OPERATIONS_FILE, referenceOperationsSource } from "../scripts/reference-operations.js";
import { operations } from "../src/core/operations.js";
import { REFERENCE_OPERATIONS } from "../src/http/reference-operations.js";

describe("the reference's operations (src/http/reference-operations.ts)", () => {
  it("is what the script derives from the installed @gitbook/api", async () => {
    const committed = readFileSync(join(import.meta.dirname, "..", REFERENCE_OPERATIONS_FILE), "utf8");
    const derived = await referenceOperationsSource();
    expect(
      committed === derived,
      `${REFERENCE_OPERATIONS_FILE} is out of date: run npx tsx scripts/reference-operations.ts`,
    ).toBe(true);
  });

  it("holds every operation of the document once", () => {
    expect(REFERENCE_OPERATIONS).toHaveLength(309);
    expect(new Set(REFERENCE_OPERATIONS.map((operation) => operation.operationId)).size).toBe(309);
  });

  it("gives each operation the registry serves the registry's method and path", () => {
    const differing = REFERENCE_OPERATIONS.flatMap(({ operationId, method, path }) => {
      const served = (operations as Record<string, { method: string; path: string }>)[operationId];
      return served && (served.method !== method || served.path !== path) ? [operationId] : [];
    });
    expect(differing).toEqual([]);
  });
});
