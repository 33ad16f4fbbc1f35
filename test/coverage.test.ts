import { describe, expect, it } from "vitest";
import { operations } from "../src/core/operations.js";
import { COVERAGE } from "./conformance/coverage.js";
import { referenceOperationIds } from "./conformance/harness.js";

/**
 * Every registry operation that the reference document has is exercised through the official
 * client: it is in some conformance file's COVERAGE list, which that file checks against the
 * calls that actually went through the client.
 */
describe("conformance coverage", () => {
  it("covers every reference operation of the registry", () => {
    const covered = new Set<string>(Object.values(COVERAGE).flat());
    const missing = Object.keys(operations).filter((id) => referenceOperationIds.has(id) && !covered.has(id));
    expect(missing).toEqual([]);
  });

  it("lists only operations that exist in both the registry and the reference", () => {
    const unknown = Object.values(COVERAGE)
      .flat()
      .filter((id) => !(id in operations) || !referenceOperationIds.has(id));
    expect(unknown).toEqual([]);
  });
});
