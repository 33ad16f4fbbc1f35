import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import type { Storage } from "../../core/storage/index.js";
import { contractSchema, contractTables, storageContract } from "../../testing/index.js";
import { openBetterSqlite3 } from "./driver.js";
import { sqliteStorage, type SqliteDatabase } from "./index.js";

const { items, counters } = contractTables;
const dir = mkdtempSync(join(tmpdir(), "docsbase-sqlite-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const nextFile = () => join(dir, `contract-${++files}.db`);
let file = nextFile();

/**
 * A better-sqlite3 connection as a {@link SqliteDatabase} that tells `seen` of each call of the
 * statements whose SQL starts with `prefix` (its SQL and whether it was a `get` or a `run`).
 */
function watchedDatabase(
  db: Database.Database,
  prefix: string,
  seen: (sql: string, call: "get" | "run") => void,
): SqliteDatabase {
  return {
    prepare(sql) {
      const statement = db.prepare(sql);
      if (!sql.startsWith(prefix)) return statement;
      return {
        all: (...params) => statement.all(...params),
        get: (...params) => (seen(sql, "get"), statement.get(...params)),
        run: (...params) => (seen(sql, "run"), statement.run(...params)),
      };
    },
    exec: (sql) => db.exec(sql),
  };
}

storageContract("sqlite file", () => sqliteStorage({ filename: (file = nextFile()) }), {
  reopen: () => sqliteStorage({ filename: file }),
});
storageContract("sqlite :memory:", () => sqliteStorage({ filename: ":memory:" }));
storageContract("sqlite file without a record cache", () =>
  sqliteStorage({ filename: (file = nextFile()), recordCacheBytes: 0 }),
);

/** Connections passed in as `database` stay open on `close()`: the test closes them. */
const passedIn: { close(): unknown }[] = [];
afterAll(() => passedIn.forEach((db) => db.close()));
const keep = <T extends { close(): unknown }>(db: T) => (passedIn.push(db), db);

/**
 * better-sqlite3 behind exactly the required driver shape and nothing more (no `pluck`, `pragma`,
 * `name` or `inTransaction`), answering as `node:sqlite` and `bun:sqlite` may: `changes` as a
 * bigint, rows as null-prototype objects, `null` from `get` when there is no row.
 */
function bareDriver(db: Database.Database): SqliteDatabase {
  return {
    prepare(sql) {
      const statement = db.prepare(sql);
      const row = (found: unknown) => (found ? Object.assign(Object.create(null), found) : null);
      return {
        all: (...params) => statement.all(...params).map(row),
        get: (...params) => row(statement.get(...params)),
        run: (...params) => ({ changes: BigInt(statement.run(...params).changes) }),
      };
    },
    exec: (sql) => db.exec(sql),
  };
}
storageContract(
  "sqlite on the bare driver shape",
  () => sqliteStorage({ database: bareDriver(keep(new Database((file = nextFile())))) }),
  { reopen: () => sqliteStorage({ database: bareDriver(keep(new Database(file))) }) },
);

// The specifier sits in a variable: @types/node 20 does not know node:sqlite.
const NODE_SQLITE = "node:sqlite";
const nodeSqlite = (await import(NODE_SQLITE).catch(() => undefined)) as
  { DatabaseSync: new (filename: string) => SqliteDatabase & { close(): unknown } } | undefined;
if (nodeSqlite) {
  const { DatabaseSync } = nodeSqlite;
  storageContract(
    "sqlite on node:sqlite",
    () => sqliteStorage({ database: keep(new DatabaseSync((file = nextFile()))) }),
    { reopen: () => sqliteStorage({ database: keep(new DatabaseSync(file)) }) },
  );
} else {
  describe.skip(`storage contract: sqlite on node:sqlite: Node ${process.version} has no node:sqlite (22.5 added it); test/runtimes.test.ts runs this suite under Deno`, () => {
    it("passes the contract suite", () => {});
  });
}

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
      await one.write((tx) => tx.put(items, { id: "a", rank: 1 }));
      expect(await two.read((tx) => tx.get(items, "a"))).toEqual({ id: "a", rank: 1 });
      // Kept by `two`'s record cache, and read again once `one` changed it.
      await one.write((tx) => tx.put(items, { id: "a", rank: 1, again: true }));
      expect(await two.read((tx) => tx.get(items, "a"))).toEqual({ id: "a", rank: 1, again: true });
      await two.write((tx) => tx.put(items, { id: "b", rank: 0 }));
      const listed = await one.read((tx) => tx.list(items, { index: "byRank" }));
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
        const counter = await tx.get(counters, "c");
        await new Promise((resolve) => setTimeout(resolve, 0));
        await tx.put(counters, { id: "c", value: (counter?.value ?? 0) + 1 });
      }),
    );
    await Promise.all(writes);
    expect(await one.read((tx) => tx.get(counters, "c"))).toEqual({ id: "c", value: 10 });
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
      await tx.list(items, {
        index: "byGroupRank",
        where: ["g"],
        after: [1, "a"],
        limit: 10,
        reverse: true,
      });
      await tx.list(items, { index: "byRank", after: [1, "a"] });
      await tx.list(items, { index: "byGroupRank", where: ["g", 1], after: ["a"] });
      await tx.count(items, { index: "byGroupRank", where: ["g"] });
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
          const counter = await tx.get(counters, "c");
          await new Promise((resolve) => setTimeout(resolve, 20));
          await tx.put(counters, { id: "c", value: (counter?.value ?? 0) + 1 });
        });
      await Promise.all([one, two, one, two, one, two].map(increment));
      expect(await two.read((tx) => tx.get(counters, "c"))).toEqual({ id: "c", value: 6 });
    } finally {
      await one.close();
      await two.close();
    }
  });

  it("runs reads that wait together in one SQLite transaction, and a read after a write sees it", async () => {
    const db = keep(new Database(nextFile()));
    const begun: string[] = [];
    const database = watchedDatabase(db, "BEGIN", (sql) => begun.push(sql));
    const storage = sqliteStorage({ database, recordCacheBytes: 0 });
    await storage.init(contractSchema);
    await storage.write((tx) => tx.put(items, { id: "a", rank: 1 }));
    begun.length = 0;
    const ranks = await Promise.all(
      Array.from({ length: 10 }, () => storage.read(async (tx) => (await tx.get(items, "a"))?.rank)),
    );
    expect(ranks).toEqual(Array(10).fill(1));
    expect(begun).toEqual(["BEGIN"]);
    // A write queued between reads ends their snapshot: the reads after it see what it wrote.
    begun.length = 0;
    const [before, , after] = await Promise.all([
      storage.read(async (tx) => (await tx.get(items, "a"))?.rank),
      storage.write((tx) => tx.put(items, { id: "a", rank: 2 })),
      storage.read(async (tx) => (await tx.get(items, "a"))?.rank),
    ]);
    expect([before, after]).toEqual([1, 2]);
    expect(begun).toEqual(["BEGIN", "BEGIN IMMEDIATE", "BEGIN"]);
  });

  it("refuses a database whose schema version is newer, and keeps it as it is", async () => {
    const filename = nextFile();
    const storage = sqliteStorage({ filename });
    await storage.init(contractSchema);
    await storage.close();
    const db = new Database(filename);
    db.prepare("UPDATE docsbase_meta SET value = '2' WHERE key = 'schema_version'").run();
    db.close();
    const newer = sqliteStorage({ filename });
    await expect(newer.init(contractSchema)).rejects.toThrow(
      "Unsupported schema version 2: this docsbase reads version 1 and older",
    );
    await newer.close();
    const after = new Database(filename, { readonly: true });
    expect(after.prepare("SELECT value FROM docsbase_meta WHERE key = 'schema_version'").pluck().get()).toBe(
      "2",
    );
    after.close();
  });
});

