import { sha256 } from "@noble/hashes/sha2.js";
import * as z from "zod";
import { type DerivedCache, jsonBytes } from "../shared/cache.js";
import type { ReadTransaction, WriteTransaction } from "../storage/port.js";
import { defineTable } from "../storage/table.js";

/**
 * Persistent maps from string keys to string values, stored as content-addressed nodes: a hash
 * array mapped trie (HAMT) whose nodes are immutable records named by the SHA-256 of their JSON.
 *
 * A map is named by the hash of its root node ("" for the empty map). Updating one key writes the
 * nodes on the path from the root to that key's leaf, about log32(n) nodes, and shares every other
 * node with the map it came from, in storage and in memory. Reading one key reads the same path.
 * Two maps compare subtree by subtree: equal hashes mean equal subtrees, so a diff walks only the
 * nodes that differ, and a three-way merge ({@link mapMerge}) takes a subtree that one side left
 * unchanged from the other side whole.
 *
 * The shape depends only on the keys (a node holds its entries as a leaf while they are at most
 * {@link LEAF_MAX}, and branches on five more bits of the key's hash otherwise), so equal maps
 * have equal root hashes however they were built.
 */

/** Entries a leaf holds at most before it splits (except at the last level). */
export const LEAF_MAX = 32;
const BITS = 5;
const SLOTS = 1 << BITS;
/** Levels that branch: 6 × 5 bits of a 32-bit key hash. Below, a leaf holds whatever collides. */
const LEVELS = 6;

export const treeNodeRecord = z.object({
  /** SHA-256 of the node's JSON without `id`, base64url. */
  id: z.string(),
  /** A leaf: entries sorted by key. */
  leaf: z.array(z.tuple([z.string(), z.string()])).optional(),
  /** A branch: one child hash per slot ("" for none) and the number of entries below. */
  slots: z.array(z.string()).optional(),
  count: z.number().optional(),
  /** A leaf of a children list (sibling-list.ts): rows of position, page id and slug. */
  list: z.array(z.array(z.string())).optional(),
  /** A node of a children list above its leaves (sibling-list.ts): hash, last position and page, rows. */
  parts: z.array(z.tuple([z.string(), z.string(), z.string(), z.number()])).optional(),
});
export type TreeNodeRecord = z.infer<typeof treeNodeRecord>;

/** Every node of every revision tree, shared by all revisions and spaces. */
export const treeNodesTable = defineTable({
  name: "treeNodes",
  key: "id",
  indexes: {},
  record: treeNodeRecord,
});

export type Entry = readonly [key: string, value: string];
export interface Change {
  readonly before?: string | undefined;
  readonly after?: string | undefined;
}

/**
 * Reads and writes nodes through the derived-value cache: a node never changes, so a cached node
 * is valid in every transaction. Writes always reach storage (a cached node may come from a
 * transaction that rolled back).
 */
export class NodeStore {
  constructor(
    readonly tx: ReadTransaction,
    readonly cache: DerivedCache,
  ) {}

  async get(hash: string): Promise<TreeNodeRecord> {
    const key = `node:${hash}`;
    const cached = this.cache.get(key) as TreeNodeRecord | undefined;
    if (cached) return cached;
    const node = await this.tx.get(treeNodesTable, hash);
    if (!node) throw new Error(`Missing tree node ${hash}`);
    this.cache.set(key, node, jsonBytes(node));
    return node;
  }

  /** Gets several nodes at once (one query on adapters that batch gets). */
  getAll(hashes: readonly string[]): Promise<TreeNodeRecord[]> {
    return Promise.all(hashes.map((hash) => this.get(hash)));
  }

