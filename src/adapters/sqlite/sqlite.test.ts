import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import type { Storage } from "../../core/storage/index.js";
import { contractSchema, storageContract } from "../../testing/index.js";
import { sqliteStorage } from "./index.js";

const dir = mkdtempSync(join(tmpdir(), "docsbase-sqlite-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const nextFile = () => join(dir, `contract-${++files}.db`);
let file = nextFile();

storageContract("sqlite file", () => sqliteStorage({ filename: (file = nextFile()) }), {
  reopen: () => sqliteStorage({ filename: file }),
});
storageContract("sqlite :memory:", () => sqliteStorage({ filename: ":memory:" }));

describe("sqlite adapter", () => {
  it("puts the file in WAL mode with a schema version", async () => {
    const filename = nextFile();
    const storage = sqliteStorage({ filename });
    await storage.init(contractSchema);
    await storage.close();
    const db = new Database(filename, { readonly: true });
    try {
      expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
      expect(db.prepare("SELECT value FROM docsbase_meta WHERE key = 'schema_version'").pluck().get()).toBe(
        "1",
      );
    } finally {
      db.close();
    }
  });

  it("lets two storages on one file see each other's committed writes", async () => {
    const filename = nextFile();
    const one = sqliteStorage({ filename });
    const two = sqliteStorage({ filename });
    try {
      await one.init(contractSchema);
      await two.init(contractSchema);
      await one.write((tx) => tx.put("items", { id: "a", rank: 1 }));
      expect(await two.read((tx) => tx.get("items", "a"))).toEqual({ id: "a", rank: 1 });
      await two.write((tx) => tx.put("items", { id: "b", rank: 0 }));
      const listed = await one.read((tx) => tx.list("items", { index: "byRank" }));
      expect(listed.map((item) => item.id)).toEqual(["b", "a"]);
    } finally {
      await one.close();
      await two.close();
    }
  });

  it("shares one lock between storages on one passed-in connection, and leaves it open", async () => {
    const db = new Database(":memory:");
    const one = sqliteStorage({ database: db });
    const two = sqliteStorage({ database: db });
    await one.init(contractSchema);
    await two.init(contractSchema);
    const writes = Array.from({ length: 10 }, (_, i) =>
      (i % 2 ? one : two).write(async (tx) => {
        const counter = await tx.get<{ id: string; value: number }>("counters", "c");
        await new Promise((resolve) => setTimeout(resolve, 0));
        await tx.put("counters", { id: "c", value: (counter?.value ?? 0) + 1 });
      }),
    );
    await Promise.all(writes);
    expect(await one.read((tx) => tx.get("counters", "c"))).toEqual({ id: "c", value: 10 });
    await one.close();
    await two.close();
    expect(db.open).toBe(true);
    db.close();
  });

  it("seeks the declared indexes for where, after, reverse and count", async () => {
    const executed: string[] = [];
    const db = new Database(":memory:", { verbose: (sql) => executed.push(String(sql)) });
    const storage = sqliteStorage({ database: db });
    await storage.init(contractSchema);
    await storage.read(async (tx) => {
      await tx.list("items", {
        index: "byGroupRank",
        where: ["g"],
        after: [1, "a"],
        limit: 10,
        reverse: true,
      });
      await tx.list("items", { index: "byRank", after: [1, "a"] });
      await tx.list("items", { index: "byGroupRank", where: ["g", 1], after: ["a"] });
      await tx.count("items", { index: "byGroupRank", where: ["g"] });
    });
    await storage.close();
    const queries = executed.filter((sql) => /^SELECT (doc|count)/.test(sql));
    const plans = queries.map((sql) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
        .map((row) => row.detail)
        .join("; "),
    );
    db.close();
    // Every query seeks an index (no table scan, no sort), and `after` becomes a range bound.
    for (const plan of plans)
      expect(plan).toMatch(/^SEARCH items USING (COVERING )?INDEX items\.\w+ \([^;]*\)$/);
    expect(plans[0]).toContain("items.byGroupRank (<expr>=? AND <expr><?)");
    expect(plans[1]).toContain("items.byRank (<expr>>?)");
    expect(plans[2]).toMatch(/pk>\?\)$/);
  });

  it("queues concurrent writers of two storages on one file instead of failing busy", async () => {
    const filename = nextFile();
    const one = sqliteStorage({ filename, busyTimeoutMs: 200 });
    const two = sqliteStorage({ filename, busyTimeoutMs: 200 });
    try {
      await one.init(contractSchema);
      await two.init(contractSchema);
      const increment = (storage: Storage) =>
        storage.write(async (tx) => {
          const counter = await tx.get<{ id: string; value: number }>("counters", "c");
          await new Promise((resolve) => setTimeout(resolve, 20));
          await tx.put("counters", { id: "c", value: (counter?.value ?? 0) + 1 });
        });
      await Promise.all([one, two, one, two, one, two].map(increment));
      expect(await two.read((tx) => tx.get("counters", "c"))).toEqual({ id: "c", value: 6 });
    } finally {
      await one.close();
      await two.close();
    }
  });

  it("rejects identifiers it cannot quote safely", async () => {
    const storage = sqliteStorage({ filename: ":memory:" });
    const bad = { tables: [{ name: 'x"; DROP TABLE y; --', key: "id", indexes: {} }] };
    await expect(storage.init(bad)).rejects.toThrow(/identifier/);
    const badField = { tables: [{ name: "x", key: "id", indexes: { i: ["a.b"] } }] };
    await expect(storage.init(badField)).rejects.toThrow(/identifier/);
    await expect(
      storage.init({ tables: [{ name: "docsbase_meta", key: "id", indexes: {} }] }),
    ).rejects.toThrow();
    await storage.close();
  });
});
