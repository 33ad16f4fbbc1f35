import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ListQuery, Storage, Table, WriteTransaction } from "../core/storage/index.js";
import {
  contractSchema,
  countersTable,
  ids,
  itemsTable,
  seed,
  type ContractContext,
  type Item,
} from "./storage-contract-fixture.js";
import { listContract } from "./storage-contract-list.js";
import { schemaContract } from "./storage-contract-schema.js";
import { transactionContract } from "./storage-contract-transactions.js";

export { contractSchema, contractTables, type Counter, type Item } from "./storage-contract-fixture.js";

/** Options of {@link storageContract}. */
export interface StorageContractOptions {
  /**
   * Opens a new `Storage` over the same data as the last `open()` (for example the same file).
   * When given, the suite also checks that committed data survives `close()`.
   */
  reopen?: () => Promise<Storage> | Storage;
}

/**
 * Declares the vitest suite every storage adapter must pass. Each test gets a fresh storage from
 * `open()`, initialised with {@link contractSchema}, and closes it afterwards.
 *
 * @example
 * ```ts
 * import { storageContract } from "docsbase/testing";
 * import { memoryStorage } from "docsbase/adapters/memory";
 * storageContract("memory", () => memoryStorage());
 * ```
 */
export function storageContract(
  name: string,
  open: () => Promise<Storage> | Storage,
  options: StorageContractOptions = {},
): void {
  describe(`storage contract: ${name}`, () => {
    let current: Storage | undefined;
    const ctx: ContractContext = {
      get storage() {
        if (!current) throw new Error("No storage is open");
        return current;
      },
      async close() {
        const storage = current;
        current = undefined;
        await storage?.close();
      },
    };

    beforeEach(async () => {
      current = await open();
      await current.init(contractSchema);
    });
    afterEach(async () => {
      await ctx.close();
    });

    describe("records", () => recordContract(ctx));
    listContract(ctx);
    transactionContract(ctx);
    describe("schema and errors", () => errorContract(ctx));
    describe("names", () => schemaContract(ctx));
    describe("lifecycle", () => lifecycleContract(ctx, options));
  });
}

function recordContract(ctx: ContractContext): void {
  const get = (id: string, table: Table = itemsTable) => ctx.storage.read((tx) => tx.get(table, id));

  it("returns undefined for a missing key", async () => {
    expect(await get("nope")).toBeUndefined();
  });

  it("stores and returns any JSON record", async () => {
    const record = {
      id: "r1",
      text: 'héllo ✓ \u{1F600} "quoted" \\ \n',
      numbers: [0, -1, 1.5, 1e-7, 2 ** 60],
      flags: { yes: true, no: false, none: null },
      nested: { list: [{ deep: ["x", { deeper: 1 }] }], empty: {}, none: [] },
    };
    await seed(ctx.storage, itemsTable, [record]);
    expect(await get("r1")).toEqual(record);
  });

  it("replaces the whole record on put", async () => {
    await seed(ctx.storage, itemsTable, [{ id: "a", rank: 1, name: "old", extra: true }]);
    await seed(ctx.storage, itemsTable, [{ id: "a", rank: 2 }]);
    expect(await get("a")).toEqual({ id: "a", rank: 2 });
    expect(await ctx.storage.read((tx) => tx.count(itemsTable, { index: "byName" }))).toBe(0);
  });

  it("deletes, reporting whether the record existed", async () => {
    await seed(ctx.storage, itemsTable, [{ id: "a", rank: 1 }]);
    expect(await ctx.storage.write((tx) => tx.delete(itemsTable, "a"))).toBe(true);
    expect(await get("a")).toBeUndefined();
    expect(await ctx.storage.write((tx) => tx.delete(itemsTable, "a"))).toBe(false);
    expect(await ctx.storage.write((tx) => tx.delete(itemsTable, "never"))).toBe(false);
    expect(await ctx.storage.read((tx) => tx.list(itemsTable, { index: "byRank" }))).toEqual([]);
  });

  it("keeps tables apart", async () => {
    await seed(ctx.storage, itemsTable, [{ id: "same", rank: 1 }]);
    await seed(ctx.storage, countersTable, [{ id: "same", value: 7 }]);
    expect(await get("same")).toEqual({ id: "same", rank: 1 });
    expect(await get("same", countersTable)).toEqual({ id: "same", value: 7 });
    await ctx.storage.write((tx) => tx.delete(countersTable, "same"));
    expect(await get("same")).toEqual({ id: "same", rank: 1 });
  });

  it("isolates stored copies from the caller's objects", async () => {
    const record = { id: "a", rank: 1, tags: ["x"], meta: { n: 1 } };
    await ctx.storage.write(async (tx) => {
      await tx.put(itemsTable, record);
      record.rank = 2;
      record.tags.push("mutated after put");
      const pending = (await tx.get(itemsTable, "a")) as typeof record | undefined;
      if (pending) attempt(() => (pending.meta.n = 99));
      expect(await tx.get(itemsTable, "a")).toEqual({ id: "a", rank: 1, tags: ["x"], meta: { n: 1 } });
    });
    const fetched = (await get("a")) as typeof record;
    attempt(() => fetched.tags.push("mutated after get"));
    attempt(() => (fetched.meta.n = 2));
    const listed = await ctx.storage.read((tx) => tx.list(itemsTable, { index: "byRank" }));
    attempt(() => ((listed[0] as typeof record).meta.n = 3));
    expect(await get("a")).toEqual({ id: "a", rank: 1, tags: ["x"], meta: { n: 1 } });
  });

  it("rejects a record without a string key", async () => {
    // The handle's record type forbids both; JavaScript callers and casts get the runtime check.
    const untyped = itemsTable as Table;
    await expect(ctx.storage.write((tx) => tx.put(untyped, { rank: 1 }))).rejects.toThrow();
    await expect(ctx.storage.write((tx) => tx.put(untyped, { id: 5, rank: 1 }))).rejects.toThrow();
    expect(await ctx.storage.read((tx) => tx.count(itemsTable, { index: "byRank" }))).toBe(0);
  });
}

