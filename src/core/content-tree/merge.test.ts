import { describe, expect, it } from "vitest";
import type { FileVersionRecord, PageVersionRecord } from "./tables.js";
import { mergeContents, mergeLines, same, type MergeInput } from "./merge.js";

let counter = 0;
const world = { ids: () => `new${++counter}`, clock: () => new Date("2025-06-01T00:00:00.000Z") };

function page(id: string, fields: Partial<PageVersionRecord> = {}): PageVersionRecord {
  return {
    id: `${id}-v0`,
    page: id,
    parent: "",
    position: "a0",
    type: "document",
    title: id,
    slug: id,
    markdown: "",
    hidden: false,
    createdAt: "2025-01-01T00:00:00.000Z",
    updatedAt: "2025-01-01T00:00:00.000Z",
    ...fields,
  };
}
const edit = (version: PageVersionRecord, suffix: string, fields: Partial<PageVersionRecord>) => ({
  ...version,
  ...fields,
  id: `${version.page}-${suffix}`,
});
const file = (id: string, version = "v0"): FileVersionRecord => ({
  id: `${id}-${version}`,
  file: id,
  name: `${id}.png`,
  contentType: "image/png",
  blob: version,
  size: 1,
  createdAt: "2025-01-01T00:00:00.000Z",
});
const content = (pages: PageVersionRecord[], files: FileVersionRecord[] = []): MergeInput => ({
  pages: new Map(pages.map((version) => [version.page, version])),
  files: new Map(files.map((version) => [version.file, version])),
});

