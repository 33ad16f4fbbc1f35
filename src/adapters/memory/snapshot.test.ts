import { describe, expect, it } from "vitest";
import { compareTuples, indexTuple, type IndexValue, type Table } from "../../core/storage/index.js";
import { isMemoryStorage, memoryStorage, type MemoryStorage } from "./index.js";

type Row = { id: string; group: string; rank: number };
const items: Table<Row> = { name: "items", key: "id", indexes: { byGroup: ["group", "rank"] } };
const others: Table<Row> = { name: "others", key: "id", indexes: { byRank: ["rank"] } };
const schema = { tables: [items, others] };

/** A seeded generator, so that a failure replays. */
function generator(seed: number) {
  return (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
}

/** Writes `count` random puts and deletes to `items` (ids among `ids`), in transactions of 50, to storage and model. */
async function scribble(
  storage: MemoryStorage,
  model: Map<string, Row>,
  random: (n: number) => number,
  count: number,
  ids = 2_000,
) {
  for (let done = 0; done < count; done += 50) {
    await storage.write(async (tx) => {
      for (let i = 0; i < 50; i++) {
        const id = `i${random(ids)}`;
        if (random(6) === 0) {
          await tx.delete(items, id);
          model.delete(id);
        } else {
          const row = { id, group: `g${random(4)}`, rank: random(50) };
          await tx.put(items, row);
          model.set(id, row);
        }
      }
    });
  }
}

/** Every row, list and count of `items` is what the model says, forwards, backwards and from cursors. */
async function expectState(storage: MemoryStorage, model: Map<string, Row>) {
  const sorted = [...model.values()].sort((a, b) =>
    compareTuples(indexTuple(a, ["group", "rank"], "id")!, indexTuple(b, ["group", "rank"], "id")!),
  );
  await storage.read(async (tx) => {
    expect(await tx.list(items, { index: "byGroup", where: [] })).toEqual(sorted);
    expect(await tx.list(items, { index: "byGroup", where: [], reverse: true })).toEqual(
      [...sorted].reverse(),
    );
    expect(await tx.count(items, { index: "byGroup", where: [] })).toBe(model.size);
    for (const group of ["g0", "g1", "g2", "g3"]) {
      const inGroup = sorted.filter((row) => row.group === group);
      expect(await tx.count(items, { index: "byGroup", where: [group] })).toBe(inGroup.length);
      const pivot = inGroup[inGroup.length >>> 1];
      if (!pivot) continue;
      const after: IndexValue[] = [pivot.rank, pivot.id];
      const at = inGroup.indexOf(pivot);
      expect(await tx.list(items, { index: "byGroup", where: [group], after, limit: 300 })).toEqual(
        inGroup.slice(at + 1, at + 301),
      );
      expect(
        await tx.list(items, { index: "byGroup", where: [group], after, reverse: true, limit: 300 }),
      ).toEqual(inGroup.slice(Math.max(0, at - 300), at).reverse());
    }
    for (const id of ["i0", "i1", "i7", "i1999"]) expect(await tx.get(items, id)).toEqual(model.get(id));
  });
}

async function filled(random: (n: number) => number) {
  const storage = memoryStorage();
  await storage.init(schema);
  const model = new Map<string, Row>();
  await scribble(storage, model, random, 3_000);
  return { storage, model };
}

describe("memory adapter: snapshots", () => {
  it("keeps a snapshot as it was through writes after it, and restores it with consistent indexes", async () => {
    const random = generator(11);
    const { storage, model } = await filled(random);
    const snapshot = await storage.snapshot();
    const before = new Map(model);
    await scribble(storage, model, random, 2_000);
    await expectState(storage, model);
    await storage.restore(snapshot);
    await expectState(storage, before);
    // Written again after the restore, then restored again: the snapshot did not take those writes.
    await scribble(storage, new Map(before), random, 1_000);
    await storage.restore(snapshot);
    await expectState(storage, before);
  });

  it("restores any of many snapshots, in any order", async () => {
    const random = generator(5);
    const { storage, model } = await filled(random);
    const taken: { snapshot: Awaited<ReturnType<MemoryStorage["snapshot"]>>; model: Map<string, Row> }[] = [];
    for (let i = 0; i < 8; i++) {
      taken.push({ snapshot: await storage.snapshot(), model: new Map(model) });
      await scribble(storage, model, random, 300);
    }
    for (const i of [3, 0, 7, 3, 5]) {
      await storage.restore(taken[i]!.snapshot);
      await expectState(storage, taken[i]!.model);
      await scribble(storage, new Map(taken[i]!.model), random, 100);
    }
  });

  it("forks a storage that each side then writes independently", async () => {
    const random = generator(3);
    const { storage, model } = await filled(random);
    const fork = memoryStorage({ from: await storage.snapshot() });
    await fork.init(schema);
    const forked = new Map(model);
    await scribble(storage, model, random, 1_000);
    await scribble(fork, forked, random, 1_000);
    await storage.write((tx) => tx.put(others, { id: "o1", group: "g0", rank: 1 }));
    await expectState(storage, model);
    await expectState(fork, forked);
    expect(await fork.read((tx) => tx.get(others, "o1"))).toBeUndefined();
    expect(await storage.read((tx) => tx.count(others, { index: "byRank", where: [] }))).toBe(1);
  });

  it("waits for the transaction under way before taking a snapshot", async () => {
    const storage = memoryStorage();
    await storage.init(schema);
    let release!: () => void;
    const writing = storage.write(async (tx) => {
      await tx.put(items, { id: "a", group: "g0", rank: 1 });
      await new Promise<void>((resolve) => (release = resolve));
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const snapshot = storage.snapshot();
    release();
    await writing;
    await storage.write((tx) => tx.delete(items, "a"));
    await storage.restore(await snapshot);
    expect(await storage.read((tx) => tx.get(items, "a"))).toEqual({ id: "a", group: "g0", rank: 1 });
  });

  it("tells a memory storage from another, and refuses what is not one of its snapshots", async () => {
    const storage = memoryStorage();
    expect(isMemoryStorage(storage)).toBe(true);
    expect(isMemoryStorage({ ...storage })).toBe(false);
    await expect(storage.restore({} as never)).rejects.toThrow("Not a snapshot of a memory storage");
  });
});
