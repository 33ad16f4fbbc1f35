import { diff3Merge } from "node-diff3";
import type { World } from "../shared/world.js";
import type { FileVersionRecord, PageVersionRecord } from "./tables.js";
import { siblingsOf } from "./tree.js";

/**
 * Three-way merge of revision contents, for updating a change request from its space and for
 * merging it into the space.
 *
 * Pages merge by page id and files by file id, against their common ancestor `base`:
 *
 * - a side that did not change an entry takes the other side's version (the same stored version:
 *   unchanged content is shared, never copied);
 * - a page changed on both sides merges field by field: a field changed on one side takes that
 *   side's value, a field changed differently on both is a conflict. The place of a page (`parent`
 *   and `position`, a move) is one field. `markdown` merges line by line (diff3): edits to
 *   different lines both survive, overlapping edits conflict;
 * - deleted on one side and changed on the other is a conflict; so is a file changed differently
 *   on both sides (files are not merged inside);
 * - entries created on one side only are kept (new ids never collide).
 *
 * The merged tree is then checked: two sibling pages with one slug, a page whose parent is gone,
 * and a page moved under its own descendant are conflicts too. A merged page that equals neither
 * side is a new version (fresh id, `updatedAt` now); otherwise the side's version is reused.
 */

export type MergeConflict =
  | { page: string; reason: string }
  | { file: string; reason: string }
  | { reusableContent: string; reason: string };

export interface MergeResult {
  /** What to apply to `ours` to obtain the merged content (empty when there are conflicts). */
  readonly changes: {
    pages: Map<string, PageVersionRecord | null>;
    files: Map<string, FileVersionRecord | null>;
  };
  readonly conflicts: MergeConflict[];
}

/**
 * One side of a merge: its versions of the entries that changed on either side (or all of them).
 * An entry absent from a side's map is absent from that side.
 */
export interface MergeInput {
  readonly pages: ReadonlyMap<string, PageVersionRecord>;
  readonly files: ReadonlyMap<string, FileVersionRecord>;
}

/**
 * For entries whose edits collide, the side whose version is taken whole (a deletion counts as a
 * version) instead of reporting a conflict; an entry that does not collide ignores it.
 */
export interface MergeResolutions {
  readonly pages?: ReadonlyMap<string, "ours" | "theirs">;
  readonly files?: ReadonlyMap<string, "ours" | "theirs">;
}

/** The page tree of `ours`, read on demand (a `Revision` is one). */
export interface PageLookup {
  page(id: string): Promise<PageVersionRecord | undefined>;
  children(parent: string): Promise<readonly { readonly page: string; readonly slug: string }[]>;
}

/** A {@link PageLookup} over a whole map of pages. */
export function lookupOf(pages: ReadonlyMap<string, PageVersionRecord>): PageLookup {
  return {
    page: async (id) => pages.get(id),
    children: async (parent) => siblingsOf({ pages }, parent),
  };
}

/** Fields that describe a version rather than the page's content. */
const BOOKKEEPING = new Set(["id", "page", "createdAt", "updatedAt", "parent", "position", "markdown"]);

const CONFLICT = Symbol("conflict");