  async put(node: Omit<TreeNodeRecord, "id">): Promise<string> {
    const text = JSON.stringify(node);
    const id = base64url(sha256(new TextEncoder().encode(text)));
    const record: TreeNodeRecord = { id, ...node };
    await (this.tx as WriteTransaction).put(treeNodesTable, record);
    this.cache.set(`node:${id}`, record, text.length * 2 + 64);
    return id;
  }
}

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** 32-bit FNV-1a of the key's UTF-16 code units: where a key goes at each level. */
function keyHash(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

const slotOf = (hash: number, level: number) => (hash >>> (level * BITS)) & (SLOTS - 1);
const byKey = (a: Entry, b: Entry) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** The value of `key` in the map `root`, reading the nodes on its path only. */
export async function mapGet(store: NodeStore, root: string, key: string): Promise<string | undefined> {
  if (!root) return undefined;
  const hash = keyHash(key);
  let node = await store.get(root);
  for (let level = 0; node.slots; level++) {
    const child = node.slots[slotOf(hash, level)];
    if (!child) return undefined;
    node = await store.get(child);
  }
  return node.leaf?.find(([candidate]) => candidate === key)?.[1];
}

/** Every entry of the map, sorted by key. */
export async function mapEntries(store: NodeStore, root: string): Promise<Entry[]> {
  const entries: Entry[] = [];
  const walk = async (hash: string): Promise<void> => {
    if (!hash) return;
    const node = await store.get(hash);
    if (node.leaf) entries.push(...node.leaf);
    else await Promise.all((node.slots ?? []).map(walk));
  };
  await walk(root);
  return entries.sort(byKey);
}

interface Built {
  readonly hash: string;
  readonly count: number;
}

/**
 * Applies `changes` (a value to set, `null` to remove) and returns the new root. Only the nodes on
 * the paths of the changed keys are written.
 */
export async function mapUpdate(
  store: NodeStore,
  root: string,
  changes: ReadonlyMap<string, string | null>,
): Promise<string> {
  if (changes.size === 0) return root;
  const list = [...changes].map(([key, value]) => ({ key, value, hash: keyHash(key) }));
  return (await update(store, root, list, 0)).hash;
}

interface Pending {
  readonly key: string;
  readonly value: string | null;
  readonly hash: number;
}

/** Pending changes by the slot their key takes at `level`. */
function groupBySlot(pending: readonly Pending[], level: number): Map<number, Pending[]> {
  const groups = new Map<number, Pending[]>();
  for (const change of pending) {
    const slot = slotOf(change.hash, level);
    const group = groups.get(slot);
    if (group) group.push(change);
    else groups.set(slot, [change]);
  }
  return groups;
}

async function update(store: NodeStore, root: string, changes: Pending[], level: number): Promise<Built> {
  const node = root ? await store.get(root) : undefined;
  if (!node?.slots) {
    const entries = new Map(node?.leaf ?? []);
    for (const { key, value } of changes) {
      if (value === null) entries.delete(key);
      else entries.set(key, value);
    }
    return build(store, [...entries].sort(byKey), level);
  }
  const groups = groupBySlot(changes, level);
  const slots = [...node.slots];
  let count = node.count ?? 0;
  await Promise.all(
    [...groups].map(async ([slot, group]) => {
      const before = slots[slot] ? await countOf(store, slots[slot]) : 0;
      const built = await update(store, slots[slot] ?? "", group, level + 1);
      slots[slot] = built.hash;
      count += built.count - before;
    }),
  );
  if (count <= LEAF_MAX) {
    // Few enough entries left to be one leaf again: the shape stays a function of the keys.
    const entries: Entry[] = [];
    for (const child of slots) if (child) entries.push(...(await mapEntries(store, child)));
    return build(store, entries.sort(byKey), level);
  }
  return { hash: await store.put({ slots, count }), count };
}

async function countOf(store: NodeStore, hash: string): Promise<number> {
  const node = await store.get(hash);
  return node.count ?? node.leaf?.length ?? 0;
}

/** Writes the canonical subtree holding `entries` (sorted) at `level`. */
async function build(store: NodeStore, entries: Entry[], level: number): Promise<Built> {
  if (entries.length === 0) return { hash: "", count: 0 };
  if (entries.length <= LEAF_MAX || level >= LEVELS) {
    return {
      hash: await store.put({ leaf: entries.map(([key, value]) => [key, value]) }),
      count: entries.length,
    };
  }
  const groups: Entry[][] = Array.from({ length: SLOTS }, () => []);
  for (const entry of entries) groups[slotOf(keyHash(entry[0]), level)]!.push(entry);
  const built = await Promise.all(groups.map((group) => build(store, group, level + 1)));
  return {
    hash: await store.put({ slots: built.map((child) => child.hash), count: entries.length }),
    count: entries.length,
  };
}

/**
 * The keys whose values differ between maps `from` and `to`, with both values. Subtrees with equal
 * hashes are skipped unread, so the cost follows the difference, not the size of the maps.
 */
export async function mapDiff(store: NodeStore, from: string, to: string): Promise<Map<string, Change>> {
  const changes = new Map<string, Change>();
  const walk = async (a: string, b: string): Promise<void> => {
    if (a === b) return;
    const [left, right] = await Promise.all([a ? store.get(a) : undefined, b ? store.get(b) : undefined]);
    if (left?.slots && right?.slots) {
      await Promise.all(left.slots.map((child, slot) => walk(child, right.slots![slot] ?? "")));
      return;
    }
    const [before, after] = await Promise.all([mapEntries(store, a), mapEntries(store, b)]);
    const old = new Map(before);
    for (const [key, value] of after) {
      if (old.get(key) !== value) changes.set(key, { before: old.get(key), after: value });
      old.delete(key);
    }
    for (const [key, value] of old) changes.set(key, { before: value });
  };
  await walk(from, to);
  return changes;
}

/** The values of one key in the three maps of a three-way merge (undefined where absent). */
export interface Sides {
  readonly base?: string | undefined;
  readonly ours?: string | undefined;
  readonly theirs?: string | undefined;
}

/** The node of `hash`, or undefined for the empty map. */
const nodeOf = (store: NodeStore, hash: string) => (hash ? store.get(hash) : undefined);
const sizeOf = (node: TreeNodeRecord | undefined) => node?.count ?? node?.leaf?.length ?? 0;

/** The number of entries of a map, reading its root node only. */
export async function mapSize(store: NodeStore, root: string): Promise<number> {
  return sizeOf(await nodeOf(store, root));
}

/**
 * The keys that `ours` and `theirs` both changed from `base`, and differently: the only entries a
 * three-way merge of the maps has to decide ({@link mapMerge}). Subtrees that one side left as in
 * `base`, or that both sides changed alike, are skipped unread: the cost follows what both sides
 * changed, not what either did.
 */
export async function mapConflicts(
  store: NodeStore,
  base: string,
  ours: string,
  theirs: string,
): Promise<Map<string, Sides>> {
  const found = new Map<string, Sides>();
  const walk = async (b: string, o: string, t: string): Promise<void> => {
    if (o === b || t === b || o === t) return;
    const [nb, no, nt] = await Promise.all([nodeOf(store, b), nodeOf(store, o), nodeOf(store, t)]);
    if (nb?.slots && no?.slots && nt?.slots) {
      await Promise.all(
        nb.slots.map((child, slot) => walk(child, no.slots![slot] ?? "", nt.slots![slot] ?? "")),
      );
      return;
    }
    const [eb, eo, et] = await Promise.all([
      mapEntries(store, b),
      mapEntries(store, o),
      mapEntries(store, t),
    ]);
    const [mb, mo, mt] = [new Map(eb), new Map(eo), new Map(et)];
    for (const key of new Set([...mb.keys(), ...mo.keys(), ...mt.keys()])) {
      const sides = { base: mb.get(key), ours: mo.get(key), theirs: mt.get(key) };
      if (sides.ours !== sides.base && sides.theirs !== sides.base && sides.ours !== sides.theirs) {
        found.set(key, sides);
      }
    }
  };
  await walk(base, ours, theirs);
  return found;
}

interface Merged {
  readonly hash: string;
  /** The merged entries less what the three inputs' counts predict (ours + theirs − base). */
  readonly excess: number;
}

/**
 * Three-way merge of maps: each key takes the value of the side that changed it from `base` (either
 * when both changed it alike); the keys in `decided` take the value given there (`null`: absent)
 * and must include every key {@link mapConflicts} returns.
 *
 * The merge is structural: where one side's subtree equals `base`'s, the other side's subtree is
 * the result as it is, neither read nor written; only where both sides differ (or a decided key
 * lies) does it descend. Merging a change request that touched many pages into a space that
 * changed a few therefore writes the few paths where both differ, not a leaf per changed key. The
 * result is the canonical map of the merged entries: the same root as applying the other side's
 * changes entry by entry.
 */
export async function mapMerge(
  store: NodeStore,
  base: string,
  ours: string,
  theirs: string,
  decided: ReadonlyMap<string, string | null>,
): Promise<string> {
  const pending = [...decided].map(([key, value]) => ({ key, value, hash: keyHash(key) }));
  return (await merge(store, base, ours, theirs, pending, 0)).hash;
}

async function merge(
  store: NodeStore,
  b: string,
  o: string,
  t: string,
  decided: Pending[],
  level: number,
): Promise<Merged> {
  if (decided.length === 0) {
    // A subtree taken whole from one side holds what ours + theirs − base predicts, unread;
    // unless both sides made the same change (then it holds ours', and base's count cancels out).
    if (o === b) return { hash: t, excess: 0 };
    if (t === b) return { hash: o, excess: 0 };
    if (o === t) {
      const [nb, no] = await Promise.all([nodeOf(store, b), nodeOf(store, o)]);
      return { hash: o, excess: sizeOf(nb) - sizeOf(no) };
    }
  }
  const [nb, no, nt] = await Promise.all([nodeOf(store, b), nodeOf(store, o), nodeOf(store, t)]);
  const predicted = sizeOf(no) + sizeOf(nt) - sizeOf(nb);
  if (nb?.slots && no?.slots && nt?.slots) {
    const groups = groupBySlot(decided, level);
    const children = await Promise.all(
      nb.slots.map((child, slot) =>
        merge(store, child, no.slots![slot] ?? "", nt.slots![slot] ?? "", groups.get(slot) ?? [], level + 1),
      ),
    );
    const count = predicted + children.reduce((sum, child) => sum + child.excess, 0);
    const slots = children.map((child) => child.hash);
    let hash: string;
    if (count <= LEAF_MAX) {
      // Few enough entries left to be one leaf again: the shape stays a function of the keys.
      const entries: Entry[] = [];
      for (const child of slots) if (child) entries.push(...(await mapEntries(store, child)));
      hash = (await build(store, entries.sort(byKey), level)).hash;
    } else if (slots.every((child, slot) => child === no.slots![slot])) hash = o;
    else if (slots.every((child, slot) => child === nt.slots![slot])) hash = t;
    else hash = await store.put({ slots, count });
    return { hash, excess: count - predicted };
  }
  const [eb, eo, et] = await Promise.all([mapEntries(store, b), mapEntries(store, o), mapEntries(store, t)]);
  const [mb, mo, mt] = [new Map(eb), new Map(eo), new Map(et)];
  const given = new Map(decided.map((entry) => [entry.key, entry.value]));
  const entries: Entry[] = [];
  for (const key of new Set([...mb.keys(), ...mo.keys(), ...mt.keys(), ...given.keys()])) {
    let value: string | null | undefined;
    if (given.has(key)) value = given.get(key);
    else {
      const [vb, vo, vt] = [mb.get(key), mo.get(key), mt.get(key)];
      if (vo === vb) value = vt;
      else if (vt === vb || vo === vt) value = vo;
      else throw new Error(`Key ${key} changed on both sides and was not decided`);
    }
    if (value !== null && value !== undefined) entries.push([key, value]);
  }
  const built = await build(store, entries.sort(byKey), level);
  return { hash: built.hash, excess: built.count - predicted };
}