describe("sqlite adapter's record cache", () => {
  /** A storage on a new file whose `get` statements are counted (better-sqlite3 underneath). */
  async function counted(options: { recordCacheBytes?: number } = {}) {
    const filename = nextFile();
    const db = keep(new Database(filename));
    let reads = 0;
    const database = watchedDatabase(db, "SELECT doc FROM", (_sql, call) => {
      if (call === "get") reads++;
    });
    const storage = sqliteStorage({ database, ...options });
    await storage.init(contractSchema);
    return { storage, filename, reads: () => reads };
  }

  it("reads a record by key once, then hands out the same frozen record", async () => {
    const { storage, reads } = await counted();
    await storage.write((tx) => tx.put(items, { id: "a", rank: 1, tags: ["x"] }));
    const first = await storage.read((tx) => tx.get(items, "a"));
    const again = await storage.read((tx) => tx.get(items, "a"));
    expect(reads()).toBe(1);
    expect(again).toBe(first);
    expect(again).toEqual({ id: "a", rank: 1, tags: ["x"] });
    expect(Object.isFrozen(again)).toBe(true);
    expect(() => (again as unknown as { tags: string[] }).tags.push("y")).toThrow(TypeError);
  });

  it("reads again what a write transaction put or deleted, committed or rolled back", async () => {
    const { storage, reads } = await counted();
    await storage.write((tx) => tx.put(items, { id: "a", rank: 1 }));
    await storage.read((tx) => tx.get(items, "a"));
    await storage.write((tx) => tx.put(items, { id: "a", rank: 2 }));
    expect(await storage.read((tx) => tx.get(items, "a"))).toEqual({ id: "a", rank: 2 });
    // Read inside the transaction that wrote it, then rolled back: the old record is read again.
    const failed = storage.write(async (tx) => {
      await tx.put(items, { id: "a", rank: 3 });
      expect(await tx.get(items, "a")).toEqual({ id: "a", rank: 3 });
      throw new Error("changed my mind");
    });
    await expect(failed).rejects.toThrow("changed my mind");
    expect(await storage.read((tx) => tx.get(items, "a"))).toEqual({ id: "a", rank: 2 });
    await storage.write((tx) => tx.delete(items, "a"));
    expect(await storage.read((tx) => tx.get(items, "a"))).toBeUndefined();
    // Every read above went to the file: after each write, and inside the failed transaction.
    expect(reads()).toBe(5);
  });

  it("remembers a key found absent until it is written, here or by another connection", async () => {
    const { storage, filename, reads } = await counted();
    expect(await storage.read((tx) => tx.get(items, "z"))).toBeUndefined();
    expect(await storage.read((tx) => tx.get(items, "z"))).toBeUndefined();
    expect(reads()).toBe(1);
    await storage.write((tx) => tx.put(items, { id: "z", rank: 1 }));
    expect(await storage.read((tx) => tx.get(items, "z"))).toEqual({ id: "z", rank: 1 });
    expect(reads()).toBe(2);
    await storage.write((tx) => tx.delete(items, "z"));
    expect(await storage.read((tx) => tx.get(items, "z"))).toBeUndefined();
    expect(await storage.read((tx) => tx.get(items, "z"))).toBeUndefined();
    expect(reads()).toBe(3);
    // Written by another connection: the absence kept is dropped with everything else.
    const other = keep(new Database(filename));
    other
      .prepare(`INSERT INTO "items" (pk, doc) VALUES (?, ?)`)
      .run("z", JSON.stringify({ id: "z", rank: 7 }));
    expect(await storage.read((tx) => tx.get(items, "z"))).toEqual({ id: "z", rank: 7 });
    expect(reads()).toBe(4);
  });

  it("drops everything once another connection committed to the file", async () => {
    const { storage, filename, reads } = await counted();
    await storage.write(async (tx) => {
      await tx.put(items, { id: "a", rank: 1 });
      await tx.put(items, { id: "b", rank: 1 });
    });
    await storage.read(async (tx) => [await tx.get(items, "a"), await tx.get(items, "b")]);
    expect(reads()).toBe(2);
    // Another process, as far as this connection can tell: a connection of its own.
    const other = keep(new Database(filename));
    other.prepare(`UPDATE "items" SET doc = ? WHERE pk = ?`).run(JSON.stringify({ id: "a", rank: 9 }), "a");
    const [a, b] = await storage.read(async (tx) => [await tx.get(items, "a"), await tx.get(items, "b")]);
    expect([a, b]).toEqual([
      { id: "a", rank: 9 },
      { id: "b", rank: 1 },
    ]);
    expect(reads()).toBe(4);
    // Nothing moved since: kept again.
    await storage.read((tx) => tx.get(items, "a"));
    expect(reads()).toBe(4);
  });

  it("is shared by storages on one passed-in connection, whose writes do not move data_version", async () => {
    const db = keep(new Database(nextFile()));
    const one = sqliteStorage({ database: db });
    const two = sqliteStorage({ database: db });
    await one.init(contractSchema);
    await two.init(contractSchema);
    await one.write((tx) => tx.put(items, { id: "a", rank: 1 }));
    expect(await two.read((tx) => tx.get(items, "a"))).toEqual({ id: "a", rank: 1 });
    await one.write((tx) => tx.put(items, { id: "a", rank: 2 }));
    expect(await two.read((tx) => tx.get(items, "a"))).toEqual({ id: "a", rank: 2 });
    await one.close();
    await two.close();
  });

  it("keeps no more than its budget, dropping the least recently read first", async () => {
    const { storage, reads } = await counted({ recordCacheBytes: 800 });
    const text = (id: string) => ({ id, rank: 0, text: "x".repeat(60) }); // about 90 bytes of JSON
    await storage.write(async (tx) => {
      for (let i = 0; i < 20; i++) await tx.put(items, text(`k${i}`));
    });
    const readAll = (ids: string[]) =>
      storage.read(async (tx) => {
        for (const id of ids) await tx.get(items, id);
      });
    await readAll(["k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7"]);
    expect(reads()).toBe(8);
    await readAll(["k0"]); // k0 is now the most recent
    expect(reads()).toBe(8);
    await readAll(["k8", "k9"]); // 10 records do not fit: k1 and k2, the oldest, go
    expect(reads()).toBe(10);
    await readAll(["k0", "k3", "k9"]);
    expect(reads()).toBe(10);
    await readAll(["k1"]);
    expect(reads()).toBe(11);
  });

  it("keeps nothing with a budget of 0", async () => {
    const { storage, reads } = await counted({ recordCacheBytes: 0 });
    await storage.write((tx) => tx.put(items, { id: "a", rank: 1 }));
    await storage.read((tx) => tx.get(items, "a"));
    await storage.read((tx) => tx.get(items, "a"));
    expect(reads()).toBe(2);
  });
});

describe("sqliteStorage({ filename }) without a working better-sqlite3", () => {
  it("says what to install when the package is missing", async () => {
    const missing = Object.assign(new Error("Cannot find package 'better-sqlite3'"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    const attempt = openBetterSqlite3(join(dir, "none.db"), () => Promise.reject(missing));
    await expect(attempt).rejects.toThrow(/better-sqlite3 is not installed.*"npm install better-sqlite3"/);
    await expect(attempt).rejects.toThrow(/bun:sqlite.*node:sqlite/);
  });

  it("says to rebuild it when its native module does not load", async () => {
    const Broken = function () {
      throw new Error("Could not locate the bindings file. Tried:\n → build/better_sqlite3.node");
    };
    const attempt = openBetterSqlite3(join(dir, "none.db"), async () => ({ default: Broken }));
    await expect(attempt).rejects.toThrow(/native module does not load.*"npm rebuild better-sqlite3"/);
  });

  it("passes other failures to open the file on unchanged", async () => {
    const attempt = sqliteStorage({ filename: join(dir, "missing-directory", "x.db") }).init(contractSchema);
    await expect(attempt).rejects.toThrow(/directory does not exist/);
  });
});
