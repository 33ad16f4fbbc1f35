import { describe, expect, it } from "vitest";
import { storageContract } from "../../testing/index.js";
import { memoryStorage } from "./index.js";

storageContract("memory", () => memoryStorage());

describe("memory adapter: sorted indexes", () => {
  it("lists and counts exactly as a full scan does, across random writes and queries", async () => {
    const storage = memoryStorage();
    await storage.init({ tables: [{ name: "items", key: "id", indexes: { byGroup: ["group", "rank"] } }] });
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let round = 0; round < 20; round++) {
      await storage.write(async (tx) => {
        for (let i = 0; i < 30; i++) {
          const id = `i${random(80)}`;
          if (random(5) === 0) await tx.delete("items", id);
          else await tx.put("items", { id, group: `g${random(3)}`, rank: random(10) });
        }
      });
      const committed = await storage.read((tx) =>
        tx.list<Record<string, unknown>>("items", { index: "byGroup" }),
      );
      for (let q = 0; q < 10; q++) {
        const where = random(2) === 0 ? [] : [`g${random(3)}`];
        const pivot = committed[random(committed.length)];
        const after =
          pivot && random(2) === 0
            ? [
                ...(where.length ? [] : [pivot["group"] as string]),
                pivot["rank"] as number,
                pivot["id"] as string,
              ]
            : undefined;
        const query = {
          index: "byGroup",
          where,
          reverse: random(2) === 0,
          limit: 1 + random(12),
          ...(after ? { after } : {}),
        };
        const fast = await storage.read(async (tx) => [
          await tx.list("items", query),
          await tx.count("items", query),
        ]);
        // A pending delete of an absent key makes the transaction scan instead of using the index.
        const scanned = await storage.write(async (tx) => {
          await tx.delete("items", "absent");
          return [await tx.list("items", query), await tx.count("items", query)];
        });
        expect(fast).toEqual(scanned);
      }
    }
  });
});
