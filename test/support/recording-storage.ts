import { memoryStorage } from "../../src/adapters/memory/index.js";
import type { Storage, StorageSchema, TableSchema, WriteTransaction } from "../../src/core/storage/port.js";

/** Every stored record, as canonical JSON, by table name then primary key. */
export type StoredState = ReadonlyMap<string, ReadonlyMap<string, string>>;

/** One record that differs between two states; `undefined` where it is absent. */
export interface StoredChange {
  readonly table: string;
  readonly key: string;
  readonly before: string | undefined;
  readonly after: string | undefined;
}

/**
 * Memory storage that keeps a copy of what its committed write transactions wrote, so a test can
 * tell whether a request changed anything stored (`changesSince`) and put everything back
 * (`restore`) without reading tables through indexes. Every write goes through `write`, and
 * the copy starts empty like the storage, so the copy is the whole stored state.
 *
 * @example
 * ```ts
 * const recording = recordingStorage();
 * const docsbase = createDocsbase({ storage: recording.storage });
 * const before = recording.state();
 * await docsbase.fetch(request);
 * expect(recording.changesSince(before)).toEqual([]);
 * ```
 */
export function recordingStorage() {
  const inner = memoryStorage();
  const state = new Map<string, Map<string, string>>();
  const tables = new Map<string, TableSchema>();

  const rowsOf = (table: string) => {
    let rows = state.get(table);
    if (!rows) state.set(table, (rows = new Map()));
    return rows;
  };

  const storage: Storage = {
    async init(schema: StorageSchema) {
      for (const table of schema.tables) tables.set(table.name, table);
      await inner.init(schema);
    },
    read: (fn) => inner.read(fn),
    async write(fn) {
      let written: [string, string, string | undefined][] = [];
      const result = await inner.write(async (tx) => {
        written = [];
        const recorded: WriteTransaction = {
          get: (table, key) => tx.get(table, key),
          list: (table, query) => tx.list(table, query),
          count: (table, query) => tx.count(table, query),
          async put(table, record) {
            await tx.put(table, record);
            const key = (record as Record<string, unknown>)[table.key] as string;
            written.push([table.name, key, canonicalJson(record)]);
          },
          async delete(table, key) {
            const existed = await tx.delete(table, key);
            written.push([table.name, key, undefined]);
            return existed;
          },
        };
        return fn(recorded);
      });
      // Only a body that resolved reaches here: the memory adapter applied exactly these writes.
      for (const [table, key, json] of written) {
        if (json === undefined) rowsOf(table).delete(key);
        else rowsOf(table).set(key, json);
      }
      return result;
    },
    close: () => inner.close(),
  };

  /** A copy of the stored state, to compare with later. */
  function snapshot(): StoredState {
    return new Map([...state].map(([table, rows]) => [table, new Map(rows)]));
  }

  /** The records that differ between `before` and now, in table then key order. */
  function changesSince(before: StoredState): StoredChange[] {
    const changes: StoredChange[] = [];
    const names = [...new Set([...before.keys(), ...state.keys()])].sort();
    for (const table of names) {
      const was = before.get(table) ?? new Map<string, string>();
      const is = state.get(table) ?? new Map<string, string>();
      for (const key of [...new Set([...was.keys(), ...is.keys()])].sort()) {
        if (was.get(key) !== is.get(key)) {
          changes.push({ table, key, before: was.get(key), after: is.get(key) });
        }
      }
    }
    return changes;
  }

  /** Puts the stored state back to `before`, in one write transaction. */
  async function restore(before: StoredState): Promise<void> {
    const changes = changesSince(before);
    if (changes.length === 0) return;
    await storage.write(async (tx) => {
      for (const { table, key, before: json } of changes) {
        const schema = tables.get(table);
        if (!schema) throw new Error(`No table "${table}" was initialised`);
        if (json === undefined) await tx.delete(schema, key);
        else await tx.put(schema, JSON.parse(json) as Record<string, unknown>);
      }
    });
  }

  return { storage, snapshot, changesSince, restore };
}

/** JSON with object keys sorted, so that equal records give equal strings. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}
