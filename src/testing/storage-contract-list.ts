import { describe, expect, it } from "vitest";
import type { IndexValue, ListQuery } from "../core/storage/index.js";
import {
  cursor,
  ids,
  itemsTable,
  pageAll,
  seed,
  type ContractContext,
  type Item,
} from "./storage-contract-fixture.js";

/** Index queries: order, `where`, `reverse`, `limit`, `after`, indexability and `count`. */
export function listContract(ctx: ContractContext): void {
  const list = (query: ListQuery) => ctx.storage.read((tx) => tx.list(itemsTable, query));
  const count = (index: string, where?: IndexValue[]) =>
    ctx.storage.read((tx) => tx.count(itemsTable, { index, where }));

  describe("order", () => {
    it("orders numbers numerically, integers and reals alike", async () => {
      const ranks = [10, 2, 1.5, -3, 0, 2.25, 100, 1e-9, -0.5, 1e21];
      await seed(
        ctx.storage,
        itemsTable,
        ranks.map((rank, i) => ({ id: `i${i}`, rank })),
      );
      const listed = await list({ index: "byRank" });
      expect(listed.map((item) => item.rank)).toEqual([...ranks].sort((a, b) => a - b));
    });

    it("orders strings by UTF-16 code unit", async () => {
      const names = ["b", "B", "a", "10", "9", "_", "a b", "ab", "A", "", "~"];
      await seed(
        ctx.storage,
        itemsTable,
        names.map((name, i) => ({ id: `i${i}`, name })),
      );
      const listed = await list({ index: "byName" });
      expect(listed.map((item) => item.name)).toEqual([...names].sort());
    });

    it("breaks ties by primary key, in both directions", async () => {
      await seed(
        ctx.storage,
        itemsTable,
        ["c", "a", "d", "b"].map((id) => ({ id, rank: 1 })),
      );
      expect(ids(await list({ index: "byRank" }))).toEqual(["a", "b", "c", "d"]);
      expect(ids(await list({ index: "byRank", reverse: true }))).toEqual(["d", "c", "b", "a"]);
    });

    it("compares large and fractional numbers exactly", async () => {
      const ranks = [2 ** 53 + 2, 2 ** 60 + 256, 698043479385676000, 0.1 + 0.2, 0.3, -1e-300, 2 ** 64];
      const items = ranks.flatMap((rank, i) => [
        { id: `a${i}`, group: "g", rank },
        { id: `b${i}`, group: "g", rank },
      ]);
      await seed(ctx.storage, itemsTable, items);
      const sorted = [...ranks].sort((a, b) => a - b);
      expect((await list({ index: "byRank" })).map((item) => item.rank)).toEqual(
        sorted.flatMap((r) => [r, r]),
      );
      for (const [i, rank] of ranks.entries()) {
        expect(ids(await list({ index: "byGroupRank", where: ["g", rank] }))).toEqual([`a${i}`, `b${i}`]);
        // Resuming right after the first of two equal values must return the second one first.
        const rest = await list({ index: "byGroupRank", where: ["g"], after: [rank, `a${i}`], limit: 1 });
        expect(ids(rest)).toEqual([`b${i}`]);
      }
    });
  });

  describe("where", () => {
    const items: Item[] = [
      { id: "a", group: "g1", rank: 3, name: "x" },
      { id: "b", group: "g1", rank: 1, name: "y" },
      { id: "c", group: "g2", rank: 2, name: "x" },
      { id: "d", group: "g1", rank: 3, name: "w" },
      { id: "e", group: "g0", rank: 5, name: "z" },
    ];

    it("fixes a prefix of the index fields by equality", async () => {
      await seed(ctx.storage, itemsTable, items);
      expect(ids(await list({ index: "byGroupRank", where: ["g1"] }))).toEqual(["b", "a", "d"]);
      expect(ids(await list({ index: "byGroupRank", where: ["g1", 3] }))).toEqual(["a", "d"]);
      expect(ids(await list({ index: "byGroupRank", where: ["g3"] }))).toEqual([]);
      expect(ids(await list({ index: "byGroupRank", where: [] }))).toEqual(["e", "b", "a", "d", "c"]);
      expect(ids(await list({ index: "byGroupName", where: ["g1"] }))).toEqual(["d", "a", "b"]);
    });

    it("never equates a string with a number", async () => {
      await seed(ctx.storage, itemsTable, [
        { id: "s", group: "1", rank: 1 },
        { id: "n", group: 1, rank: 1 },
      ]);
      expect(ids(await list({ index: "byGroupRank", where: ["1"] }))).toEqual(["s"]);
      expect(ids(await list({ index: "byGroupRank", where: [1] }))).toEqual(["n"]);
      expect(ids(await list({ index: "byGroupRank", where: ["g", 1] }))).toEqual([]);
    });

    it("counts what list returns", async () => {
      await seed(ctx.storage, itemsTable, [
        ...items,
        { id: "f", group: "g1" },
        { id: "g", group: "g1", rank: null },
      ]);
      for (const where of [[], ["g1"], ["g1", 3], ["g2"], ["nope"]]) {
        const listed = await list({ index: "byGroupRank", where });
        expect(await count("byGroupRank", where)).toBe(listed.length);
      }
      expect(await count("byName")).toBe(5);
    });
  });

  describe("reverse, limit and after", () => {
    const items: Item[] = Array.from({ length: 9 }, (_, i) => ({
      id: `k${(i * 7) % 9}`,
      group: i % 2 ? "odd" : "even",
      rank: i % 4,
    }));

    it("reverses the order, with and without where", async () => {
      await seed(ctx.storage, itemsTable, items);
      const forward = ids(await list({ index: "byGroupRank" }));
      expect(ids(await list({ index: "byGroupRank", reverse: true }))).toEqual([...forward].reverse());
      const odd = ids(await list({ index: "byGroupRank", where: ["odd"] }));
      expect(ids(await list({ index: "byGroupRank", where: ["odd"], reverse: true }))).toEqual(
        [...odd].reverse(),
      );
    });

    it("limits the number of records", async () => {
      await seed(ctx.storage, itemsTable, items);
      const all = ids(await list({ index: "byRank" }));
      expect(ids(await list({ index: "byRank", limit: 3 }))).toEqual(all.slice(0, 3));
      expect(ids(await list({ index: "byRank", limit: 0 }))).toEqual([]);
      expect(ids(await list({ index: "byRank", limit: 100 }))).toEqual(all);
      expect(ids(await list({ index: "byRank", limit: 2, reverse: true }))).toEqual(
        all.reverse().slice(0, 2),
      );
    });

    it("resumes strictly after the cursor", async () => {
      await seed(ctx.storage, itemsTable, items);
      const all = await list({ index: "byGroupRank" });
      for (const [i, item] of all.entries()) {
        const rest = await list({ index: "byGroupRank", after: cursor(item, ["group", "rank"]) });
        expect(ids(rest)).toEqual(ids(all.slice(i + 1)));
        const before = await list({
          index: "byGroupRank",
          after: cursor(item, ["group", "rank"]),
          reverse: true,
        });
        expect(ids(before)).toEqual(ids(all.slice(0, i).reverse()));
      }
      // A cursor between stored positions resumes at the next stored one.
      const byRank = ids(await list({ index: "byRank" }));
      expect(ids(await list({ index: "byRank", after: [1.5, ""] }))).toEqual(byRank.slice(5));
    });

    it("pages through every record once, forward and backward, with where", async () => {
      await seed(ctx.storage, itemsTable, items);
      for (const limit of [1, 2, 4]) {
        const all = await list({ index: "byGroupRank" });
        const paged = await pageAll(ctx.storage, { index: "byGroupRank", fields: ["group", "rank"], limit });
        expect(ids(paged)).toEqual(ids(all));
        const odd = await list({ index: "byGroupRank", where: ["odd"], reverse: true });
        const query = { index: "byGroupRank", fields: ["rank"], where: ["odd"], reverse: true, limit };
        expect(ids(await pageAll(ctx.storage, query))).toEqual(ids(odd));
      }
    });

    it("keeps pages stable when records are inserted between calls", async () => {
      await seed(
        ctx.storage,
        itemsTable,
        ["a", "b", "c", "d", "e", "f"].map((id, i) => ({ id, rank: i * 10 })),
      );
      const first = await list({ index: "byRank", limit: 3 });
      expect(ids(first)).toEqual(["a", "b", "c"]);
      await seed(ctx.storage, itemsTable, [
        { id: "before", rank: 5 }, // sorts before the cursor: not returned
        { id: "bb", rank: 20 }, // same rank as the cursor, smaller key: not returned
        { id: "cc", rank: 20 }, // same rank as the cursor, larger key: returned
        { id: "later", rank: 35 }, // after the cursor: returned
      ]);
      const last = first.at(-1) as Item;
      const second = await list({ index: "byRank", after: cursor(last, ["rank"]), limit: 3 });
      expect(ids(second)).toEqual(["cc", "d", "later"]);
    });
  });

  describe("indexability", () => {
    it("leaves out records whose index fields are missing or not strings or numbers", async () => {
      const odd: unknown[] = [null, true, false, [1], { value: 1 }];
      await seed(ctx.storage, itemsTable, [
        { id: "ok", group: "g", rank: 1, name: "n" },
        { id: "missing", group: "g", name: "n" },
        ...odd.map((rank, i) => ({ id: `odd${i}`, group: "g", rank, name: "n" })),
      ]);
      expect(ids(await list({ index: "byRank" }))).toEqual(["ok"]);
      expect(ids(await list({ index: "byGroupRank", where: ["g"] }))).toEqual(["ok"]);
      expect(await count("byGroupRank", ["g"])).toBe(1);
      // Other indexes and get still see them.
      expect(await count("byGroupName", ["g", "n"])).toBe(7);
      const stored = await ctx.storage.read((tx) => tx.get(itemsTable, "odd1"));
      expect(stored).toEqual({ id: "odd1", group: "g", rank: true, name: "n" });
    });

    it("moves a record in and out of an index when it is replaced", async () => {
      await seed(ctx.storage, itemsTable, [{ id: "x", rank: 1 }]);
      await seed(ctx.storage, itemsTable, [{ id: "x", rank: false }]);
      expect(await count("byRank")).toBe(0);
      await seed(ctx.storage, itemsTable, [{ id: "x", rank: 2 }]);
      expect(await list({ index: "byRank" })).toEqual([{ id: "x", rank: 2 }]);
    });
  });
}
