import { describe, expect, it } from "vitest";
import { seededRandom as generator } from "../../../test/support/crash-workload.js";
import { comparableHits, indexContents } from "../../../test/support/index-contents.js";
import { minisearchOracle, ORACLE_OPTIONS } from "../../../test/support/minisearch-oracle.js";
import type { ContentDiff, FullContent } from "../content-tree/revisions.js";
import type { PageVersionRecord, RevisionRecord } from "../content-tree/tables.js";
import type { World } from "../shared/world.js";
import { applyDiff, buildSearchIndex, pageAt, pageHit, rankPages, searchPages } from "./search-index.js";

/**
 * The index against minisearch configured and queried as search was before it (the oracle, see
 * test/support/minisearch-oracle.ts): the same pages in the same order, with the same scores (to
 * floating-point rounding), sections and matched words.
 */

const world = () => ({ cache: new Map() }) as unknown as World;

function versionsOf(pages: readonly { page: string; title: string; markdown: string }[]) {
  const versions = new Map<string, PageVersionRecord>();
  for (const { page, title, markdown } of pages)
    versions.set(page, {
      id: `v-${page}-${markdown.length}-${title}`,
      page,
      title,
      markdown,
    } as PageVersionRecord);
  return versions;
}

function indexOf(pages: readonly { page: string; title: string; markdown: string }[]) {
  const content = { record: { id: "r" }, pages: versionsOf(pages) } as unknown as FullContent;
  return buildSearchIndex(world(), content);
}

const VOCABULARY = (
  "deploy deploys deployed deployment deployments preview previews branch branches template templates " +
  "templating temperature compiler compile compiled cache caching cached environment variables variable " +
  "rollback dashboard invoice invoices billing kangaroo platypus install installer installation " +
  "configuration configure café Café naïve résumé build builds builder log logs lock locks site sites " +
  "page pages section sections search searching index indexing token tokens quux quuxes quuxing " +
  "alpha alphabet alphanumeric beta gamma delta epsilon zeta theta iota kappa lambda sigma omega"
).split(" ");
const STOP = "the a of to and in is it for on with".split(" ");

function corpus(seed: number, pages: number) {
  const random = generator(seed);
  const word = () =>
    random() < 0.25
      ? STOP[Math.floor(random() * STOP.length)]!
      : VOCABULARY[Math.floor(VOCABULARY.length * random() ** 2)]!;
  const words = (n: number) => Array.from({ length: n }, word).join(" ");
  return Array.from({ length: pages }, (_, i) => {
    const parts = [`${words(5 + Math.floor(random() * 20))}.`];
    const sections = Math.floor(random() * 4);
    for (let s = 0; s < sections; s++) {
      parts.push(
        `# ${words(1 + Math.floor(random() * 3))}`,
        `${words(Math.floor(random() * 40))}, ${words(3)}!`,
      );
    }
    return {
      page: `p${String(i).padStart(3, "0")}`,
      title: words(1 + Math.floor(random() * 3)),
      markdown: parts.join("\n\n"),
    };
  });
}

const QUERIES = [
  // One word, common and rare, with an accent and its folded form.
  "deploy",
  "kangaroo",
  "café",
  "Cafe",
  "omega",
  // Two and three words, all of which must match.
  "deploy preview",
  "build cache",
  "template compiler environment",
  // No page holds them all: any may match.
  "zebra deploy",
  "kangaroo platypus omega iota rollback",
  "unheardof",
  // The last word as a prefix, alone and after others; a longer word also a word of the query.
  "dep",
  "tem",
  "quu",
  "alp",
  "deploy prev",
  "templates temp",
  "cache ca",
  // A word no page holds, with a typo.
  "deplyo",
  "compilr",
  "tempalte preview",
  "enviroment variables",
  "instalation",
  // Common words only, and common words with others.
  "the",
  "the of",
  "the deploy",
  "a rollback to the dashboard",
  // The same word twice.
  "deploy deploy",
];

/** Hits with scores rounded, and matched words sorted (their order is the engine's). */
/** Hits as compared with the oracle's: scores to 12 significant digits. */
const comparable = (hits: Parameters<typeof comparableHits>[0]) => comparableHits(hits, 12);

