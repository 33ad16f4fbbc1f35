import { describe, expect, it } from "vitest";
import type { FullContent } from "../content/revisions.js";
import type { PageVersionRecord } from "../content/tables.js";
import type { World } from "../shared/world.js";
import { buildSearchIndex, searchPages } from "./search-index.js";

/** An index of pages given by title and markdown, built without storage. */
function indexOf(pages: Record<string, string>) {
  const world = { cache: new Map() } as unknown as World;
  const versions = new Map<string, PageVersionRecord>();
  for (const [title, markdown] of Object.entries(pages)) {
    const page = title.toLowerCase();
    versions.set(page, { id: `v-${page}`, page, title, markdown } as PageVersionRecord);
  }
  return buildSearchIndex(world, { record: { id: "r" }, pages: versions } as unknown as FullContent);
}

describe("the query's last word, expanded to longer words", () => {
  it("scores as minisearch's own prefix search does", () => {
    const index = indexOf({
      Compiler: "The compiler turns templates into pages.\n\n# Templating\n\nA template, templated.",
      Glossary: "Compiler, template, temperature.",
      Other: "Nothing about it.",
    });
    const pages = searchPages(index, "compiler temp");
    expect(pages.map(({ page }) => page)).toEqual(["compiler", "glossary"]);
    // minisearch expanding "temp" itself: the same score, page by page (its best section's).
    const native = index.engine.search(
      { combineWith: "AND", queries: [{ queries: ["compiler"] }, { queries: ["temp"], prefix: true }] },
      { boost: { title: 3, pageTitle: 1.5, body: 1 } },
    );
    const best = new Map<string, number>();
    for (const { id, score } of native) {
      const { page } = index.documents.get(id as number)!;
      best.set(page, Math.max(best.get(page) ?? 0, score));
    }
    for (const { page, score } of pages) expect(score).toBeCloseTo(best.get(page)!, 10);
    // Also when a longer word of the last word is itself a word of the query.
    const again = searchPages(index, "templates temp");
    const nativeAgain = index.engine.search(
      { combineWith: "AND", queries: [{ queries: ["templates"] }, { queries: ["temp"], prefix: true }] },
      { boost: { title: 3, pageTitle: 1.5, body: 1 } },
    );
    expect(again.map(({ score }) => score)).toEqual([expect.closeTo(nativeAgain[0]!.score, 10)]);
  });
});
