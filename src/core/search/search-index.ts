import MiniSearch, { type Query, type SearchOptions, type SearchResult } from "minisearch";
import type { FullContent } from "../content/revisions.js";
import type { RevisionRecord } from "../content/tables.js";
import type { PageVersionRecord } from "../content/tables.js";
import type { World } from "../shared/world.js";
import type { ContentDiff } from "../content/revisions.js";
import { pageSections, type Section } from "./sections.js";

/**
 * The full-text index of a revision: one document per page section (see sections.ts), with the
 * section title, the page title and the section text as fields. Nothing in it depends on a page's
 * place in the tree (paths and ancestors are read from the revision for the hits shown, see
 * operations.ts), so a page's documents change only when that page gets a new version, and moving
 * or renaming a page re-indexes that page alone, never its subtree.
 *
 * An index is mutable: {@link applyDiff} moves it from the revision it indexes to another one by
 * removing the documents of the pages that changed and adding their new ones, which leaves exactly
 * the index a fresh build of that revision would give (live-index.ts keeps one per space).
 *
 * Pages marked `noIndex` ("not indexable in the search and ask features") are left out; hidden
 * pages are searched, as any reader of the space can read them.
 *
 * Ranking (minisearch's BM25): a section title weighs 3, the page title 1.5, the text 1, so a page
 * whose title matches ranks above a page that only mentions the words. Every word of the query must
 * match; when no section has them all, any word may match. Common English words are ignored unless
 * the query has nothing else. The last word may be the start of a longer word, and a word no page
 * holds may match with a typo: see {@link engineQuery}.
 */

interface SectionDocument {
  readonly id: number;
  readonly title: string;
  readonly pageTitle: string;
  readonly body: string;
}

interface IndexedPage {
  /** The version indexed: removal needs the very text that was added. */
  readonly version: PageVersionRecord;
  /** Document ids, by section index. */
  readonly documents: readonly number[];
}

export interface SearchIndex {
  /** The revision indexed; {@link applyDiff} moves it. */
  at: RevisionRecord;
  readonly engine: MiniSearch<SectionDocument>;
  /** Indexed pages by page id. */
  readonly pages: Map<string, IndexedPage>;
  /** Page id and section index of each document id. */
  readonly documents: Map<number, { readonly page: string; readonly section: number }>;
  nextId: number;
  /** Characters of text indexed (titles and bodies): see {@link estimateBytes}. */
  characters: number;
  /**
   * Results of the latest queries at the revision indexed, oldest first (at most
   * {@link REMEMBERED_QUERIES}); emptied when the index moves.
   */
  readonly remembered: Map<string, PageHit[]>;
}

/** Queries whose results an index remembers: a query of many common words costs tens of ms. */
export const REMEMBERED_QUERIES = 64;

/** A matching section: its index in the page, its score and the words of it that matched. */
export interface SectionHit {
  readonly section: number;
  readonly score: number;
  readonly terms: readonly string[];
}

/** A matching page, scored by its best section; sections best first. */
export interface PageHit {
  readonly page: string;
  readonly score: number;
  readonly sections: readonly SectionHit[];
}

const STOP_WORDS = new Set(
  "a an and are as at be by for from has have in is it its of on or that the this to was were will with".split(
    " ",
  ),
);

const processTerm = (term: string) =>
  term
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();

const SEARCH_OPTIONS: SearchOptions = {
  boost: { title: 3, pageTitle: 1.5, body: 1 },
};

/** Letters a query's last word needs to match as a prefix of longer words. */
const PREFIX_LETTERS = 3;
/** Longer words a prefix matches, at most: the shortest ones, which weigh the most. */
const PREFIX_WORDS = 50;
/** Letters a word needs to match with a typo (one typo in words of fewer than ten letters). */
const FUZZY_LETTERS = 5;
/** The weight of a prefix match with no letter added (minisearch's; it falls as letters are added). */
const PREFIX_WEIGHT = 0.375;

/**
 * The engine's query for a query's words: each word is matched exactly; the last word, being typed,
 * also as a prefix of at most {@link PREFIX_WORDS} longer words (the shortest); a word the index
 * does not hold (as a whole word or, for the last, as a prefix) also with a typo. A common word
 * expanded by prefix and typo matches most sections of a large space, and each is scored: these
 * rules keep that to the words that need it.
 */
function engineQuery(
  index: SearchIndex,
  terms: readonly string[],
  combineWith: "AND" | "OR",
  completed: Set<string>,
): Query {
  return {
    combineWith,
    queries: terms.map((term, position) => {
      const prefix = position === terms.length - 1 && term.length >= PREFIX_LETTERS;
      const longer = prefix ? completions(index, term) : [];
      const fuzzy = term.length >= FUZZY_LETTERS && longer.length === 0 && !holds(index, term) ? 0.2 : false;
      if (longer.length === 0) return { queries: [term], fuzzy };
      for (const word of longer) completed.add(word);
      // As minisearch weighs a prefix match (its own prefix search expands to every word).
      const weighed = longer.map((word) => {
        const weight = (PREFIX_WEIGHT * word.length) / (word.length + 0.3 * (word.length - term.length));
        return { queries: [word], boostTerm: () => weight };
      });
      return { combineWith: "OR", queries: [term, ...weighed] };
    }),
  };
}

