import { seededRandom as seeded } from "../../../test/support/crash-workload.js";
import { describe, expect, it } from "vitest";
import { memoryStorage } from "../../adapters/memory/index.js";
import type { DerivedCache } from "../shared/cache.js";
import { NodeStore, mapConflicts, mapEntries, mapMerge, mapUpdate, treeNodesTable } from "./hamt.js";

/**
 * The three-way merge of maps against the map built from the merged entries: the same root hash
 * (one canonical shape per set of entries), including when the merge shrinks a branch back to a
 * leaf or grows a leaf into a branch, at one level or several.
 */

type Entries = Map<string, string>;

/** Random changes to `base`: about `share` of its keys changed or removed, and `added` new keys. */
function edit(random: () => number, base: Entries, share: number, added: number, tag: string): Entries {
  const next = new Map(base);
  for (const key of base.keys()) {
    const roll = random();
    if (roll < share / 2) next.delete(key);
    else if (roll < share) next.set(key, `${tag}${Math.floor(random() * 3)}`);
  }
  for (let i = 0; i < added; i++) next.set(`${tag}-${i}-${Math.floor(random() * 1e6)}`, tag);
  return next;
}

describe("three-way merge of maps", () => {
  it("equals the map of the merged entries, entry by entry", async () => {
    const storage = memoryStorage();
    await storage.init({ tables: [treeNodesTable] });
    // [size, share of keys each side changes at most, keys each side adds at most]: a 40-key
    // branch that both sides shrink to a leaf between them, leaves that grow into branches, and
    // branches two levels deep.
    const shapes = [
      [5, 0.9, 60],
      [40, 0.3, 0],
      [80, 0.5, 4],
      [30, 0.2, 40],
      [400, 0.9, 60],
      [1100, 0.9, 40],
    ] as const;
    for (let seed = 1; seed <= 60; seed++) {
      const random = seeded(seed);
      const [size, share, added] = shapes[seed % shapes.length]!;
      const base: Entries = new Map(Array.from({ length: size }, (_, i) => [`k${i}`, "v"]));
      const amount = () => Math.floor(random() * added);
      const ours = edit(random, base, random() < 0.2 ? 0 : random() * share, amount(), "o");
      const theirs = edit(random, base, random() * share, amount(), "t");
      if (random() < 0.2) for (const [key, value] of theirs) if (random() < 0.5) ours.set(key, value);

      await storage.write(async (tx) => {
        const store = new NodeStore(tx, new Map() as unknown as DerivedCache);
        const root = (entries: Entries) => mapUpdate(store, "", new Map(entries));
        const [b, o, t] = [await root(base), await root(ours), await root(theirs)];

        const expected: Entries = new Map();
        const both = new Map<string, { base?: string; ours?: string; theirs?: string }>();
        const decided = new Map<string, string | null>();
        for (const key of new Set([...base.keys(), ...ours.keys(), ...theirs.keys()])) {
          const [vb, vo, vt] = [base.get(key), ours.get(key), theirs.get(key)];
          let value = vo === vb ? vt : vo;
          if (vo !== vb && vt !== vb && vo !== vt) {
            both.set(key, { base: vb, ours: vo, theirs: vt });
            value = random() < 0.3 ? undefined : `merged${Math.floor(random() * 2)}`;
            decided.set(key, value ?? null);
          } else if (random() < 0.02) {
            // A decided key that neither side's subtree would have settled alone.
            value = `forced${seed}`;
            decided.set(key, value);
          }
          if (value !== undefined) expected.set(key, value);
        }

        expect(await mapConflicts(store, b, o, t), `seed ${seed}`).toEqual(both);
        const merged = await mapMerge(store, b, o, t, decided);
        expect(merged, `seed ${seed}`).toBe(await root(expected));
        expect(new Map(await mapEntries(store, merged))).toEqual(expected);
      });
    }
  });

  it("takes a side's subtree as it is where the other side left base's", async () => {
    const storage = memoryStorage();
    await storage.init({ tables: [treeNodesTable] });
    await storage.write(async (tx) => {
      const store = new NodeStore(tx, new Map() as unknown as DerivedCache);
      const base = await mapUpdate(
        store,
        "",
        new Map(Array.from({ length: 2000 }, (_, i) => [`k${i}`, "v"] as const)),
      );
      const theirs = await mapUpdate(
        store,
        base,
        new Map(Array.from({ length: 500 }, (_, i) => [`k${i * 4}`, "t"])),
      );
      const ours = await mapUpdate(store, base, new Map([["k1", "o"]]));
      let puts = 0;
      const counting = new NodeStore(
        {
          get: (table, key) => tx.get(table, key),
          put: (table, record) => (puts++, tx.put(table, record)),
        } as typeof tx,
        new Map() as unknown as DerivedCache,
      );
      await mapMerge(counting, base, ours, theirs, new Map());
      // Only the nodes on k1's path where theirs changed as well: at most one per level.
      expect(puts).toBeLessThanOrEqual(3);
      expect(await mapMerge(counting, base, base, theirs, new Map())).toBe(theirs);
    });
  });
});
