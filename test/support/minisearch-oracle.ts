import MiniSearch, { type Query, type SearchOptions, type SearchResult } from "minisearch";
import { queryTerms } from "../../src/core/search/search-index.js";
import { pageSections } from "../../src/core/search/sections.js";

/**
 * The search of src/core/search before its own index (postings.ts): minisearch, configured and
 * queried as it was, with its results grouped by page as they were. The test oracle of the index
 * that replaced it (search-index.test.ts): same pages, order, scores, sections and words.
 */

export interface OracleHit {
  page: string;
  score: number;
  sections: { section: number; score: number; terms: string[] }[];
}

const processTerm = (term: string) =>
  term
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();

export const ORACLE_OPTIONS: SearchOptions = { boost: { title: 3, pageTitle: 1.5, body: 1 } };

interface TermMap {
  has(term: string): boolean;
  atPrefix(prefix: string): { keys(): Iterable<string> };
}

/** An oracle of pages given by id, title and markdown (split into sections as the index does). */
export function minisearchOracle(pages: readonly { page: string; title: string; markdown: string }[]) {
  const engine = new MiniSearch<{ id: number; title: string; pageTitle: string; body: string }>({
    fields: ["title", "pageTitle", "body"],
    storeFields: [],
    processTerm,
  });
  const documents: { page: string; section: number }[] = [];
  for (const { page, title, markdown } of pages) {
    pageSections(title, markdown).forEach((section, index) => {
      engine.add({ id: documents.length, title: section.title, pageTitle: title, body: section.body });
      documents.push({ page, section: index });
    });
  }
  const termMap = (engine as unknown as { _index: TermMap })._index;

  function completions(prefix: string): string[] {
    const words: string[] = [];
    for (const word of termMap.atPrefix(prefix).keys()) if (word !== prefix) words.push(word);
    return words.length <= 50
      ? words
      : words.sort((a, b) => a.length - b.length || (a < b ? -1 : 1)).slice(0, 50);
  }

  function engineQuery(terms: readonly string[], combineWith: "AND" | "OR", completed: Set<string>): Query {
    return {
      combineWith,
      queries: terms.map((term, position) => {
        const prefix = position === terms.length - 1 && term.length >= 3;
        const longer = prefix ? completions(term) : [];
        const fuzzy = term.length >= 5 && longer.length === 0 && !termMap.has(term) ? 0.2 : false;
        if (longer.length === 0) return { queries: [term], fuzzy };
        for (const word of longer) completed.add(word);
        const weighed = longer.map((word) => {
          const weight = (0.375 * word.length) / (word.length + 0.3 * (word.length - term.length));
          return { queries: [word], boostTerm: () => weight };
        });
        return { combineWith: "OR", queries: [term, ...weighed] };
      }),
    };
  }

  function rescore(result: SearchResult, words: readonly string[], completed: ReadonlySet<string>) {
    const matched = result.queryTerms;
    const asWords = matched.filter((term) => words.includes(term)).length;
    const viaLonger = !matched.includes(words.at(-1)!) && matched.some((term) => completed.has(term));
    return (result.score / matched.length) * (asWords + (viaLonger ? 1 : 0));
  }

  function search(query: string): OracleHit[] {
    const terms = queryTerms(query);
    if (terms.length === 0) return [];
    const completed = new Set<string>();
    let results = engine.search(engineQuery(terms, "AND", completed), ORACLE_OPTIONS);
    if (results.length === 0 && terms.length > 1) {
      completed.clear();
      results = engine.search(engineQuery(terms, "OR", completed), ORACLE_OPTIONS);
    }
    const byPage = new Map<
      string,
      { score: number; found: { section: number; score: number; result: SearchResult }[] }
    >();
    for (const result of results) {
      const { page, section } = documents[result.id as number]!;
      const score = completed.size === 0 ? result.score : rescore(result, terms, completed);
      const hits = byPage.get(page);
      if (!hits) byPage.set(page, { score, found: [{ section, score, result }] });
      else {
        hits.found.push({ section, score, result });
        hits.score = Math.max(hits.score, score);
      }
    }
    return [...byPage.entries()]
      .map(([page, { score, found }]) => {
        const sorted = found
          .map(({ section, score, result }) => ({
            section,
            score,
            terms: result.terms,
            own: Object.values(result.match).some(
              (fields) => fields.includes("title") || fields.includes("body"),
            ),
          }))
          .sort((a, b) => b.score - a.score || a.section - b.section);
        const own = sorted.filter((hit) => hit.own);
        const sections = (own.length > 0 ? own : [{ ...sorted[0]!, section: 0 }]).map(
          ({ section, score, terms }) => ({ section, score, terms }),
        );
        return { page, score, sections };
      })
      .sort((a, b) => b.score - a.score || (a.page < b.page ? -1 : a.page > b.page ? 1 : 0));
  }

  return { engine, documents, search };
}
