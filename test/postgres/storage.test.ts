import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { postgresStorage } from "../../src/adapters/postgres/index.js";
import { contractSchema, contractTables, storageContract } from "../../src/testing/index.js";
import { freshDatabase } from "../support/postgres.js";

const { items, counters } = contractTables;
const url = await freshDatabase("contract");
let schemas = 0;
let schema = "";
const nextSchema = () => (schema = `contract_${++schemas}`);

storageContract("postgres", () => postgresStorage({ connectionString: url, schema: nextSchema() }), {
  reopen: () => postgresStorage({ connectionString: url, schema }),
});

const admin = new pg.Pool({ connectionString: url, max: 2 });
afterAll(() => admin.end());

describe("postgres adapter", () => {
  it("keeps the exact JSON text of a record", async () => {
    const storage = postgresStorage({ connectionString: url, schema: nextSchema() });
    await storage.init(contractSchema);
    const record = {
      id: "x",
      rank: 698043479385676000,
      big: 2 ** 64,
      flag: false,
      nested: { a: [1, null, "\u0000"] },
    };
    await storage.write((tx) => tx.put(items, record));
    expect(await storage.read((tx) => tx.get(items, "x"))).toEqual(record);
    const { rows } = await admin.query(`SELECT doc FROM "${schema}".items WHERE pk = 'x'`);
    expect(rows[0].doc).toBe(JSON.stringify(record));
    await storage.close();
  });

  it("stores and orders keys holding U+0000 and U+0001", async () => {
    const storage = postgresStorage({ connectionString: url, schema: nextSchema() });
    await storage.init(contractSchema);
    const names = ["a\u0001", "a", "a\u0000b", "a\u0000", "a\u0002", "\u0000"];
    await storage.write(async (tx) => {
      for (const [i, name] of names.entries()) await tx.put(items, { id: `k\u0000${i}`, name });
    });
    const listed = await storage.read((tx) => tx.list(items, { index: "byName" }));
    expect(listed.map((item) => item.name)).toEqual([...names].sort());
    expect(await storage.read((tx) => tx.get(items, "k\u00002"))).toMatchObject({ name: "a\u0000b" });
    await storage.close();
  });

  it("orders by byte whatever the database's collation", async () => {
    const icu = await freshDatabase("icu", { icu: true });
    const linguistic = new pg.Client({ connectionString: icu });
    await linguistic.connect();
    const { rows } = await linguistic.query(`SELECT x FROM (VALUES ('b'), ('B'), ('a')) t(x) ORDER BY x`);
    await linguistic.end();
    expect(rows.map((row) => row.x)).toEqual(["a", "b", "B"]);
    const storage = postgresStorage({ connectionString: icu });
    await storage.init(contractSchema);
    const names = ["b", "B", "a", "_", "Z", "z", "é", "e"];
    await storage.write(async (tx) => {
      for (const [i, name] of names.entries()) await tx.put(items, { id: `i${i}`, name });
    });
    const listed = await storage.read((tx) => tx.list(items, { index: "byName" }));
    expect(listed.map((item) => item.name)).toEqual([...names].sort());
    await storage.close();
  });

  it("keeps increments from two instances, retrying serialization failures", async () => {
    const name = nextSchema();
    const one = postgresStorage({ connectionString: url, schema: name });
    const two = postgresStorage({ connectionString: url, schema: name });
    await Promise.all([one.init(contractSchema), two.init(contractSchema)]);
    await one.write((tx) => tx.put(counters, { id: "c", value: 0 }));
    const increment = (storage: typeof one) =>
      storage.write(async (tx) => {
        const counter = await tx.get(counters, "c");
        await new Promise((resolve) => setTimeout(resolve, 2));
        await tx.put(counters, { id: "c", value: (counter?.value ?? 0) + 1 });
      });
    await Promise.all(Array.from({ length: 40 }, (_, i) => increment(i % 2 ? one : two)));
    expect(await one.read((tx) => tx.get(counters, "c"))).toEqual({ id: "c", value: 40 });
    await Promise.all([one.close(), two.close()]);
  });

  it("answers gets started together as the body asked, a write between them included", async () => {
    const storage = postgresStorage({ connectionString: url, schema: nextSchema() });
    await storage.init(contractSchema);
    const odd = ["q'uote", "back\\slash", "{brace}", "com,ma", 'dou"ble', "nul\u0000l"];
    await storage.write(async (tx) => {
      for (const id of ["a", "b", ...odd]) await tx.put(items, { id, rank: 1 });
    });
    const seen = await storage.write(async (tx) => {
      const before = ["a", "missing", "a", "b", ...odd].map((id) => tx.get(items, id));
      const write = tx.put(items, { id: "a", rank: 2 });
      const after = [tx.get(items, "a"), tx.get(counters, "a"), tx.get(items, "b")];
      const [first, ...rest] = await Promise.all([Promise.all(before), write, Promise.all(after)]);
      return { before: first, after: rest[1] };
    });
    expect(seen.before.map((item) => item?.rank)).toEqual([1, undefined, 1, 1, ...odd.map(() => 1)]);
    expect(seen.before.slice(4).map((item) => item?.id)).toEqual(odd);
    expect(seen.after.map((item) => (item as { rank?: number } | undefined)?.rank)).toEqual([
      2,
      undefined,
      1,
    ]);
    await storage.close();
  });

  it("runs none of a failed body's queued statements once it settled, here or in the next body", async () => {
    // One connection: what the failed body left queued would otherwise run after its ROLLBACK,
    // outside any transaction or inside the next body's.
    const storage = postgresStorage({ connectionString: url, schema: nextSchema(), poolSize: 1 });
    await storage.init(contractSchema);
    let late: Promise<unknown> | undefined;
    const failed = storage.write(async (tx) => {
      void tx.get(items, "a").catch(() => undefined);
      late = tx.put(items, { id: "late", rank: 1 });
      late.catch(() => undefined);
      throw new Error("boom");
    });
    await expect(failed).rejects.toThrow("boom");
    await expect(late).rejects.toThrow();
    await storage.write((tx) => tx.put(items, { id: "next", rank: 1 }));
    const stored = await storage.read(async (tx) => [
      await tx.get(items, "late"),
      await tx.get(items, "next"),
    ]);
    expect(stored.map((item) => item?.id)).toEqual([undefined, "next"]);
    await storage.close();
  });

  it("creates the tables once when several instances start together", async () => {
    const name = nextSchema();
    const storages = Array.from({ length: 4 }, () =>
      postgresStorage({ connectionString: url, schema: name }),
    );
    await Promise.all(storages.map((storage) => storage.init(contractSchema)));
    await storages[0]!.write((tx) => tx.put(items, { id: "a", rank: 1 }));
    expect(await storages[3]!.read((tx) => tx.list(items, { index: "byRank" }))).toEqual([
      { id: "a", rank: 1 },
    ]);
    await Promise.all(storages.map((storage) => storage.close()));
  });

  it("fills the key columns of a field a new index names from the stored records", async () => {
    const name = nextSchema();
    const before = postgresStorage({ connectionString: url, schema: name });
    await before.init(contractSchema);
    await before.write(async (tx) => {
      for (const [id, color] of [
        ["a", "red"],
        ["b", "blue"],
        ["c", 3],
        ["d", true],
      ] as const) {
        await tx.put(items, { id, rank: 1, color } as never);
      }
    });
    await before.close();
    const withColor = { ...items, indexes: { ...items.indexes, byColor: ["color"] } };
    const after = postgresStorage({ connectionString: url, schema: name });
    await after.init({ tables: [withColor, counters] });
    const listed = await after.read((tx) => tx.list(withColor, { index: "byColor" }));
    expect(listed.map((item) => item.id)).toEqual(["c", "b", "a"]);
    expect(await after.read((tx) => tx.count(withColor, { index: "byColor", where: ["red"] }))).toBe(1);
    await after.close();
  });

  it("records the schema version and refuses a database whose version is newer", async () => {
    const name = nextSchema();
    const first = postgresStorage({ connectionString: url, schema: name });
    await first.init(contractSchema);
    await first.close();
    const version = `SELECT value FROM "${name}".docsbase_meta WHERE key = 'schema_version'`;
    expect((await admin.query(version)).rows).toEqual([{ value: "1" }]);
    await admin.query(`UPDATE "${name}".docsbase_meta SET value = '2' WHERE key = 'schema_version'`);
    const newer = postgresStorage({ connectionString: url, schema: name });
    await expect(newer.init(contractSchema)).rejects.toThrow(
      "Unsupported schema version 2: this docsbase reads version 1 and older",
    );
    await newer.close();
  });

  it("checks the schema name by the rule of table names, when the storage is created", () => {
    expect(() => postgresStorage({ connectionString: url, schema: "my-schema" })).toThrow(
      'Invalid schema name "my-schema": names are 1 to 61 letters, digits or _, not starting with a digit',
    );
  });

  it("answers 503-coded errors when the database cannot be reached", async () => {
    const storage = postgresStorage({ connectionString: "postgres://nobody@127.0.0.1:1/none" });
    await expect(storage.init(contractSchema)).rejects.toMatchObject({ code: "unavailable" });
    await storage.close();
  });
});