export async function mergeContents(
  base: MergeInput,
  ours: MergeInput,
  theirs: MergeInput,
  world: Pick<World, "ids" | "clock">,
  oursTree: PageLookup = lookupOf(ours.pages),
  resolutions: MergeResolutions = {},
): Promise<MergeResult> {
  const conflicts: MergeConflict[] = [];
  const pages = new Map<string, PageVersionRecord | null>();
  const files = new Map<string, FileVersionRecord | null>();
  const now = world.clock().toISOString();

  for (const id of keysOf(ours.pages, theirs.pages)) {
    const merged = resolved(
      mergeEntry(base.pages.get(id), ours.pages.get(id), theirs.pages.get(id), (b, o, t) =>
        mergePage(b, o, t, () => ({ id: world.ids(), updatedAt: now })),
      ),
      resolutions.pages?.get(id),
      { ours: ours.pages.get(id), theirs: theirs.pages.get(id) },
    );
    if (typeof merged === "string") conflicts.push({ page: id, reason: merged });
    else if ((merged?.id ?? null) !== (ours.pages.get(id)?.id ?? null)) pages.set(id, merged);
  }
  for (const id of keysOf(ours.files, theirs.files)) {
    const merged = resolved(
      mergeEntry(
        base.files.get(id),
        ours.files.get(id),
        theirs.files.get(id),
        () => "the file changed differently on both sides",
      ),
      resolutions.files?.get(id),
      { ours: ours.files.get(id), theirs: theirs.files.get(id) },
    );
    if (typeof merged === "string") conflicts.push({ file: id, reason: merged });
    else if ((merged?.id ?? null) !== (ours.files.get(id)?.id ?? null)) files.set(id, merged);
  }

  if (conflicts.length === 0) conflicts.push(...(await treeConflicts(oursTree, pages)));
  if (conflicts.length > 0) return { changes: { pages: new Map(), files: new Map() }, conflicts };
  return { changes: { pages, files }, conflicts };
}

/** A conflict (a reason string) that a resolution settles becomes the chosen side's version. */
function resolved<T>(
  merged: T | null | string,
  side: "ours" | "theirs" | undefined,
  versions: { readonly ours: T | undefined; readonly theirs: T | undefined },
): T | null | string {
  return typeof merged === "string" && side ? (versions[side] ?? null) : merged;
}

function keysOf(...maps: ReadonlyMap<string, unknown>[]): string[] {
  const keys = new Set<string>();
  for (const map of maps) for (const key of map.keys()) keys.add(key);
  return [...keys].sort();
}

/**
 * The merged version of one entry: `null` when absent, a reason string on conflict. `both` merges
 * an entry that exists and changed on both sides.
 */
function mergeEntry<T extends { id: string }>(
  base: T | undefined,
  ours: T | undefined,
  theirs: T | undefined,
  both: (base: T | undefined, ours: T, theirs: T) => T | string,
): T | null | string {
  if (ours?.id === theirs?.id) return ours ?? null;
  if (base?.id === ours?.id) return theirs ?? null;
  if (base?.id === theirs?.id) return ours ?? null;
  if (!ours || !theirs) {
    if (!base) return ours ?? theirs ?? null;
    return ours
      ? "changed on one side and deleted on the other"
      : "deleted on one side and changed on the other";
  }
  return both(base, ours, theirs);
}

function mergePage(
  base: PageVersionRecord | undefined,
  ours: PageVersionRecord,
  theirs: PageVersionRecord,
  fresh: () => { id: string; updatedAt: string },
): PageVersionRecord | string {
  const merged: Record<string, unknown> = { ...ours };
  const clashes: string[] = [];
  // The fields of the versions (a record holds its declared fields only).
  const keys = (version: PageVersionRecord | undefined) =>
    Object.keys(version ?? {}) as (keyof PageVersionRecord)[];
  const fields = new Set([...keys(base), ...keys(ours), ...keys(theirs)]);
  for (const field of [...fields].filter((name) => !BOOKKEEPING.has(name)).sort()) {
    const value = pick(base?.[field], ours[field], theirs[field]);
    if (value === CONFLICT) clashes.push(field);
    else if (value === undefined) delete merged[field];
    else merged[field] = value;
  }
  const place = (version: PageVersionRecord | undefined) => version && [version.parent, version.position];
  const moved = pick(place(base), place(ours), place(theirs));
  if (moved === CONFLICT) clashes.push("place (moved differently on both sides)");
  else [merged["parent"], merged["position"]] = moved as [string, string];
  const markdown = mergeLines(base?.markdown ?? "", ours.markdown, theirs.markdown);
  if (markdown === undefined) clashes.push("markdown (overlapping edits)");
  else merged["markdown"] = markdown;

  if (clashes.length > 0) return `changed differently on both sides: ${clashes.join(", ")}`;
  if (sameContent(merged, ours)) return ours;
  if (sameContent(merged, theirs)) return theirs;
  return { ...(merged as PageVersionRecord), ...fresh() };
}

