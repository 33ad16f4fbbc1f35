import type { NodeStore, TreeNodeRecord } from "./hamt.js";

/**
 * The ordered children of one page, as a persistent list of content-addressed nodes (a
 * "prolly tree"): rows sorted by position (then page id), cut into leaves after the rows whose page
 * id hashes to a boundary (one row in {@link SPAN} on average), the leaves named by a level of
 * parts cut the same way, and so on up to one root.
 *
 * Where a node ends depends only on the rows, never on the order of the edits, so equal lists have
 * equal root hashes however they were built (the merges compare lists by hash). Adding or removing
 * a row rewrites the leaf that holds it and the parts above it: about log32(n) nodes of about 32
 * entries each, whatever the number of siblings. Before issue 29 a list was one node of every row,
 * rewritten whole by each creation; such a node reads as a leaf, and its first edit cuts it.
 */

/** One child: its position among siblings, its page id and its slug. */
export type Row = readonly [position: string, page: string, slug: string];
/** A node one level up: its hash, the position and page of its last row, and its rows. */
export type Part = readonly [hash: string, position: string, page: string, count: number];
type Item = Row | Part;

/** Average entries per node. */
export const SPAN = 32;

interface Key {
  readonly position: string;
  readonly page: string;
}

const keyOf = (item: Item, level: number): Key =>
  level === 0
    ? { position: item[0], page: item[1] as string }
    : { position: item[1] as string, page: item[2] as string };

const compare = (a: Key, b: Key) =>
  a.position !== b.position
    ? a.position < b.position
      ? -1
      : 1
    : a.page < b.page
      ? -1
      : a.page > b.page
        ? 1
        : 0;

/** Whether a node ends after `item`: a hash of its page id and level, so independent across levels. */
function isBoundary(item: Item, level: number): boolean {
  const { page } = keyOf(item, level);
  let hash = 0x811c9dc5 ^ Math.imul(level + 1, 0x9e3779b9);
  for (let i = 0; i < page.length; i++) hash = Math.imul(hash ^ page.charCodeAt(i), 0x01000193);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return ((hash ^ (hash >>> 16)) & (SPAN - 1)) === 0;
}

const itemsOf = (node: TreeNodeRecord): readonly Item[] => (node.parts ?? node.list ?? []) as Item[];
const countOf = (items: readonly Item[], level: number) =>
  level === 0 ? items.length : items.reduce((sum, item) => sum + (item as Part)[3], 0);

async function write(store: NodeStore, items: Item[], level: number): Promise<Part> {
  const hash = await store.put(
    level === 0
      ? { list: items.map((row) => [...(row as Row)]) }
      : { parts: items.map(([hash, position, page, count]) => [hash, position, page, count as number]) },
  );
  const last = keyOf(items.at(-1)!, level);
  return [hash, last.position, last.page, countOf(items, level)];
}

/** Cuts `items` after each boundary. */
function cut(items: readonly Item[], level: number): Item[][] {
  const chunks: Item[][] = [];
  let chunk: Item[] = [];
  for (const item of items) {
    chunk.push(item);
    if (isBoundary(item, level)) {
      chunks.push(chunk);
      chunk = [];
    }
  }
  if (chunk.length) chunks.push(chunk);
  return chunks;
}

/** The list of `rows` (sorted by position, then page); "" when empty. */
export async function buildList(store: NodeStore, rows: readonly Row[]): Promise<string> {
  return (await buildFrom(store, rows, 0)).hash;
}

async function buildFrom(store: NodeStore, items: readonly Item[], level: number): Promise<{ hash: string }> {
  let chunks = cut(items, level);
  for (;;) {
    if (chunks.length === 0) return { hash: "" };
    if (chunks.length === 1) return write(store, chunks[0]!, level).then(([hash]) => ({ hash }));
    const parts = await Promise.all(chunks.map((chunk) => write(store, chunk, level)));
    level += 1;
    chunks = cut(parts, level);
  }
}

/** Every row of the list, in order. */
export async function listRows(store: NodeStore, root: string): Promise<Row[]> {
  if (!root) return [];
  const node = await store.get(root);
  if (node.list) return node.list as unknown as Row[];
  const below = await store.getAll((node.parts ?? []).map((part) => part[0]));
  const rows: Row[] = [];
  for (const child of below) {
    if (child.list) rows.push(...(child.list as unknown as Row[]));
    else for (const part of child.parts ?? []) rows.push(...(await listRows(store, part[0])));
  }
  return rows;
}

/** The last row of the list, reading one node per level. */
export async function lastRow(store: NodeStore, root: string): Promise<Row | undefined> {
  if (!root) return undefined;
  let node = await store.get(root);
  while (node.parts) node = await store.get(node.parts.at(-1)![0]);
  return node.list?.at(-1) as Row | undefined;
}

/** The height of the list (0: its root is a leaf), reading its first path. */
async function heightOf(store: NodeStore, root: string): Promise<number> {
  let height = 0;
  for (let node = await store.get(root); node.parts; node = await store.get(node.parts[0]![0])) height++;
  return height;
}

