import { seededRandom as seeded } from "../../../test/support/crash-workload.js";
import { describe, expect, it } from "vitest";
import { memoryStorage } from "../../adapters/memory/index.js";
import { sequencesTable } from "../shared/sequence.js";
import type { World } from "../shared/world.js";
import type { WriteTransaction } from "../storage/port.js";
import { treeNodesTable } from "./hamt.js";
import { type MergeInput, mergeContents } from "./merge.js";
import { mergeRevisions } from "./merge-revisions.js";
import { type Revision, commitRevision, diffRevisions, requireRevision } from "./revisions.js";
import {
  type FileVersionRecord,
  type PageVersionRecord,
  fileVersionsTable,
  pageVersionsTable,
  revisionsTable,
} from "./tables.js";

/**
 * The merge of trees (merge-revisions.ts) against the reference it replaces: every entry changed
 * on either side loaded, merged by `mergeContents` and applied to `ours` entry by entry. On random
 * histories (edits, renames, moves, deletions and creations on both sides, some colliding) both
 * must find the same conflicts or the same merged trees, root hash for root hash.
 */

type Pages = Map<string, PageVersionRecord>;
type Files = Map<string, FileVersionRecord>;

interface Model {
  pages: Pages;
  files: Files;
}

const SLUGS = ["a", "b", "c", "d", "e", "f"];
const NOW = "2026-01-01T00:00:00.000Z";

function history(random: () => number, size: number) {
  let next = 0;
  const id = (prefix: string) => `${prefix}${(next++).toString(36)}`;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const lines = () => Array.from({ length: 6 }, () => `line ${Math.floor(random() * 1000)}`).join("\n");
  const childrenOf = (pages: Pages, parent: string) => [...pages.values()].filter((v) => v.parent === parent);
  const freeSlug = (pages: Pages, parent: string, page?: string) => {
    const used = new Set(childrenOf(pages, parent).flatMap((v) => (v.page === page ? [] : [v.slug])));
    const free = SLUGS.filter((slug) => !used.has(slug));
    return free.length ? pick(free) : `s-${id("")}`;
  };
  const version = (pages: Pages, page: string, fields: Partial<PageVersionRecord>): PageVersionRecord => {
    const current = pages.get(page);
    return {
      type: "document",
      title: "Title",
      slug: "x",
      markdown: "",
      hidden: false,
      createdAt: NOW,
      parent: "",
      position: "m",
      ...current,
      ...fields,
      page,
      id: id("v"),
      updatedAt: NOW,
    };
  };
  const create = (model: Model) => {
    const parent = model.pages.size && random() < 0.8 ? pick([...model.pages.keys()]) : "";
    const page = id("p");
    model.pages.set(
      page,
      version(model.pages, page, {
        parent,
        slug: freeSlug(model.pages, parent),
        position: pick(["a", "g", "m", "t"]),
        markdown: lines(),
      }),
    );
  };
  const createFile = (model: Model) => {
    const file = id("f");
    model.files.set(file, {
      id: id("w"),
      file,
      name: "n",
      contentType: "text/plain",
      blob: "b",
      size: 1,
      createdAt: NOW,
    });
  };
  const below = (pages: Pages, page: string): string[] => [
    page,
    ...childrenOf(pages, page).flatMap((child) => below(pages, child.page)),
  ];

  const base: Model = { pages: new Map(), files: new Map() };
  for (let i = 0; i < size; i++) create(base);
  for (let i = 0; i < 4; i++) createFile(base);

  /** One side: a few random operations on a copy of base, each leaving a valid tree. */
  const side = (operations: number): Model => {
    const model: Model = { pages: new Map(base.pages), files: new Map(base.files) };
    for (let i = 0; i < operations; i++) {
      const ids = [...model.pages.keys()];
      // Half the operations on a few pages, so that both sides often change the same ones.
      const page = random() < 0.6 ? pick(ids.slice(0, 4)) : pick(ids);
      const current = model.pages.get(page)!;
      const kind = random();
      if (kind < 0.3) {
        const text = current.markdown.split("\n");
        text[Math.floor(random() * text.length)] = `edit ${id("")}`;
        model.pages.set(page, version(model.pages, page, { markdown: text.join("\n") }));
      } else if (kind < 0.4) {
        model.pages.set(page, version(model.pages, page, { title: pick(["One", "Two", "Three"]) }));
      } else if (kind < 0.5) {
        model.pages.set(
          page,
          version(model.pages, page, { slug: freeSlug(model.pages, current.parent, page) }),
        );
      } else if (kind < 0.6) {
        const parent = random() < 0.2 ? "" : pick(ids);
        if (below(model.pages, page).includes(parent)) continue;
        model.pages.set(
          page,
          version(model.pages, page, {
            parent,
            slug: random() < 0.5 ? current.slug : freeSlug(model.pages, parent, page),
            position: pick(["b", "m", "z"]),
          }),
        );
      } else if (kind < 0.7) {
        model.pages.set(page, version(model.pages, page, { position: pick(["c", "m", "y"]) }));
      } else if (kind < 0.78) {
        for (const gone of below(model.pages, page)) model.pages.delete(gone);
      } else if (kind < 0.9) {
        create(model);
      } else if (kind < 0.95) {
        const file = pick([...model.files.keys()]);
        if (file)
          model.files.set(file, { ...model.files.get(file)!, id: id("w"), size: Math.floor(random() * 9) });
      } else if (model.files.size && random() < 0.5) {
        model.files.delete(pick([...model.files.keys()]));
      } else createFile(model);
    }
    return model;
  };
  const ours = random() < 0.1 ? base : side(Math.floor(random() * 12));
  const theirs = side(1 + Math.floor(random() * (size > 200 ? 200 : 10)));
  if (random() < 0.2) {
    // Some changes made alike on both sides (the same versions).
    for (const [page, version] of theirs.pages)
      if (random() < 0.3 && ours !== base) ours.pages.set(page, version);
  }
  return { base, ours, theirs };
}

