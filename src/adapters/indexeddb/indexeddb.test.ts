import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { openDB } from "idb";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { IndexValue, Storage, WriteTransaction } from "../../core/storage/index.js";
import { contractSchema, contractTables, createTestDocsbase, storageContract } from "../../testing/index.js";
import { memoryStorage } from "../memory/index.js";
import { indexedDbStorage } from "./index.js";

const { items, counters } = contractTables;
let databases = 0;
const nextName = () => `docsbase-test-${++databases}`;
let name = nextName();

storageContract("indexeddb (fake-indexeddb)", () => indexedDbStorage({ name: (name = nextName()) }), {
  reopen: () => indexedDbStorage({ name }),
});

const pause = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));
const increment = (storage: Storage, ms = 5) =>
  storage.write(async (tx) => {
    const counter = await tx.get(counters, "c");
    await pause(ms);
    await tx.put(counters, { id: "c", value: (counter?.value ?? 0) + 1 });
  });

async function opened(options: { name: string; indexedDB?: IDBFactory }): Promise<Storage> {
  const storage = indexedDbStorage(options);
  await storage.init(contractSchema);
  return storage;
}

describe("indexeddb adapter", () => {
  const open: Storage[] = [];
  const track = async (options: { name: string; indexedDB?: IDBFactory }) => {
    const storage = await opened(options);
    open.push(storage);
    return storage;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((storage) => storage.close()));
    vi.unstubAllGlobals();
  });

  it("auto-commits a native transaction left idle across a timer (control)", async () => {
    const db = await openDB(nextName(), 1, { upgrade: (up) => up.createObjectStore("s") });
    const tx = db.transaction("s", "readwrite");
    await tx.store.get("a");
    await pause(5);
    expect(() => tx.store.put(1, "a")).toThrow(/TransactionInactiveError|not active|inactive/i);
    db.close();
  });

  it("commits atomically a body that awaits Web Crypto and timers between its reads and writes", async () => {
    const storage = await track({ name: nextName() });
    await storage.write((tx) => tx.put(items, { id: "a", rank: 1 }));
    const digest = async (text: string) =>
      Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))).toString("hex");
    await storage.write(async (tx) => {
      const a = await tx.get(items, "a");
      const hash = await digest("a");
      await tx.put(items, { id: hash, rank: Number(a?.rank ?? 0) + 1 });
      await pause(5);
      expect(await tx.count(items, { index: "byRank" })).toBe(2);
      await tx.delete(items, "a");
      await pause(5);
      await tx.put(counters, { id: "n", value: 1 });
    });
    const hash = await digest("a");
    expect(await storage.read((tx) => tx.list(items, { index: "byRank" }))).toEqual([{ id: hash, rank: 2 }]);
    expect(await storage.read((tx) => tx.get(counters, "n"))).toEqual({ id: "n", value: 1 });

    const failure = new Error("after the digest");
    await expect(
      storage.write(async (tx) => {
        await tx.put(items, { id: "b", rank: 3 });
        await digest("b");
        await tx.delete(items, hash);
        await pause(5);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await storage.read((tx) => tx.list(items, { index: "byRank" }))).toEqual([{ id: hash, rank: 2 }]);
  });

  it("merges pending writes into list and count exactly as the memory adapter does", async () => {
    const seeded = Array.from({ length: 12 }, (_, i) => ({
      id: `k${(i * 5) % 12}`,
      group: i % 3 ? "g" : "h",
      rank: i % 4,
      name: `n${i % 5}`,
    }));
    // Pending writes that add, move, drop out of an index and delete records.
    const edit = async (tx: WriteTransaction) => {
      await tx.put(items, { id: "k1", group: "g", rank: 9, name: "n0" });
      await tx.put(items, { id: "k2", group: "g", rank: null, name: "n1" });
      await tx.put(items, { id: "new1", group: "g", rank: 1, name: "n3" });
      await tx.put(items, { id: "a0", group: "h", rank: 0, name: "n3" });
      await tx.delete(items, "k7");
      await tx.delete(items, "k3");
      await tx.put(items, { id: "k3", group: "h", rank: 2, name: "n9" });
    };
    const explore = async (tx: WriteTransaction) => {
      const results: unknown[] = [];
      for (const [index, fields] of Object.entries(contractSchema.tables[0]!.indexes)) {
        for (const where of [[], ["g"], ["h", 2], ["n3"]].filter((w) => w.length <= fields.length)) {
          results.push(await tx.count(items, { index, where }));
          for (const reverse of [false, true]) {
            const all = await tx.list(items, { index, where, reverse });
            results.push(all);
            for (const record of [undefined, ...all]) {
              const after =
                record && [...fields.slice(where.length), "id"].map((f) => record[f] as IndexValue);
              for (const limit of [undefined, 1, 2, 5]) {
                results.push(
                  await tx.list(items, { index, where, reverse, limit, ...(after ? { after } : {}) }),
                );
              }
            }
          }
        }
      }
      return results;
    };
    const explored = async (storage: Storage) => {
      await storage.init(contractSchema);
      await storage.write(async (tx) => {
        for (const record of seeded) await tx.put(items, record);
      });
      return storage.write(async (tx) => {
        await edit(tx);
        return explore(tx);
      });
    };
    const expected = await explored(memoryStorage());
    const storage = indexedDbStorage({ name: nextName() });
    open.push(storage);
    expect(await explored(storage)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(500);
  });

  it("serializes the writes of two storages on one database name", async () => {
    const database = nextName();
    const one = await track({ name: database });
    const two = await track({ name: database });
    await Promise.all([one, two, one, two, one, two, one, two].map((storage) => increment(storage)));
    expect(await one.read((tx) => tx.get(counters, "c"))).toEqual({ id: "c", value: 8 });
    expect(await two.read((tx) => tx.get(counters, "c"))).toEqual({ id: "c", value: 8 });
  });

  it("keeps data across close and reopen, without upgrading an up-to-date database again", async () => {
    const database = nextName();
    const first = await opened({ name: database });
    await first.write(async (tx) => {
      await tx.put(items, { id: "a", group: "g", rank: 2, nested: { list: [1, "x", null] } });
      await tx.put(items, { id: "b", group: "g", rank: 1 });
    });
    await first.close();
    const version = async () => {
      const db = await openDB(database);
      db.close();
      return db.version;
    };
    const before = await version();
    const second = await track({ name: database });
    expect(await version()).toBe(before);
    const listed = await second.read((tx) => tx.list(items, { index: "byGroupRank", where: ["g"] }));
    expect(listed).toEqual([
      { id: "b", group: "g", rank: 1 },
      { id: "a", group: "g", rank: 2, nested: { list: [1, "x", null] } },
    ]);
  });

  it("adds an index to existing data, rebuilds an index whose fields change, and refuses a new key", async () => {
    const database = nextName();
    // Stays open through the upgrade: its connection yields to it, then reopens with the new layout.
    const first = await track({ name: database });
    await first.write(async (tx) => {
      await tx.put(items, { id: "a", rank: 2, name: "z", tag: 1 });
      await tx.put(items, { id: "b", rank: 1, name: "y", tag: true });
    });
    const evolved = {
      tables: [{ ...items, indexes: { ...items.indexes, byName: ["rank"], byTag: ["tag"] } }, counters],
    };
    const second = indexedDbStorage({ name: database });
    open.push(second);
    await second.init(evolved);
    const ids = (query: { index: string }) =>
      second.read(async (tx) => (await tx.list(items, query)).map((item) => item.id));
    expect(await ids({ index: "byTag" })).toEqual(["a"]);
    expect(await ids({ index: "byName" })).toEqual(["b", "a"]);
    await second.write((tx) => tx.put(items, { id: "c", rank: 0, tag: 0 }));
    await first.write((tx) => tx.put(items, { id: "d", rank: 5, tag: 0.5 }));
    expect(await ids({ index: "byTag" })).toEqual(["c", "d", "a"]);

    const third = indexedDbStorage({ name: database });
    open.push(third);
    await expect(third.init({ tables: [{ ...items, key: "name" }] })).rejects.toThrow(/keyed by "id"/);
    const reserved = { tables: [{ name: "docsbase_meta", key: "id", indexes: {} }] };
    await expect(third.init(reserved)).rejects.toThrow(/reserved/);
    const badIndex = { tables: [{ name: "x", key: "id", indexes: { "by-name": ["name"] } }] };
    await expect(third.init(badIndex)).rejects.toThrow(/index name/);
  });

  it("records the schema version, opens a database written before the record, refuses a newer one", async () => {
    const database = nextName();
    const first = indexedDbStorage({ name: database });
    await first.init(contractSchema);
    await first.close();
    const meta = async (
      change?: (store: { delete(key: string): unknown; put(value: unknown): unknown }) => unknown,
    ) => {
      const db = await openDB(database);
      try {
        if (change) {
          const tx = db.transaction("docsbase_meta", "readwrite");
          await change(tx.store);
          await tx.done;
        }
        return await db.get("docsbase_meta", "schema_version");
      } finally {
        db.close();
      }
    };
    expect(await meta()).toEqual({ key: "schema_version", value: 1 });

    expect(await meta((store) => store.delete("schema_version"))).toBeUndefined();
    const older = await track({ name: database });
    await older.write((tx) => tx.put(items, { id: "a", rank: 1 }));
    await older.close();

    await meta((store) => store.put({ key: "schema_version", value: 2 }));
    const newer = indexedDbStorage({ name: database });
    open.push(newer);
    await expect(newer.init(contractSchema)).rejects.toThrow(
      "Unsupported schema version 2: this docsbase reads version 1 and older",
    );
  });

  it("takes a shared Web Lock to read and an exclusive one to write, named after the database", async () => {
    const requests: string[] = [];
    const locks = {
      request: (lockName: string, options: { mode: string }, callback: () => Promise<unknown>) => {
        requests.push(`${options.mode} ${lockName}`);
        return callback();
      },
    };
    vi.stubGlobal("navigator", { locks });
    const database = nextName();
    const storage = await track({ name: database });
    await storage.write((tx) => tx.put(items, { id: "a", rank: 1 }));
    await storage.read((tx) => tx.get(items, "a"));
    expect(requests).toEqual([
      `exclusive docsbase:${database}`,
      `exclusive docsbase:${database}`,
      `shared docsbase:${database}`,
    ]);
  });

  it("fails a transaction that another connection's unlocked write overlapped", async () => {
    // Two factories over one fake database set stand for two tabs without Web Locks.
    const database = nextName();
    const here = await track({ name: database });
    const elsewhere = await track({ name: database, indexedDB: Object.create(indexedDB) as IDBFactory });
    await here.write((tx) => tx.put(counters, { id: "c", value: 0 }));
    const racing = here.write(async (tx) => {
      const counter = await tx.get(counters, "c");
      await increment(elsewhere, 0);
      await tx.put(counters, { id: "c", value: (counter?.value ?? 0) + 10 });
    });
    await expect(racing).rejects.toThrow(/changed during a transaction/);
    expect(await here.read((tx) => tx.get(counters, "c"))).toEqual({ id: "c", value: 1 });
  });

  it("opens a factory passed in options, apart from the global one", async () => {
    const factory = new IDBFactory();
    const database = nextName();
    const isolated = await track({ name: database, indexedDB: factory });
    await isolated.write((tx) => tx.put(items, { id: "a", rank: 1 }));
    const global = await track({ name: database });
    expect(await global.read((tx) => tx.get(items, "a"))).toBeUndefined();
    expect(await isolated.read((tx) => tx.get(items, "a"))).toEqual({ id: "a", rank: 1 });
  });

  it("serves a whole docsbase: an organization, a space and a page, written and read back", async () => {
    const database = nextName();
    const test = await createTestDocsbase({ storage: indexedDbStorage({ name: database }) });
    const writer = test.as(test.operatorToken);
    const org = await writer.createOrganization({ body: { title: "Acme" } });
    const space = await writer.createSpace({ organizationId: org.id, body: { title: "Handbook" } });
    const page = await writer.createPage({
      spaceId: space.id,
      body: { title: "Welcome", markdown: "Hello from IndexedDB." },
    });
    await test.docsbase.close();

    const reopened = await createTestDocsbase({ storage: indexedDbStorage({ name: database }) });
    try {
      const reader = reopened.as(reopened.operatorToken);
      expect(await reader.getOrganizationById({ organizationId: org.id })).toMatchObject({ title: "Acme" });
      expect(await reader.getSpaceById({ spaceId: space.id })).toMatchObject({
        title: "Handbook",
        organization: org.id,
      });
      const read = await reader.getPageById({ spaceId: space.id, pageId: page.id, format: "markdown" });
      expect(read).toMatchObject({ id: page.id, title: "Welcome" });
      expect(read.markdown).toContain("Hello from IndexedDB.");
      const pages = await reader.listPages({ spaceId: space.id });
      expect(pages.pages.map((p) => p.title)).toEqual(["Welcome"]);
    } finally {
      await reopened.docsbase.close();
    }
  });
});