/** A position among the nodes of one height: the path from the root. */
class Cursor {
  private path: { node: TreeNodeRecord; index: number }[] = [];

  constructor(
    private readonly store: NodeStore,
    private readonly root: string,
    private readonly depth: number,
  ) {}

  /** Moves to the node of the cursor's height that holds `key` (the last one past the end). */
  async seek(key: Key): Promise<TreeNodeRecord> {
    let node = await this.store.get(this.root);
    this.path = [];
    for (let level = 0; level < this.depth; level++) {
      const parts = node.parts!;
      let index = parts.findIndex((part) => compare(keyOf(part, 1), key) >= 0);
      if (index < 0) index = parts.length - 1;
      this.path.push({ node, index });
      node = await this.store.get(parts[index]![0]);
    }
    return node;
  }

  isLast(): boolean {
    return this.path.every(({ node, index }) => index === node.parts!.length - 1);
  }

  /** Moves to the next node of the cursor's height (the caller checks {@link isLast} first). */
  async next(): Promise<TreeNodeRecord> {
    let level = this.path.length - 1;
    while (this.path[level]!.index === this.path[level]!.node.parts!.length - 1) level--;
    this.path[level]!.index++;
    let node = await this.store.get(this.path[level]!.node.parts![this.path[level]!.index]![0]);
    for (level++; level < this.path.length; level++) {
      this.path[level] = { node, index: 0 };
      node = await this.store.get(node.parts![0]![0]);
    }
    return node;
  }
}

/** An edit of one level: the keys to remove, and items to add (an added key replaces its item). */
interface Edits {
  readonly remove: readonly Key[];
  readonly add: readonly Item[];
}

/**
 * The list with the rows of `remove` (by position and page) taken out and `add` put in. Reads and
 * writes the nodes that hold the edited rows and the parts above them, and ends each run of
 * rewritten nodes where a new node ends exactly where an old one did: the rest is shared.
 */
export async function updateList(
  store: NodeStore,
  root: string,
  remove: readonly Key[],
  add: readonly Row[],
): Promise<string> {
  if (remove.length === 0 && add.length === 0) return root;
  if (!root)
    return buildList(
      store,
      [...add].sort((a, b) => compare(keyOf(a, 0), keyOf(b, 0))),
    );
  const height = await heightOf(store, root);
  let edits: Edits = { remove, add };
  for (let level = 0; ; level++) {
    const { consumed, produced } = await editLevel(
      store,
      new Cursor(store, root, height - level),
      level,
      edits,
    );
    if (level === height) {
      if (produced.length > 1) return (await buildFrom(store, produced, level + 1)).hash;
      let top = produced[0]?.[0] ?? "";
      // A root of one part is that part: the shape stays a function of the rows.
      for (let node = top ? await store.get(top) : undefined; node?.parts?.length === 1;) {
        top = node.parts[0]![0];
        node = await store.get(top);
      }
      return top;
    }
    edits = { remove: consumed, add: produced };
  }
}

async function editLevel(
  store: NodeStore,
  cursor: Cursor,
  level: number,
  edits: Edits,
): Promise<{ consumed: Key[]; produced: Part[] }> {
  const pending = new Map<string, { key: Key; item: Item | null }>();
  const id = (key: Key) => `${key.position}\u0000${key.page}`;
  for (const key of edits.remove) pending.set(id(key), { key, item: null });
  for (const item of edits.add) pending.set(id(keyOf(item, level)), { key: keyOf(item, level), item });
  const queue = [...pending.values()].sort((a, b) => compare(a.key, b.key));
  const consumed: Key[] = [];
  const produced: Part[] = [];
  let next = 0;
  while (next < queue.length) {
    let node = await cursor.seek(queue[next]!.key);
    let buffer: Item[] = [];
    const emit = async (item: Item) => {
      buffer.push(item);
      if (!isBoundary(item, level)) return;
      produced.push(await write(store, buffer, level));
      buffer = [];
    };
    for (;;) {
      const items = itemsOf(node);
      const last = keyOf(items.at(-1)!, level);
      const isLast = cursor.isLast();
      consumed.push(last);
      for (const item of items) {
        const key = keyOf(item, level);
        while (next < queue.length && compare(queue[next]!.key, key) < 0) {
          const { item: added } = queue[next++]!;
          if (added) await emit(added);
        }
        if (next < queue.length && compare(queue[next]!.key, key) === 0) {
          const { item: replacement } = queue[next++]!;
          if (replacement) await emit(replacement);
        } else await emit(item);
      }
      if (isLast) {
        while (next < queue.length) {
          const { item: added } = queue[next++]!;
          if (added) await emit(added);
        }
        if (buffer.length) produced.push(await write(store, buffer, level));
        break;
      }
      node = await cursor.next();
      // Aligned with an old node's end and no edit in the next node: the rest is unchanged.
      const nextLast = keyOf(itemsOf(node).at(-1)!, level);
      if (buffer.length === 0 && !(next < queue.length && compare(queue[next]!.key, nextLast) <= 0)) break;
    }
  }
  return { consumed, produced };
}
