import { describe, expect, it } from "vitest";
import {
  countersTable,
  ids,
  itemsTable,
  pause,
  seed,
  type ContractContext,
} from "./storage-contract-fixture.js";

/** Transactions: own writes, atomicity, serialization and read snapshots. */
export function transactionContract(ctx: ContractContext): void {
  const get = (id: string) => ctx.storage.read((tx) => tx.get(itemsTable, id));
  const snapshot = () =>
    ctx.storage.read(async (tx) => ({
      items: await tx.list(itemsTable, { index: "byRank" }),
      count: await tx.count(itemsTable, { index: "byRank" }),
    }));

  describe("transactions", () => {
    it("returns what the body returns", async () => {
      expect(await ctx.storage.write(async () => 42)).toBe(42);
      expect(await ctx.storage.read(async () => "read")).toBe("read");
    });

    it("reads its own pending writes with get, list and count", async () => {
      await seed(ctx.storage, itemsTable, [
        { id: "a", rank: 1 },
        { id: "b", rank: 2 },
      ]);
      await ctx.storage.write(async (tx) => {
        await tx.put(itemsTable, { id: "c", rank: 0 });
        await tx.put(itemsTable, { id: "b", rank: 5 });
        expect(await tx.delete(itemsTable, "a")).toBe(true);
        expect(await tx.get(itemsTable, "a")).toBeUndefined();
        expect(await tx.get(itemsTable, "c")).toEqual({ id: "c", rank: 0 });
        expect(ids(await tx.list(itemsTable, { index: "byRank" }))).toEqual(["c", "b"]);
        expect(await tx.list(itemsTable, { index: "byRank", where: [5] })).toEqual([{ id: "b", rank: 5 }]);
        expect(await tx.count(itemsTable, { index: "byRank" })).toBe(2);
        expect(await tx.delete(itemsTable, "a")).toBe(false);
        await tx.put(itemsTable, { id: "d", rank: 9 });
        expect(await tx.delete(itemsTable, "d")).toBe(true);
        expect(await tx.get(itemsTable, "d")).toBeUndefined();
      });
      expect(await snapshot()).toEqual({
        items: [
          { id: "c", rank: 0 },
          { id: "b", rank: 5 },
        ],
        count: 2,
      });
    });

    it("leaves nothing visible when the body throws, and rethrows the same error", async () => {
      await seed(ctx.storage, itemsTable, [
        { id: "a", rank: 1 },
        { id: "b", rank: 2 },
      ]);
      const before = await snapshot();
      const failure = new Error("boom");
      const attempt = ctx.storage.write(async (tx) => {
        await tx.put(itemsTable, { id: "c", rank: 3 });
        await tx.put(itemsTable, { id: "a", rank: 10 });
        await pause();
        await tx.delete(itemsTable, "b");
        await tx.put(countersTable, { id: "n", value: 1 });
        throw failure;
      });
      await expect(attempt).rejects.toBe(failure);
      expect(await snapshot()).toEqual(before);
      expect(await ctx.storage.read((tx) => tx.get(countersTable, "n"))).toBeUndefined();
    });

    it("rethrows non-Error rejections unchanged and keeps working afterwards", async () => {
      const reason = { code: "conflict" };
      await expect(
        ctx.storage.write(async (tx) => {
          await tx.put(itemsTable, { id: "x", rank: 1 });
          return Promise.reject(reason);
        }),
      ).rejects.toBe(reason);
      const failure = new Error("read failed");
      await expect(ctx.storage.read(async () => Promise.reject(failure))).rejects.toBe(failure);
      await seed(ctx.storage, itemsTable, [{ id: "y", rank: 2 }]);
      expect(ids((await snapshot()).items)).toEqual(["y"]);
    });

    it("serializes concurrent read-modify-write transactions", async () => {
      await seed(ctx.storage, countersTable, [{ id: "c", value: 0 }]);
      const increments = Array.from({ length: 20 }, () =>
        ctx.storage.write(async (tx) => {
          const counter = await tx.get(countersTable, "c");
          await pause();
          await tx.put(countersTable, { id: "c", value: (counter?.value ?? 0) + 1 });
        }),
      );
      await Promise.all(increments);
      expect(await ctx.storage.read((tx) => tx.get(countersTable, "c"))).toEqual({ id: "c", value: 20 });
    });

    it("never shows uncommitted data to other transactions", async () => {
      const observed: unknown[] = [];
      const observe = async () => observed.push((await get("x"))?.rank ?? "absent");
      const early = observe();
      const committing = ctx.storage.write(async (tx) => {
        await tx.put(itemsTable, { id: "x", rank: 1 });
        await pause(5);
        await tx.put(itemsTable, { id: "x", rank: 2 });
        await pause(5);
      });
      const failing = ctx.storage.write(async (tx) => {
        await tx.put(itemsTable, { id: "x", rank: 99 });
        await pause(5);
        throw new Error("abort");
      });
      const other = ctx.storage.write(async (tx) => {
        const seen = await tx.get(itemsTable, "x");
        observed.push(seen?.rank ?? "absent");
      });
      await Promise.all([early, committing, observe(), failing.catch(() => undefined), other, observe()]);
      for (const rank of observed) expect(["absent", 2]).toContain(rank);
      expect((await get("x"))?.rank).toBe(2);
    });

    it("gives a read one consistent state while a write runs alongside", async () => {
      await seed(ctx.storage, itemsTable, [{ id: "x", rank: 1 }]);
      let started!: () => void;
      const firstRead = new Promise<void>((resolve) => (started = resolve));
      const reading = ctx.storage.read(async (tx) => {
        const first = await tx.get(itemsTable, "x");
        started();
        await pause(10);
        const second = await tx.get(itemsTable, "x");
        const listed = await tx.list(itemsTable, { index: "byRank" });
        return [first?.rank, second?.rank, listed[0]?.rank];
      });
      await firstRead;
      const writing = seed(ctx.storage, itemsTable, [{ id: "x", rank: 2 }]);
      expect(await reading).toEqual([1, 1, 1]);
      await writing;
      expect((await get("x"))?.rank).toBe(2);
    });
  });
}
