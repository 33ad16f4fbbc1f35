import { describe, expect, it } from "vitest";
import { memoryStorage } from "../../adapters/memory/index.js";
import { createTestDocsbase } from "../../testing/double.js";
import type { ReadTransaction, Storage, Table, WriteTransaction } from "../storage/port.js";

/**
 * Issue 29, item 2: creating a page read and rewrote its parent's whole list of children, so a
 * creation cost grew with the number of siblings. Measured without timing, as the JSON bytes of
 * the records read from and written to storage during one creation, under a parent with 10
 * children and under a parent with many, in the same space.
 */

/** A storage that adds up, per table, the JSON length of the records its transactions read or write. */
function countingStorage(inner: Storage) {
  const counter = { on: false, tables: new Map<string, number>() };
  const note = (table: Table<object>, records: readonly object[]) => {
    if (!counter.on) return;
    let chars = counter.tables.get(table.name) ?? 0;
    for (const record of records) chars += JSON.stringify(record).length;
    counter.tables.set(table.name, chars);
  };
  const counted = <T extends ReadTransaction>(tx: T): T =>
    Object.assign(Object.create(tx) as T, {
      get: async <R extends object>(table: Table<R>, key: string) => {
        const record = await tx.get(table, key);
        note(table, record ? [record] : []);
        return record;
      },
      list: async <R extends object>(table: Table<R>, query: Parameters<ReadTransaction["list"]>[1]) => {
        const records = await tx.list(table, query);
        note(table, records);
        return records;
      },
      count: (table: Table<object>, query: Parameters<ReadTransaction["count"]>[1]) => tx.count(table, query),
    });
  const storage: Storage = {
    init: (schema) => inner.init(schema),
    read: (fn) => inner.read((tx) => fn(counted(tx))),
    write: (fn) =>
      inner.write((tx) =>
        fn(
          Object.assign(counted(tx), {
            put: (table: Table<object>, record: object) => (note(table, [record]), tx.put(table, record)),
            delete: (table: Table<object>, key: string) => tx.delete(table, key),
          }) as WriteTransaction,
        ),
      ),
    close: () => inner.close(),
  };
  return { storage, counter };
}

/** A space with a parent of 10 children and a parent of `many`; the bytes of one more page under each. */
async function costs(many: number) {
  const { storage, counter } = countingStorage(memoryStorage());
  const test = await createTestDocsbase({ storage });
  const owner = await test.createUser("Owner");
  const client = test.as(owner);
  const { id: organizationId } = await client.createOrganization({ body: { title: "Acme" } });
  const { id: spaceId } = await client.createSpace({ organizationId, body: { title: "Docs" } });
  const create = (title: string, parent: string) =>
    client.createPage({ spaceId, body: { title, markdown: `About ${title}.`, parent } });
  const few = (await client.createPage({ spaceId, body: { title: "Few" } })).id;
  const lots = (await client.createPage({ spaceId, body: { title: "Lots" } })).id;
  for (let i = 0; i < 10; i++) await create(`Few ${i}`, few);
  for (let i = 0; i < many; i++) await create(`Lots ${i}`, lots);
  await test.jobs.drain();
  const measure = async (parent: string) => {
    counter.tables.clear();
    counter.on = true;
    await create("One more", parent);
    await test.jobs.drain();
    counter.on = false;
    return {
      bytes: [...counter.tables.values()].reduce((a, b) => a + b, 0),
      tables: new Map(counter.tables),
    };
  };
  return { few: await measure(few), lots: await measure(lots) };
}

describe("page creation cost", () => {
  it("reads and writes about as much under a parent with 1,000 children as under one with 10", async () => {
    const { few, lots } = await costs(1000);
    expect(few.bytes).toBeGreaterThan(0);
    expect(lots.bytes, JSON.stringify({ few: [...few.tables], lots: [...lots.tables] })).toBeLessThan(
      2 * few.bytes,
    );
  }, 120_000);
});