const changesFrom = (from: Model, to: Model) => {
  const diff = <T extends { id: string }>(a: Map<string, T>, b: Map<string, T>) => {
    const changes = new Map<string, T | null>();
    for (const [key, value] of b) if (a.get(key)?.id !== value.id) changes.set(key, value);
    for (const key of a.keys()) if (!b.has(key)) changes.set(key, null);
    return changes;
  };
  return { pages: diff(from.pages, to.pages), files: diff(from.files, to.files) };
};

/** The merge as it was done before trees merged: every changed entry loaded, applied one by one. */
async function referenceMerge(
  tx: WriteTransaction,
  world: World,
  base: Revision,
  ours: Revision,
  theirs: Revision,
) {
  const [oursDiff, theirsDiff] = await Promise.all([diffRevisions(base, ours), diffRevisions(base, theirs)]);
  const empty = (): MergeInput => ({ pages: new Map(), files: new Map() });
  const sides = { base: empty(), ours: empty(), theirs: empty() };
  for (const kind of ["pages", "files"] as const) {
    for (const key of new Set([...oursDiff[kind].keys(), ...theirsDiff[kind].keys()])) {
      const mine = oursDiff[kind].get(key);
      const other = theirsDiff[kind].get(key);
      const before = (mine ?? other)?.before;
      const put = (side: MergeInput, version: typeof before) => {
        if (version) (side[kind] as Map<string, typeof version>).set(key, version);
      };
      put(sides.base, before);
      put(sides.ours, mine ? mine.after : before);
      put(sides.theirs, other ? other.after : before);
    }
  }
  const { changes, conflicts } = await mergeContents(sides.base, sides.ours, sides.theirs, world, ours);
  if (conflicts.length > 0) return { conflicts };
  const next = await commitRevision(tx, world, { space: "s", base: ours, changes });
  return { tree: next.tree };
}

async function compare(seed: number, size: number) {
  const random = seeded(seed);
  const { base, ours, theirs } = history(random, size);
  const storage = memoryStorage();
  await storage.init({
    tables: [treeNodesTable, revisionsTable, pageVersionsTable, fileVersionsTable, sequencesTable],
  });
  let counter = 0;
  const world = {
    cache: new Map(),
    ids: () => `id${counter++}`,
    clock: () => new Date(NOW),
  } as unknown as World;
  const empty: Model = { pages: new Map(), files: new Map() };
  const [b, o, t] = await storage.write(async (tx) => {
    const start = await commitRevision(tx, world, {
      space: "s",
      base: null,
      changes: changesFrom(empty, base),
    });
    const side = async (model: Model) =>
      model === base
        ? start
        : commitRevision(tx, world, { space: "s", base: start, changes: changesFrom(base, model) });
    return [start.id, (await side(ours)).id, (await side(theirs)).id];
  });
  const run = (merge: typeof mergeRevisions) =>
    storage.write(async (tx) => {
      counter = 1_000_000;
      const load = (id: string) => requireRevision(tx, world, id);
      return merge(tx, world, await load(b), await load(o), await load(t));
    });
  const expected = await run(referenceMerge);
  const actual = await run(mergeRevisions);
  expect(actual, `seed ${seed}`).toEqual(expected);
  return "tree" in expected;
}

describe("mergeRevisions", () => {
  it("finds what the entry-by-entry merge finds on random histories of small spaces", async () => {
    let merged = 0;
    for (let seed = 1; seed <= 300; seed++) if (await compare(seed, 20 + (seed % 5) * 30)) merged++;
    // Both outcomes are exercised.
    expect(merged).toBeGreaterThan(30);
    expect(merged).toBeLessThan(290);
  });

  it("and on spaces large enough for branches two levels deep", async () => {
    for (let seed = 1; seed <= 4; seed++) await compare(1000 + seed, 1200);
  });
});