/**
 * Mutates a record a read returned. Reads are read-only (port.ts): an adapter that shares a frozen
 * record throws a `TypeError`, one that hands out a fresh object lets it happen; neither may let the
 * mutation reach what is stored, which the caller checks next.
 */
function attempt(mutate: () => unknown): void {
  try {
    mutate();
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
  }
}

function errorContract(ctx: ContractContext): void {
  it("keeps data when init runs again", async () => {
    await seed(ctx.storage, itemsTable, [{ id: "a", rank: 1 }]);
    await ctx.storage.init(contractSchema);
    await ctx.storage.init(contractSchema);
    expect(await ctx.storage.read((tx) => tx.list(itemsTable, { index: "byRank" }))).toEqual([
      { id: "a", rank: 1 },
    ]);
  });

  it("rejects an unknown table in every operation", async () => {
    const unknown = /unknown table/i;
    // A handle whose table was never given to init, though shaped like one that was.
    const nope: Table = { ...itemsTable, name: "nope" };
    await expect(ctx.storage.read((tx) => tx.get(nope, "a"))).rejects.toThrow(unknown);
    await expect(ctx.storage.read((tx) => tx.list(nope, { index: "byRank" }))).rejects.toThrow(unknown);
    await expect(ctx.storage.read((tx) => tx.count(nope, { index: "byRank" }))).rejects.toThrow(unknown);
    await expect(ctx.storage.write((tx) => tx.put(nope, { id: "a" }))).rejects.toThrow(unknown);
    await expect(ctx.storage.write((tx) => tx.delete(nope, "a"))).rejects.toThrow(unknown);
  });

  it("rejects an unknown index", async () => {
    const unknown = /unknown index/i;
    await expect(ctx.storage.read((tx) => tx.list(itemsTable, { index: "byNope" }))).rejects.toThrow(unknown);
    await expect(ctx.storage.read((tx) => tx.count(itemsTable, { index: "byValue" }))).rejects.toThrow(
      unknown,
    );
  });

  it("refuses writes in a read transaction, and a transaction used after its body settled", async () => {
    const leaked = { tx: undefined as WriteTransaction | undefined };
    await expect(
      ctx.storage.read((tx) => (tx as WriteTransaction).put(itemsTable, { id: "a", rank: 1 })),
    ).rejects.toThrow(/write transaction/);
    await ctx.storage.write(async (tx) => void (leaked.tx = tx));
    const late = leaked.tx as WriteTransaction;
    await expect(late.get(itemsTable, "a")).rejects.toThrow(/already finished/);
    await expect(late.put(itemsTable, { id: "a", rank: 1 })).rejects.toThrow(/already finished/);
    expect(await ctx.storage.read((tx) => tx.count(itemsTable, { index: "byRank" }))).toBe(0);
  });

  it("rejects malformed queries", async () => {
    const list = (query: Omit<ListQuery, "index">) =>
      ctx.storage.read((tx) => tx.list(itemsTable, { index: "byGroupRank", ...query }));
    await expect(list({ where: ["g", 1, "extra"] })).rejects.toThrow();
    await expect(list({ where: ["g"], after: ["a", 1, "too many"] })).rejects.toThrow();
    await expect(list({ after: ["g"] })).rejects.toThrow();
    await expect(list({ limit: -1 })).rejects.toThrow();
    await expect(list({ limit: 1.5 })).rejects.toThrow();
  });
}

function lifecycleContract(ctx: ContractContext, options: StorageContractOptions): void {
  it("fails every call after close", async () => {
    const storage = ctx.storage;
    await ctx.close();
    await expect(storage.read((tx) => tx.get(itemsTable, "a"))).rejects.toThrow();
    await expect(storage.write((tx) => tx.put(itemsTable, { id: "a" }))).rejects.toThrow();
  });

  it("waits for running transactions before closing", async () => {
    const storage = ctx.storage;
    const writing = seed(storage, itemsTable, [{ id: "a", rank: 1 }]);
    await ctx.close();
    await writing;
  });

  // Skipped for adapters without persistence (memory): there is nothing to reopen.
  it.skipIf(!options.reopen)("keeps committed data after close and reopen", async () => {
    const items: Item[] = [
      { id: "b", group: "g", rank: 2 },
      { id: "a", group: "g", rank: 1 },
      { id: "c", group: "h", rank: 0 },
    ];
    await seed(ctx.storage, itemsTable, items);
    await seed(ctx.storage, countersTable, [{ id: "n", value: 3 }]);
    await ctx.close();
    const reopened = await (options.reopen as NonNullable<StorageContractOptions["reopen"]>)();
    try {
      await reopened.init(contractSchema);
      const listed = await reopened.read((tx) => tx.list(itemsTable, { index: "byGroupRank", where: ["g"] }));
      expect(ids(listed)).toEqual(["a", "b"]);
      expect(await reopened.read((tx) => tx.count(itemsTable, { index: "byRank" }))).toBe(3);
      expect(await reopened.read((tx) => tx.get(countersTable, "n"))).toEqual({ id: "n", value: 3 });
    } finally {
      await reopened.close();
    }
  });
}
