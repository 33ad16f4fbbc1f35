import type { SearchIndex } from "../../src/core/search/search-index.js";

/**
 * What a search index holds, whatever numbers its documents got: documents and words counted, and
 * for each word its document frequency by field and its postings as `pageId#section:frequencies`.
 */
export function indexContents(index: SearchIndex) {
  const place = (doc: number) => `${index.pageIds[index.documentSlot[doc]!]}#${index.documentSection[doc]}`;
  const words: Record<string, { df: number[]; postings: string[] }> = {};
  for (const [word, term] of index.postings.terms.entries()) {
    const postings: string[] = [];
    for (let i = 0; i < term.n; i++)
      postings.push(`${place(term.docs[i]!)}:${term.freqs.slice(i * 3, i * 3 + 3).join(",")}`);
    words[word] = { df: [...term.df], postings: postings.sort() };
  }
  return { documents: index.postings.documentCount, terms: index.postings.termCount, words };
}

/** A hit as a test compares it: pages, sections and scores to `digits` significant digits, words sorted. */
interface ComparedHit {
  readonly page: string;
  readonly score: number;
  readonly sections: readonly {
    readonly section: number;
    readonly score: number;
    readonly terms: readonly string[];
  }[];
}

/** Search hits as plain values to compare, scores rounded to `digits` significant digits. */
export function comparableHits(hits: readonly ComparedHit[], digits: number) {
  return hits.map((hit) => ({
    page: hit.page,
    score: Number(hit.score.toPrecision(digits)),
    sections: hit.sections.map((section) => ({
      section: section.section,
      score: Number(section.score.toPrecision(digits)),
      terms: [...section.terms].sort(),
    })),
  }));
}
