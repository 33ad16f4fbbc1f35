import { seededRandom as seeded } from "../../../test/support/crash-workload.js";
import { describe, expect, it } from "vitest";
import { memoryStorage } from "../../adapters/memory/index.js";
import type { DerivedCache } from "../shared/cache.js";
import type { WriteTransaction } from "../storage/port.js";
import { NodeStore, treeNodesTable } from "./hamt.js";
import { type Row, buildList, lastRow, listRows, updateList } from "./sibling-list.js";

/**
 * Children lists edited row by row against the list built at once from the same rows: one shape
 * (the same root hash) whatever the order of the edits, and an edit that writes a few nodes
 * whatever the length of the list.
 */

const byKey = (a: Row, b: Row) =>
  a[0] !== b[0] ? (a[0] < b[0] ? -1 : 1) : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;

async function withStore<T>(fn: (store: NodeStore, tx: WriteTransaction) => Promise<T>): Promise<T> {
  const storage = memoryStorage();
  await storage.init({ tables: [treeNodesTable] });
  return storage.write((tx) => fn(new NodeStore(tx, new Map() as unknown as DerivedCache), tx));
}

describe("children lists", () => {
  it("have one shape per set of rows, however they were edited", async () => {
    for (let seed = 1; seed <= 12; seed++) {
      const random = seeded(seed);
      const position = () => `a${Math.floor(random() * 1e6).toString(36)}`;
      await withStore(async (store) => {
        let rows = new Map<string, Row>();
        let root = "";
        let serial = 0;
        for (let round = 0; round < 30; round++) {
          const remove: Row[] = [];
          const add: Row[] = [];
          for (const row of rows.values()) {
            const roll = random();
            if (roll < 0.05) remove.push(row);
            else if (roll < 0.08) add.push([position(), row[1], `moved-${round}`]);
          }
          const adds = Math.floor(random() * (seed % 3 === 0 ? 400 : 40));
          for (let i = 0; i < adds; i++) add.push([position(), `p${seed}-${serial++}`, `s${i}`]);
          const next = new Map(rows);
          for (const row of remove) next.delete(row[1]);
          const keys = [...remove, ...add.filter((row) => rows.has(row[1])).map((row) => rows.get(row[1])!)];
          for (const row of add) next.set(row[1], row);
          root = await updateList(
            store,
            root,
            keys.map(([position, page]) => ({ position, page })),
            add,
          );
          rows = next;
          const sorted = [...rows.values()].sort(byKey);
          expect(root, `seed ${seed}, round ${round}`).toBe(await buildList(store, sorted));
          expect(await listRows(store, root)).toEqual(sorted);
          expect(await lastRow(store, root)).toEqual(sorted.at(-1));
        }
      });
    }
  });

  it("take a list stored as one node and cut it at its first edit", async () => {
    await withStore(async (store) => {
      const rows: Row[] = Array.from({ length: 500 }, (_, i) => [`a${1000 + i}`, `page-${i}`, `s${i}`]);
      const old = await store.put({ list: rows.map((row) => [...row]) });
      const added: Row = ["b", "page-new", "new"];
      expect(await updateList(store, old, [], [added])).toBe(await buildList(store, [...rows, added]));
    });
  });

  it("write a few nodes to append a row, whatever the length", async () => {
    const written = async (length: number) =>
      withStore(async (store) => {
        const rows: Row[] = Array.from({ length }, (_, i) => [`a${100000 + i}`, `page-${i}`, `s${i}`]);
        const root = await buildList(store, rows);
        let chars = 0;
        const counting = Object.assign(Object.create(store) as NodeStore, {
          put: (node: Parameters<NodeStore["put"]>[0]) => (
            (chars += JSON.stringify(node).length),
            store.put(node)
          ),
        });
        await updateList(counting, root, [], [["b", "page-new", "new"]]);
        return chars;
      });
    // A leaf and one node of parts per level above it (about 2.5 KB each at most, some 40 entries),
    // against some 300 KB for the whole list of 10,000 rows that the old single node rewrote.
    expect(await written(10)).toBeLessThan(1_000);
    expect(await written(1_000)).toBeLessThan(8_000);
    expect(await written(10_000)).toBeLessThan(12_000);
  });
});
