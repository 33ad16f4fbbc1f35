import { describe, expect, it } from "vitest";
import { enginesConflicts, installedEngines } from "../scripts/engines.js";

describe("engines.node", () => {
  it("is allowed by every locked package, so a clean install prints no EBADENGINE", () => {
    const { range, lock } = installedEngines();
    expect(enginesConflicts(lock, range), `package.json engines.node is ${range}`).toEqual([]);
  });

  it("names each locked package that refuses part of the declared range", () => {
    const lock = {
      packages: {
        "": { version: "0.1.0", engines: { node: ">=20" } },
        "node_modules/wide": { version: "1.0.0", engines: { node: ">=18" } },
        "node_modules/narrow": { version: "2.0.0", engines: { node: ">=22" } },
        "node_modules/gap": { version: "3.0.0", engines: { node: "^20.19.0 || >=22.12.0" } },
        "node_modules/old": { version: "0.1.0", engines: ["node >= 0.4"] },
        "node_modules/none": { version: "1.0.0" },
      },
    };
    expect(enginesConflicts(lock, ">=20").map((conflict) => conflict.path)).toEqual([
      "node_modules/narrow",
      "node_modules/gap",
    ]);
    expect(enginesConflicts(lock, "^20.19.0 || >=22.12.0").map((conflict) => conflict.path)).toEqual([
      "node_modules/narrow",
    ]);
  });
});