/** The engine's term map: not part of its public interface, but stable since minisearch 3. */
const termMap = (index: SearchIndex) => (index.engine as unknown as { _index: TermMap })._index;

/** Whether the index holds `term` as a word. */
const holds = (index: SearchIndex, term: string) => termMap(index).has(term);

/** The {@link PREFIX_WORDS} shortest words of the index that start with `prefix` (not itself). */
function completions(index: SearchIndex, prefix: string): string[] {
  const words: string[] = [];
  for (const word of termMap(index).atPrefix(prefix).keys()) if (word !== prefix) words.push(word);
  return words.length <= PREFIX_WORDS
    ? words
    : words.sort((a, b) => a.length - b.length || (a < b ? -1 : 1)).slice(0, PREFIX_WORDS);
}

interface TermMap {
  has(term: string): boolean;
  atPrefix(prefix: string): { keys(): Iterable<string> };
}

/**
 * A page version's sections. Versions are immutable and shared by revisions: each is split once
 * and kept under `sections:<versionId>`, whatever the revisions and indexes that use it.
 */
export function sectionsOf(world: World, version: PageVersionRecord): readonly Section[] {
  const key = `sections:${version.id}`;
  let list = world.cache.get(key) as Section[] | undefined;
  if (!list) {
    list = pageSections(version.title, version.markdown);
    world.cache.set(key, list, estimateSectionBytes(list));
  }
  return list;
}

/** A fresh index of a revision's pages. */
export function buildSearchIndex(world: World, content: FullContent): SearchIndex {
  const index: SearchIndex = {
    at: content.record,
    engine: new MiniSearch<SectionDocument>({
      fields: ["title", "pageTitle", "body"],
      storeFields: [],
      processTerm,
    }),
    pages: new Map(),
    documents: new Map(),
    nextId: 0,
    characters: 0,
    remembered: new Map(),
  };
  const added: SectionDocument[] = [];
  for (const version of content.pages.values()) added.push(...pageDocuments(world, index, version));
  index.engine.addAll(added);
  return index;
}

/**
 * Moves `index` to the revision `to`, given what differs between the revision it indexes and `to`.
 * Synchronous, so that no query sees it half moved.
 */
export function applyDiff(world: World, index: SearchIndex, diff: ContentDiff, to: RevisionRecord): void {
  for (const [page, { after }] of diff.pages) {
    const indexed = index.pages.get(page);
    if (indexed) {
      const sections = sectionsOf(world, indexed.version);
      indexed.documents.forEach((id, section) => {
        const { title, body } = sections[section]!;
        index.engine.remove({ id, title, pageTitle: indexed.version.title, body });
        index.documents.delete(id);
        index.characters -= title.length + indexed.version.title.length + body.length;
      });
      index.pages.delete(page);
    }
    if (after) index.engine.addAll(pageDocuments(world, index, after));
  }
  index.at = to;
  index.remembered.clear();
}

/** Records a page version's documents in `index` and returns them, for the engine to add. */
function pageDocuments(world: World, index: SearchIndex, version: PageVersionRecord): SectionDocument[] {
  if (version.noIndex) return [];
  const documents = sectionsOf(world, version).map((section, position) => {
    const id = index.nextId++;
    index.documents.set(id, { page: version.page, section: position });
    index.characters += section.title.length + version.title.length + section.body.length;
    return { id, title: section.title, pageTitle: version.title, body: section.body };
  });
  index.pages.set(version.page, { version, documents: documents.map(({ id }) => id) });
  return documents;
}

/**
 * About how many bytes of memory an index holds, for the cache's budget: measured on 10,000 pages
 * of about 4 KB of markdown (bench/search.ts: 248 MB of heap for 42.6 million characters in 50,000
 * sections), minisearch's posting maps take about 6 bytes per character indexed. The section
 * texts are not counted: they are kept, and counted, under `sections:<versionId>`.
 */
export function estimateBytes(index: SearchIndex): number {
  return (
    BYTES_PER_CHARACTER * index.characters +
    BYTES_PER_TERM * index.engine.termCount +
    BYTES_PER_DOCUMENT * index.documents.size
  );
}

const BYTES_PER_CHARACTER = 6;
const BYTES_PER_TERM = 100;
const BYTES_PER_DOCUMENT = 100;