describe("the search index against minisearch", () => {
  const pages = corpus(11, 300);
  const index = indexOf(pages);
  const oracle = minisearchOracle(pages);

  it("holds the same documents and words", () => {
    expect(index.postings.documentCount).toBe(oracle.engine.documentCount);
    expect(index.postings.termCount).toBe(oracle.engine.termCount);
  });

  it.each(QUERIES)("%s", (query) => {
    const expected = oracle.search(query);
    const actual = searchPages(index, query);
    expect(comparable(actual)).toEqual(comparable(expected));
    for (const [i, hit] of actual.entries()) expect(hit.score).toBeCloseTo(expected[i]!.score, 9);
  });

  it("covers what it means to: matches by AND, by OR, by prefix and by typo", () => {
    expect(oracle.search("deploy preview").length).toBeGreaterThan(0);
    expect(oracle.search("zebra deploy").length).toBeGreaterThan(0);
    expect(oracle.search("kangaroo platypus omega iota rollback").length).toBeGreaterThan(
      oracle.search("kangaroo").length,
    );
    expect(oracle.search("tem").length).toBeGreaterThan(oracle.search("template").length);
    expect(oracle.search("compilr").length).toBeGreaterThan(0);
    expect(oracle.search("the").length).toBeGreaterThan(0);
  });

  it("scores the last word's longer words as minisearch's own prefix search does", () => {
    const small = [
      {
        page: "compiler",
        title: "Compiler",
        markdown: "The compiler turns templates into pages.\n\n# Templating\n\nA template, templated.",
      },
      { page: "glossary", title: "Glossary", markdown: "Compiler, template, temperature." },
      { page: "other", title: "Other", markdown: "Nothing about it." },
    ];
    const { engine, documents } = minisearchOracle(small);
    const own = indexOf(small);
    const best = (query: Parameters<typeof engine.search>[0]) => {
      const scores = new Map<string, number>();
      for (const { id, score } of engine.search(query, ORACLE_OPTIONS)) {
        const { page } = documents[id as number]!;
        scores.set(page, Math.max(scores.get(page) ?? 0, score));
      }
      return scores;
    };
    const pages = searchPages(own, "compiler temp");
    expect(pages.map(({ page }) => page)).toEqual(["compiler", "glossary"]);
    const native = best({
      combineWith: "AND",
      queries: [{ queries: ["compiler"] }, { queries: ["temp"], prefix: true }],
    });
    for (const { page, score } of pages) expect(score).toBeCloseTo(native.get(page)!, 10);
    // Also when a longer word of the last word is itself a word of the query.
    const again = searchPages(own, "templates temp");
    const nativeAgain = best({
      combineWith: "AND",
      queries: [{ queries: ["templates"] }, { queries: ["temp"], prefix: true }],
    });
    expect(again.map(({ page, score }) => [page, score])).toEqual([
      ["compiler", expect.closeTo(nativeAgain.get("compiler")!, 10)],
    ]);
  });
});

describe("an index moved by diffs", () => {
  it("equals a fresh build, through enough edits to renumber its documents", () => {
    const pages = corpus(5, 40);
    const index = indexOf(pages);
    const random = generator(99);
    const current = new Map(pages.map((page) => [page.page, page]));
    const edits = corpus(6, 400);
    let renumbered = false;
    for (const [i, edit] of edits.entries()) {
      const page = `p${String(Math.floor(random() * 50)).padStart(3, "0")}`;
      const before = current.get(page);
      const after = i % 7 === 3 ? undefined : { ...edit, page };
      if (after) current.set(page, after);
      else current.delete(page);
      const pagesDiff = new Map([[page, { ...(before ? { before } : {}), ...(after ? { after } : {}) }]]);
      const diff = {
        pages: new Map(
          [...pagesDiff].map(([id, change]) => [
            id,
            {
              ...(change.before ? { before: versionsOf([change.before]).get(id)! } : {}),
              ...(change.after ? { after: versionsOf([change.after]).get(id)! } : {}),
            },
          ]),
        ),
        files: new Map(),
      } as ContentDiff;
      const limit = index.postings.limit;
      applyDiff(world(), index, diff, { id: `r${i}` } as RevisionRecord);
      if (index.postings.limit < limit) renumbered = true;
    }
    expect(renumbered).toBe(true);
    const fresh = indexOf([...current.values()]);
    expect(indexContents(index)).toEqual(indexContents(fresh));
    const oracle = minisearchOracle([...current.values()]);
    for (const query of QUERIES) {
      expect(comparable(searchPages(index, query)), query).toEqual(comparable(searchPages(fresh, query)));
      expect(comparable(searchPages(index, query)), query).toEqual(comparable(oracle.search(query)));
    }
  });
});

