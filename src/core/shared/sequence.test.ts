import { describe, expect, it } from "vitest";
import { memoryStorage } from "../../adapters/memory/index.js";
import { nextSequence, sequencesTable } from "./sequence.js";

describe("insertion sequences", () => {
  it("keeps one counter per scope, each starting above the global counter", async () => {
    const storage = memoryStorage();
    await storage.init({ tables: [sequencesTable] });
    const next = (scope?: string) => storage.write((tx) => nextSequence(tx, scope));
    // Data written before scoped counters: the global counter stands at 100.
    await storage.write((tx) => tx.put(sequencesTable, { name: "insertion", value: 100 }));
    expect([await next("spaceA"), await next("spaceA"), await next("spaceB"), await next("spaceA")]).toEqual([
      101, 102, 101, 103,
    ]);
    // The scoped counters never moved the global one; unscoped records still take it.
    expect(await next()).toBe(101);
    expect(await storage.read((tx) => tx.get(sequencesTable, "insertion:spaceA"))).toEqual({
      name: "insertion:spaceA",
      value: 103,
    });
  });
});