/** About how many bytes a page's sections hold (strings count two bytes a character at most). */
export function estimateSectionBytes(sections: readonly Section[]): number {
  return sections.reduce(
    (sum, { anchor, title, body }) => sum + 64 + 2 * ((anchor?.length ?? 0) + title.length + body.length),
    32,
  );
}

/** The query's words, without common words unless nothing else is left. */
export function queryTerms(query: string): string[] {
  const tokenize = MiniSearch.getDefault("tokenize") as (text: string) => string[];
  const terms = tokenize(query)
    .map(processTerm)
    .filter((term) => term.length > 0);
  const meaningful = terms.filter((term) => !STOP_WORDS.has(term));
  return meaningful.length > 0 ? meaningful : terms;
}

/** Pages matching a query, best first (ties by page id). Treat as read-only: they are remembered. */
export function searchPages(index: SearchIndex, query: string): PageHit[] {
  const known = index.remembered.get(query);
  if (known) return known;
  const pages = findPages(index, query);
  if (index.remembered.size >= REMEMBERED_QUERIES)
    index.remembered.delete(index.remembered.keys().next().value!);
  index.remembered.set(query, pages);
  return pages;
}

function findPages(index: SearchIndex, query: string): PageHits[] {
  const terms = queryTerms(query);
  if (terms.length === 0) return [];
  const completed = new Set<string>();
  let results = index.engine.search(engineQuery(index, terms, "AND", completed), SEARCH_OPTIONS);
  if (results.length === 0 && terms.length > 1) {
    completed.clear();
    results = index.engine.search(engineQuery(index, terms, "OR", completed), SEARCH_OPTIONS);
  }
  // A page's sections are listed for the few pages shown only (see PageHits), not for every page.
  const byPage = new Map<string, PageHits>();
  for (const result of results) {
    const { page, section } = index.documents.get(result.id as number)!;
    const score = completed.size === 0 ? result.score : rescore(result, terms, completed);
    const hits = byPage.get(page);
    if (!hits) byPage.set(page, new PageHits(page, score, [{ section, score, result }]));
    else {
      hits.found.push({ section, score, result });
      hits.score = Math.max(hits.score, score);
    }
  }
  return [...byPage.values()].sort(
    (a, b) => b.score - a.score || (a.page < b.page ? -1 : a.page > b.page ? 1 : 0),
  );
}

/**
 * A result's score as minisearch's own prefix search gives it. minisearch multiplies a result's
 * score by the number of query words it matched; the longer words the last word was expanded to
 * are queried as words of their own (see engineQuery), so they count as one word, the last.
 */
function rescore(result: SearchResult, words: readonly string[], completed: ReadonlySet<string>): number {
  const matched = result.queryTerms;
  const asWords = matched.filter((term) => words.includes(term)).length;
  const viaLonger = !matched.includes(words.at(-1)!) && matched.some((term) => completed.has(term));
  return (result.score / matched.length) * (asWords + (viaLonger ? 1 : 0));
}

/** A page's hit, whose sections are listed when first asked for. */
class PageHits implements PageHit {
  #sections?: readonly SectionHit[];

  constructor(
    readonly page: string,
    /** Its best section's. */
    public score: number,
    readonly found: { readonly section: number; readonly score: number; readonly result: SearchResult }[],
  ) {}

  get sections(): readonly SectionHit[] {
    return (this.#sections ??= this.listSections());
  }

  private listSections(): readonly SectionHit[] {
    const sorted = this.found
      .map(({ section, score, result }) => ({
        section,
        score,
        terms: result.terms,
        own: matchesOwnText(result),
      }))
      .sort((a, b) => b.score - a.score || a.section - b.section);
    const best = sorted[0]!;
    // A section found only through its page's title is not itself a match: the page is.
    const own = sorted.filter((hit) => hit.own);
    return (own.length > 0 ? own : [{ ...best, section: 0 }]).map(({ section, score, terms }) => ({
      section,
      score,
      terms,
    }));
  }
}

function matchesOwnText(result: SearchResult): boolean {
  return Object.values(result.match).some((fields) => fields.includes("title") || fields.includes("body"));
}

/** An excerpt of a section's text around the first matched word, at most about 240 characters. */
export function excerpt(body: string, terms: readonly string[], size = 240): string {
  if (body.length <= size) return body;
  const folded = body.toLowerCase();
  const at = Math.min(...terms.map((term) => folded.indexOf(term)).filter((index) => index >= 0), Infinity);
  let start = at === Infinity ? 0 : Math.max(0, at - Math.floor(size / 3));
  if (start > 0) start = body.indexOf(" ", start) + 1 || start;
  let end = Math.min(body.length, start + size);
  if (end < body.length) end = body.lastIndexOf(" ", end) > start ? body.lastIndexOf(" ", end) : end;
  return `${start > 0 ? "…" : ""}${body.slice(start, end).trim()}${end < body.length ? "…" : ""}`;
}
