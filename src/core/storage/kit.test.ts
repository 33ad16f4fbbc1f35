import { describe, expect, it } from "vitest";
import type { BufferedTransaction, DirectTransaction, TableWrites } from "./engine.js";
import { createStorage } from "./kit.js";
import type { Table, WriteTransaction } from "./port.js";

const notes: Table<{ id: string; text: string }> = { name: "notes", key: "id", indexes: {} };
const reads = { get: async () => undefined, list: async () => [], count: async () => 0 };

describe("storage kit", () => {
  it("gives a direct engine each attempt of a retried body a fresh view, and ends the old one", async () => {
    const puts: string[] = [];
    const tx: DirectTransaction = {
      ...reads,
      put: async (_table, key, json) => void puts.push(`${key} ${json}`),
      delete: async () => false,
    };
    let attempts = 0;
    const storage = createStorage({
      writes: "direct",
      init: async () => {},
      // As a PostgreSQL engine would on a serialization failure: undo, then run the body again.
      async transaction(_mode, body) {
        try {
          return await body(tx);
        } catch {
          puts.length = 0;
          return body(tx);
        }
      },
      close: async () => {},
    });
    await storage.init({ tables: [notes] });
    const views: WriteTransaction[] = [];
    const result = await storage.write(async (view) => {
      views.push(view);
      await view.put(notes, { id: "a", text: `attempt ${++attempts}` });
      if (attempts === 1) throw new Error("could not serialize access");
      return attempts;
    });
    expect(result).toBe(2);
    expect(puts).toEqual(['a {"id":"a","text":"attempt 2"}']);
    expect(views[0]).not.toBe(views[1]);
    await expect(views[0]!.get(notes, "a")).rejects.toThrow(/already finished/);
  });

  it("applies a buffered engine's writes once, after the body, and only when there are some", async () => {
    const applied: (readonly TableWrites[])[] = [];
    const tx: BufferedTransaction = { ...reads, apply: async (writes) => void applied.push(writes) };
    let closed = 0;
    const storage = createStorage({
      writes: "buffered",
      init: async () => {},
      transaction: (_mode, body) => body(tx),
      close: async () => void closed++,
    });
    await storage.init({ tables: [notes] });
    await storage.write(async () => {});
    await storage.read(async () => {});
    await storage.write(async (view) => {
      await view.put(notes, { id: "a", text: "one" });
      await view.put(notes, { id: "a", text: "two" });
      await view.delete(notes, "b");
      expect(applied).toEqual([]);
    });
    expect(applied).toHaveLength(1);
    expect([...applied[0]![0]!.records]).toEqual([
      ["a", { id: "a", text: "two" }],
      ["b", null],
    ]);
    await Promise.all([storage.close(), storage.close()]);
    expect(closed).toBe(1);
    await expect(storage.init({ tables: [notes] })).rejects.toThrow(/closed/);
  });
});