/** The three-way choice for one value: the side that changed it, or a conflict. */
function pick(base: unknown, ours: unknown, theirs: unknown): unknown {
  if (same(ours, theirs)) return ours;
  if (same(base, ours)) return theirs;
  if (same(base, theirs)) return ours;
  return CONFLICT;
}

/** Line-by-line three-way merge of text; undefined when edits overlap. */
export function mergeLines(base: string, ours: string, theirs: string): string | undefined {
  if (ours === theirs || base === theirs) return ours;
  if (base === ours) return theirs;
  const regions = diff3Merge(ours.split("\n"), base.split("\n"), theirs.split("\n"), {
    excludeFalseConflicts: true,
  });
  const lines: string[] = [];
  for (const region of regions) {
    if (region.conflict || !region.ok) return undefined;
    lines.push(...region.ok);
  }
  return lines.join("\n");
}

function sameContent(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) if (key !== "id" && key !== "updatedAt" && !same(a[key], b[key])) return false;
  return true;
}

/** Deep equality of JSON values (object key order does not matter). */
export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a).filter((key) => (a as Record<string, unknown>)[key] !== undefined);
  const keysB = Object.keys(b).filter((key) => (b as Record<string, unknown>)[key] !== undefined);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) => same((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/**
 * Conflicts of the merged tree (`ours` with `changes` applied): sibling slug collisions, pages
 * whose parent no longer exists, and parent cycles (each side moved a page under the other). Only
 * the changed pages, their parents' children and their ancestors are read.
 */
async function treeConflicts(
  ours: PageLookup,
  changes: ReadonlyMap<string, PageVersionRecord | null>,
): Promise<MergeConflict[]> {
  if (changes.size === 0) return [];
  const merged = async (id: string) => (changes.has(id) ? (changes.get(id) ?? undefined) : ours.page(id));
  const conflicts = new Map<string, string>();
  const parents = new Set<string>();
  // A page that keeps its parent and slug in `ours` changes nothing in the tree: skip it.
  const placed = new Map<string, PageVersionRecord | null>();
  await Promise.all(
    [...changes].map(async ([id, version]) => {
      const current = await ours.page(id);
      if (!version || !current || current.parent !== version.parent || current.slug !== version.slug) {
        placed.set(id, version);
      }
    }),
  );
  for (const [id, version] of placed) {
    if (!version) {
      // The children of a deleted page must have gone too, or moved elsewhere.
      for (const child of await ours.children(id)) {
        if (!changes.has(child.page) || changes.get(child.page)?.parent === id) {
          conflicts.set(child.page, "its parent page was deleted on the other side");
        }
      }
      continue;
    }
    parents.add(version.parent);
    if (version.parent && !(await merged(version.parent))) {
      conflicts.set(id, "its parent page was deleted on the other side");
      continue;
    }
    const chain = [id];
    for (let parent = version.parent; parent; parent = (await merged(parent))?.parent ?? "") {
      const start = chain.indexOf(parent);
      if (start >= 0) {
        // Every page of the cycle, and the page that leads into it.
        for (const member of [id, ...chain.slice(start)]) {
          conflicts.set(member, "moved under its own descendant by the other side");
        }
        break;
      }
      chain.push(parent);
    }
  }
  for (const parent of parents) {
    const bySlug = new Map<string, string[]>();
    const add = (slug: string, id: string) => bySlug.set(slug, [...(bySlug.get(slug) ?? []), id]);
    for (const child of await ours.children(parent)) if (!placed.has(child.page)) add(child.slug, child.page);
    for (const [id, version] of placed) if (version && version.parent === parent) add(version.slug, id);
    for (const [slug, ids] of bySlug) {
      if (ids.length < 2) continue;
      for (const id of ids) conflicts.set(id, `slug "${slug}" is used by another page under the same parent`);
    }
  }
  return [...conflicts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([page, reason]) => ({ page, reason }));
}