describe("mergeContents", () => {
  const a = page("a", { markdown: "1\n2\n3\n4\n5", position: "a0" });
  const b = page("b", { position: "a1" });

  it("takes the side that changed a page, reusing its version", async () => {
    const theirsB = edit(b, "t", { title: "B!" });
    const oursA = edit(a, "o", { title: "A!" });
    const result = await mergeContents(content([a, b]), content([oursA, b]), content([a, theirsB]), world);
    expect(result.conflicts).toEqual([]);
    expect([...result.changes.pages]).toEqual([["b", theirsB]]);
    expect(result.changes.pages.get("b")).toBe(theirsB);
  });

  it("merges different fields of one page into a new version", async () => {
    const ours = edit(a, "o", { title: "Renamed", markdown: "1 (ours)\n2\n3\n4\n5" });
    const theirs = edit(a, "t", {
      description: "Described",
      parent: "b",
      position: "a0",
      markdown: "1\n2\n3\n4\n5 (theirs)",
    });
    const result = await mergeContents(content([a, b]), content([ours, b]), content([theirs, b]), world);
    expect(result.conflicts).toEqual([]);
    const merged = result.changes.pages.get("a")!;
    expect(merged).toMatchObject({
      page: "a",
      title: "Renamed",
      description: "Described",
      parent: "b",
      markdown: "1 (ours)\n2\n3\n4\n5 (theirs)",
      createdAt: a.createdAt,
      updatedAt: "2025-06-01T00:00:00.000Z",
    });
    expect(merged.id).toMatch(/^new/);
  });

  it("reuses a side's version when the merge equals it", async () => {
    const ours = edit(a, "o", { title: "Same" });
    const theirs = edit(a, "t", { title: "Same" });
    expect(
      (await mergeContents(content([a]), content([ours]), content([theirs]), world)).changes.pages.size,
    ).toBe(0);
    // Theirs changed the title, ours an unrelated field back to its original value.
    const oursNoop = edit(a, "o2", {});
    const theirsTitle = edit(a, "t2", { title: "T" });
    const result = await mergeContents(content([a]), content([oursNoop]), content([theirsTitle]), world);
    expect(result.changes.pages.get("a")).toBe(theirsTitle);
  });

  it("reports fields changed differently on both sides", async () => {
    const ours = edit(a, "o", { title: "Ours", markdown: "1\nX\n3\n4\n5" });
    const theirs = edit(a, "t", { title: "Theirs", markdown: "1\nY\n3\n4\n5" });
    const result = await mergeContents(content([a]), content([ours]), content([theirs]), world);
    expect(result.conflicts).toEqual([{ page: "a", reason: expect.stringContaining("title") }]);
    expect(result.conflicts[0]!).toMatchObject({ reason: expect.stringContaining("markdown") });
    expect(result.changes.pages.size).toBe(0);
    const moves = await mergeContents(
      content([a, b, page("c")]),
      content([edit(a, "o", { parent: "b" }), b, page("c")]),
      content([edit(a, "t", { parent: "c" }), b, page("c")]),
      world,
    );
    expect(moves.conflicts).toEqual([{ page: "a", reason: expect.stringContaining("moved") }]);
  });

  it("reports a page deleted on one side and changed on the other", async () => {
    const result = await mergeContents(
      content([a, b]),
      content([b]),
      content([edit(a, "t", { title: "T" }), b]),
      world,
    );
    expect(result.conflicts).toEqual([{ page: "a", reason: expect.stringMatching(/deleted/) }]);
    const unchanged = await mergeContents(content([a, b]), content([b]), content([a, b]), world);
    expect(unchanged).toEqual({ changes: { pages: new Map(), files: new Map() }, conflicts: [] });
    const removed = await mergeContents(content([a, b]), content([a, b]), content([b]), world);
    expect([...removed.changes.pages]).toEqual([["a", null]]);
  });

  it("keeps pages created on both sides, and reports sibling slug clashes and orphans", async () => {
    const c = page("c", { slug: "c" });
    const d = page("d", { slug: "d" });
    const both = await mergeContents(content([a]), content([a, c]), content([a, d]), world);
    expect(both.conflicts).toEqual([]);
    expect([...both.changes.pages.keys()]).toEqual(["d"]);
    const clash = await mergeContents(
      content([a]),
      content([a, c]),
      content([a, page("e", { slug: "c" })]),
      world,
    );
    expect(clash.conflicts).toEqual([
      { page: "c", reason: 'slug "c" is used by another page under the same parent' },
      { page: "e", reason: 'slug "c" is used by another page under the same parent' },
    ]);
    const orphan = await mergeContents(
      content([a, b]),
      content([b]),
      content([a, b, page("child", { parent: "a" })]),
      world,
    );
    expect(orphan.conflicts).toEqual([{ page: "child", reason: expect.stringMatching(/parent/) }]);
  });

  it("reports a cycle made by two moves", async () => {
    const ours = edit(a, "o", { parent: "b" });
    const theirs = edit(b, "t", { parent: "a" });
    const result = await mergeContents(content([a, b]), content([ours, b]), content([a, theirs]), world);
    expect(result.conflicts.map((conflict) => conflict.reason)).toEqual([
      expect.stringMatching(/descendant/),
      expect.stringMatching(/descendant/),
    ]);
  });

  it("merges files by id and version", async () => {
    const [x, y, z] = [file("x"), file("y"), file("z")];
    const result = await mergeContents(
      content([], [x, y]),
      content([], [x, file("y", "o")]),
      content([], [file("x", "t"), y, z]),
      world,
    );
    expect(result.conflicts).toEqual([]);
    expect([...result.changes.files.keys()]).toEqual(["x", "z"]);
    const clash = await mergeContents(
      content([], [x]),
      content([], [file("x", "o")]),
      content([], [file("x", "t")]),
      world,
    );
    expect(clash.conflicts).toEqual([{ file: "x", reason: expect.any(String) }]);
    const deleted = await mergeContents(
      content([], [x]),
      content([], []),
      content([], [file("x", "t")]),
      world,
    );
    expect(deleted.conflicts).toEqual([{ file: "x", reason: expect.stringMatching(/deleted/) }]);
  });
});

describe("mergeLines", () => {
  it("merges disjoint line edits and refuses overlapping ones", async () => {
    expect(mergeLines("a\nb\nc\nd", "A\nb\nc\nd", "a\nb\nc\nD")).toBe("A\nb\nc\nD");
    expect(mergeLines("a\nb\nc", "a\nX\nc", "a\nY\nc")).toBeUndefined();
    expect(mergeLines("a", "b", "b")).toBe("b");
    expect(mergeLines("a\nb\nc\nd", "a\nb\nc\nd\ne", "z\na\nb\nc\nd")).toBe("z\na\nb\nc\nd\ne");
  });

  it("compares JSON values deeply", async () => {
    expect(same({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(same({ a: 1 }, { a: 1, b: undefined })).toBe(true);
    expect(same([1], { 0: 1 })).toBe(false);
    expect(same(undefined, null)).toBe(false);
  });
});