describe("a query's ranking and the pages shown", () => {
  it("lists a window's sections as the whole list does, and remembers the ranking", () => {
    const index = indexOf(corpus(11, 300));
    for (const query of QUERIES) {
      const all = searchPages(index, query);
      const ranking = rankPages(index, query);
      expect(rankPages(index, query)).toBe(ranking);
      expect(ranking.count).toBe(all.length);
      const from = Math.min(3, ranking.count);
      const window = Array.from({ length: Math.min(ranking.count, from + 5) - from }, (_, i) =>
        pageHit(index, ranking, from + i),
      );
      expect(window, query).toEqual(all.slice(from, from + 5));
      for (const [i, hit] of window.entries()) expect(pageAt(index, ranking, from + i)).toBe(hit.page);
    }
  });

  it("refuses to list sections once the index moved", () => {
    const pages = corpus(5, 20);
    const index = indexOf(pages);
    const ranking = rankPages(index, "deploy");
    expect(ranking.count).toBeGreaterThan(0);
    const page = pages[0]!;
    const diff = {
      pages: new Map([[page.page, { before: versionsOf([page]).get(page.page)! }]]),
      files: new Map(),
    } as ContentDiff;
    applyDiff(world(), index, diff, { id: "moved" } as RevisionRecord);
    expect(() => pageHit(index, ranking, 0)).toThrow(/moved/);
    expect(rankPages(index, "deploy")).not.toBe(ranking);
  });
});

/**
 * Pages that all hold the word "common": `pages` of them, of 20 to 80 words of filler each, the
 * word once or twice; every `titled`-th also in its title. Page ids in order.
 */
function everyPageMatches(seed: number, pages: number, titled = 50) {
  const random = generator(seed);
  const filler = (n: number) =>
    Array.from({ length: n }, () => VOCABULARY[Math.floor(random() * 40)]!).join(" ");
  return Array.from({ length: pages }, (_, i) => ({
    page: `p${String(i).padStart(4, "0")}`,
    title: i % titled === 7 ? `Common ${filler(1)}` : filler(2),
    markdown: `${filler(10)} common ${filler(10 + Math.floor(random() * 60))}.\n\n# ${filler(2)}\n\n${
      random() < 0.3 ? "common " : ""
    }${filler(20)}.`,
  }));
}

/** The ranking as compared: page ids and scores, best first. */
const listed = (index: ReturnType<typeof indexOf>, ranking: ReturnType<typeof rankPages>) =>
  Array.from(ranking.slots, (slot, rank) => [index.pageIds[slot], ranking.scores[rank]]);

describe("the best pages of a query, without scoring every match", () => {
  it("lists the whole ranking's first pages, with their scores, and the count of every page", () => {
    for (const [pages, queries] of [
      [corpus(11, 300), QUERIES],
      [everyPageMatches(3, 1_000), ["common", "common deploy", "common cache ca", "Common the", "comm"]],
    ] as const) {
      const index = indexOf(pages);
      for (const query of queries) {
        index.remembered.clear();
        const whole = rankPages(index, query);
        expect(whole.complete).toBe(true);
        expect(whole.slots.length, query).toBe(whole.count);
        const all = listed(index, whole);
        for (const depth of [1, 3, 10, 25]) {
          index.remembered.clear();
          const top = rankPages(index, query, depth);
          expect(top.count, query).toBe(whole.count);
          expect(top.slots.length).toBeGreaterThanOrEqual(Math.min(depth, whole.count));
          expect(listed(index, top), `${query} at depth ${depth}`).toEqual(all.slice(0, top.slots.length));
        }
      }
    }
  });

  it("breaks ties at the last place shown by page id, as the whole ranking does", () => {
    const pages = Array.from({ length: 300 }, (_, i) => ({
      page: `p${String((i * 7) % 300).padStart(3, "0")}`,
      title: "Same",
      markdown: "Every page says the same common words.",
    }));
    const index = indexOf(pages);
    const top = rankPages(index, "common", 5);
    expect(top.count).toBe(300);
    expect(Array.from(top.slots.slice(0, 5), (slot) => index.pageIds[slot])).toEqual([
      "p000",
      "p001",
      "p002",
      "p003",
      "p004",
    ]);
  });

  it("reads the postings of a small part of the pages when every page matches", () => {
    const pages = everyPageMatches(5, 2_000, 400);
    const index = indexOf(pages);
    const term = index.postings.terms.get("common")!;
    expect(term.n).toBeGreaterThan(2_000);
    rankPages(index, "common", 3);
    // Frequencies read by the next query of the word (another string: not the remembered ranking).
    let reads = 0;
    const freqs = term.freqs;
    term.freqs = new Proxy(freqs, {
      get(target, key) {
        if (typeof key === "string" && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key) as unknown;
      },
    });
    const ranking = rankPages(index, "Common", 3);
    term.freqs = freqs;
    expect(ranking.count).toBe(2_000);
    expect(listed(index, ranking).slice(0, 3)).toEqual(listed(index, rankPages(index, "COMMON")).slice(0, 3));
    // Three frequencies a posting: under a fifth of the postings read (all of them, before).
    expect(reads / 3).toBeLessThan(term.n / 5);
  });
});
