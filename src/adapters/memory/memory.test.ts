import { describe, expect, it } from "vitest";
import { compareTuples, indexTuple, type IndexValue, type Table } from "../../core/storage/index.js";
import { storageContract } from "../../testing/index.js";
import { memoryStorage } from "./index.js";

storageContract("memory", () => memoryStorage());

describe("memory adapter: sorted indexes", () => {
  type Row = { id: string; group: string; rank: number };
  const items: Table<Row> = { name: "items", key: "id", indexes: { byGroup: ["group", "rank"] } };

  it("lists and counts exactly as a full scan does, from committed data and through pending writes", async () => {
    const storage = memoryStorage();
    await storage.init({ tables: [items] });
    // The oracle: every committed row, scanned, filtered and sorted here.
    const model = new Map<string, Row>();
    const scan = (where: IndexValue[], after: IndexValue[] | undefined, reverse: boolean) => {
      const direction = reverse ? -1 : 1;
      const position = after && [...where, ...after];
      return [...model.values()]
        .map((row) => ({ row, tuple: indexTuple(row, ["group", "rank"], "id")! }))
        .filter(({ tuple }) => where.every((value, i) => tuple[i] === value))
        .filter(({ tuple }) => !position || compareTuples(tuple, position) * direction > 0)
        .sort((a, b) => compareTuples(a.tuple, b.tuple) * direction)
        .map(({ row }) => row);
    };
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const queries = () =>
      Array.from({ length: 10 }, () => {
        const committed = [...model.values()];
        const where = random(2) === 0 ? [] : [`g${random(3)}`];
        const pivot = committed[random(committed.length)];
        const after =
          pivot && random(2) === 0
            ? [...(where.length ? [] : [pivot.group]), pivot.rank, pivot.id]
            : undefined;
        const reverse = random(2) === 0;
        const limit = 1 + random(12);
        const query = { index: "byGroup", where, reverse, limit, ...(after ? { after } : {}) };
        const expected = [scan(where, after, reverse).slice(0, limit), scan(where, undefined, false).length];
        return { query, expected };
      });
    for (let round = 0; round < 20; round++) {
      // Pending writes, then reads through the kit's overlay merge over the sorted indexes.
      await storage.write(async (tx) => {
        for (let i = 0; i < 30; i++) {
          const id = `i${random(80)}`;
          if (random(5) === 0) {
            await tx.delete(items, id);
            model.delete(id);
          } else {
            const row = { id, group: `g${random(3)}`, rank: random(10) };
            await tx.put(items, row);
            model.set(id, row);
          }
        }
        for (const { query, expected } of queries()) {
          expect([await tx.list(items, query), await tx.count(items, query)]).toEqual(expected);
        }
      });
      // Committed data, straight from the sorted indexes.
      await storage.read(async (tx) => {
        for (const { query, expected } of queries()) {
          expect([await tx.list(items, query), await tx.count(items, query)]).toEqual(expected);
        }
      });
    }
  });
});
