import { wrap, type IDBPDatabase, type IDBPObjectStore, type IDBPTransaction } from "idb";
import {
  checkSchemaVersion,
  indexTuple,
  META_TABLE,
  SCHEMA_VERSION,
  type IndexValue,
  type StorageSchema,
  type StoredRecord,
} from "../../core/storage/index.js";

/**
 * How the IndexedDB adapter lays tables out in a database, and how it opens and upgrades one.
 *
 * Each table is an object store of {@link Entry} values keyed by `key`. Each declared index is a
 * native index on `index.<name>`, a tuple of the index fields then the primary key that the
 * adapter computes on write, present only when every field holds a string or a number. Indexing
 * the record's own fields with a compound keyPath would be simpler, but IndexedDB accepts an array
 * as a key, so a record whose field holds `[1]` would appear in the index, which the port forbids.
 * Because the native index cannot tell which fields a tuple was computed from, the fields of every
 * index are recorded in the {@link META} store, and an index whose fields change is rebuilt.
 */

/**
 * The adapter's own object store, of `{ key, ... }` entries: the layout (`"layout"`), the commit
 * counter (`"version"`) and the schema-version record (`SCHEMA_VERSION.key`, `{ key, value }`).
 */
export const META = META_TABLE;

/** One record as stored: its primary key, the record itself and its tuple in each index it belongs to. */
export interface Entry {
  key: string;
  record: StoredRecord;
  index: Record<string, IndexValue[]>;
}

/** The primary key field and the index fields an object store maintains. */
export interface TableLayout {
  readonly key: string;
  readonly indexes: Readonly<Record<string, readonly string[]>>;
}

/** Every table of a database, as recorded in it. */
export type Layout = Readonly<Record<string, TableLayout>>;

export type Database = IDBPDatabase<unknown>;
type UpgradeTransaction = IDBPTransaction<unknown, string[], "versionchange">;

/** The stored form of a record, with its tuple for each index of `table`. */
export function toEntry(table: TableLayout, record: StoredRecord): Entry {
  const index: Record<string, IndexValue[]> = {};
  for (const [name, fields] of Object.entries(table.indexes)) {
    const tuple = indexTuple(record, fields, table.key);
    if (tuple) index[name] = tuple;
  }
  return { key: record[table.key] as string, record, index };
}

const sameFields = (a: readonly string[] | undefined, b: readonly string[]) =>
  a !== undefined && a.length === b.length && a.every((field, i) => field === b[i]);

/**
 * The layout once `schema` is applied to `stored`, and whether reaching it needs a version upgrade.
 * Indexes the schema no longer declares stay and are still maintained, so an older version of the
 * application sharing the database keeps correct indexes.
 */
export function plan(
  db: Database,
  stored: Layout,
  schema: StorageSchema,
): { layout: Layout; upgrade: boolean } {
  const layout: Record<string, TableLayout> = { ...stored };
  let upgrade = !db.objectStoreNames.contains(META);
  for (const table of schema.tables) {
    const before = stored[table.name];
    if (before && before.key !== table.key) {
      throw new Error(
        `Table "${table.name}" is keyed by "${before.key}" in this database, not "${table.key}"`,
      );
    }
    if (!before || !db.objectStoreNames.contains(table.name)) upgrade = true;
    const indexes: Record<string, readonly string[]> = { ...before?.indexes };
    for (const [name, fields] of Object.entries(table.indexes)) {
      if (sameFields(indexes[name], fields)) continue;
      indexes[name] = [...fields];
      upgrade = true;
    }
    layout[table.name] = { key: table.key, indexes };
  }
  return { layout, upgrade };
}

/**
 * Reads the recorded layout; an empty one when the database has never been initialised. Refuses
 * a database of a newer schema version (one written before the record existed has none).
 */
export async function readLayout(db: Database): Promise<Layout> {
  if (!db.objectStoreNames.contains(META)) return {};
  const tx = db.transaction(META, "readonly");
  tx.done.catch(() => undefined);
  const [stored, version] = (await Promise.all([
    tx.store.get("layout"),
    tx.store.get(SCHEMA_VERSION.key),
  ])) as [{ tables: Layout } | undefined, { value: number } | undefined];
  checkSchemaVersion(version?.value);
  return stored?.tables ?? {};
}

/** Creates missing stores and indexes inside a version upgrade, and rebuilds the changed ones. */
async function upgrade(db: Database, tx: UpgradeTransaction, schema: StorageSchema): Promise<void> {
  const meta = db.objectStoreNames.contains(META)
    ? tx.objectStore(META)
    : db.createObjectStore(META, { keyPath: "key" });
  // Read again inside the upgrade: another connection may have upgraded since `plan` ran.
  const stored = ((await meta.get("layout")) as { tables: Layout } | undefined)?.tables ?? {};
  const { layout } = plan(db, stored, schema);
  for (const { name } of schema.tables) {
    const table = layout[name] as TableLayout;
    const exists = db.objectStoreNames.contains(name);
    const store = exists ? tx.objectStore(name) : db.createObjectStore(name, { keyPath: "key" });
    let rebuild = false;
    for (const [index, fields] of Object.entries(table.indexes)) {
      const present = store.indexNames.contains(index);
      if (present && sameFields(stored[name]?.indexes[index], fields)) continue;
      if (present) store.deleteIndex(index);
      store.createIndex(index, `index.${index}`);
      rebuild = exists;
    }
    if (rebuild) await recompute(store, table);
  }
  await meta.put({ key: "layout", tables: layout });
  const recorded = (await meta.get(SCHEMA_VERSION.key)) as { value: number } | undefined;
  checkSchemaVersion(recorded?.value);
  if (!recorded) await meta.put({ key: SCHEMA_VERSION.key, value: SCHEMA_VERSION.current });
}

/** Rewrites every entry of a store with tuples for its current indexes. */
async function recompute(
  store: IDBPObjectStore<unknown, string[], string, "versionchange">,
  table: TableLayout,
) {
  for (let cursor = await store.openCursor(); cursor; cursor = await cursor.continue()) {
    await cursor.update(toEntry(table, (cursor.value as Entry).record));
  }
}

/** Options of {@link open}. */
export interface OpenOptions {
  /** Opens this version, running {@link upgrade} for `schema` when it is newer than the database's. */
  readonly version?: number;
  readonly schema?: StorageSchema;
  /** Called once the connection closes, by us, for another connection's upgrade, or by the browser. */
  readonly onClose: (db: Database) => void;
}

/**
 * Opens a connection through `factory` (idb's `openDB` always uses the global `indexedDB`). The
 * connection closes itself when another one asks for a version change, so that upgrades in other
 * tabs are never blocked by this one; the adapter reopens it on its next transaction.
 */
export async function open(factory: IDBFactory, name: string, options: OpenOptions): Promise<Database> {
  const request = factory.open(name, options.version);
  let failure: { error: unknown } | undefined;
  const { schema } = options;
  if (schema) {
    request.addEventListener("upgradeneeded", () => {
      const tx = wrap(request.transaction as IDBTransaction) as unknown as UpgradeTransaction;
      upgrade(wrap(request.result), tx, schema).catch((error: unknown) => {
        failure = { error };
        try {
          tx.abort();
        } catch {
          // A failed request has aborted it already.
        }
      });
    });
  }
  let db: Database;
  try {
    db = (await wrap(request)) as Database;
  } catch (error) {
    throw failure ? failure.error : error;
  }
  db.addEventListener("versionchange", () => {
    db.close();
    options.onClose(db);
  });
  db.addEventListener("close", () => options.onClose(db));
  return db;
}
