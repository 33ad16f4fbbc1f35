import { describe, expect, it } from "vitest";
import { memoryStorage } from "../../adapters/memory/index.js";
import { sequencesTable } from "../shared/sequence.js";
import type { World } from "../shared/world.js";
import { treeNodesTable } from "./hamt.js";
import { commitRevision, requireRevision } from "./revisions.js";
import { type PageVersionRecord, pageVersionsTable, revisionsTable } from "./tables.js";

/**
 * The `slugs` map of a revision tree (parent and slug → page): kept with the children lists, and
 * built at the first commit on a revision written before it existed.
 */

const page = (id: string, slug: string, parent = "", position = "a0"): PageVersionRecord => ({
  id: `v-${id}-${slug}-${parent}-${position}`,
  page: id,
  parent,
  position,
  type: "document",
  title: slug,
  slug,
  markdown: "",
  hidden: false,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
});

describe("slug index", () => {
  it("follows renames and moves, and is built on a revision that predates it", async () => {
    const storage = memoryStorage();
    await storage.init({ tables: [treeNodesTable, revisionsTable, pageVersionsTable, sequencesTable] });
    let counter = 0;
    const world = {
      cache: new Map(),
      ids: () => `id${counter++}`,
      clock: () => new Date(),
    } as unknown as World;
    await storage.write(async (tx) => {
      const first = await commitRevision(tx, world, {
        space: "s",
        base: null,
        changes: {
          pages: new Map([
            ["a", page("a", "guide")],
            ["b", page("b", "intro", "a")],
          ]),
        },
      });
      // As stored before issue 29: no `slugs` in the tree.
      const { slugs, ...tree } = first.tree;
      expect(slugs).toBeTruthy();
      await tx.put(revisionsTable, { ...first.record, id: "old", tree });
      world.cache.clear();
      const old = await requireRevision(tx, world, "old");
      expect(old.tree.slugs).toBeUndefined();
      expect(await old.childBySlug("a", "intro")).toBe("b");
      expect(await old.childBySlug("a", "other")).toBeUndefined();

      const next = await commitRevision(tx, world, {
        space: "s",
        base: old,
        changes: {
          pages: new Map([
            ["b", page("b", "setup", "a")],
            ["c", page("c", "intro", "", "a1")],
          ]),
        },
      });
      expect(next.tree.slugs).toBeTruthy();
      expect(await next.childBySlug("", "guide")).toBe("a");
      expect(await next.childBySlug("a", "setup")).toBe("b");
      expect(await next.childBySlug("a", "intro")).toBeUndefined();
      expect(await next.childBySlug("", "intro")).toBe("c");
      expect(await next.pageAtPath("guide/setup")).toMatchObject({ page: "b" });

      const moved = await commitRevision(tx, world, {
        space: "s",
        base: next,
        changes: {
          pages: new Map([
            ["b", page("b", "setup", "", "a2")],
            ["a", null],
          ]),
        },
      });
      expect(await moved.childBySlug("", "setup")).toBe("b");
      expect(await moved.childBySlug("a", "setup")).toBeUndefined();
      expect(await moved.childBySlug("", "guide")).toBeUndefined();
    });
  });
});
