import { jsonBytes } from "../shared/cache.js";
import MiniSearch, { type SearchOptions, type SearchResult } from "minisearch";
import type { FullContent } from "../content/revisions.js";
import type { PageVersionRecord } from "../content/tables.js";
import { pageTree } from "../content/tree.js";
import type { World } from "../shared/world.js";
import { pageSections, type Section } from "./sections.js";

/**
 * The full-text index of a revision: one document per page section (see sections.ts), with the
 * section title, the page title and the section text as fields. A revision never changes, so the
 * index is built once per revision and kept in `world.cache` under `search:<revisionId>`.
 *
 * Pages marked `noIndex` ("not indexable in the search and ask features") are left out; hidden
 * pages are searched, as any reader of the space can read them.
 *
 * Ranking (minisearch's BM25): a section title weighs 3, the page title 1.5, the text 1, so a page
 * whose title matches ranks above a page that only mentions the words. Every word of the query must
 * match (a prefix of a word, or with one typo in five letters); when no section has them all, any
 * word may match. Common English words are ignored unless the query has nothing else.
 */

interface SectionDocument {
  readonly id: number;
  readonly page: string;
  readonly section: number;
  readonly title: string;
  readonly pageTitle: string;
  readonly body: string;
}

export interface SearchIndex {
  readonly engine: MiniSearch<SectionDocument>;
  readonly documents: readonly SectionDocument[];
  /** Sections by page id. */
  readonly sections: ReadonlyMap<string, readonly Section[]>;
}

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
  prefix: (term) => term.length >= 2,
  fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
};

/** An estimate of an index's memory: a few times the text it indexes. */
function indexBytes(content: FullContent): number {
  let bytes = 4096;
  for (const version of content.pages.values())
    bytes += (version.markdown.length + version.title.length) * 6 + 512;
  return bytes;
}

export const searchIndexCacheKey = (revisionId: string) => `search:${revisionId}`;

export function searchIndex(world: World, content: FullContent): SearchIndex {
  const key = searchIndexCacheKey(content.record.id);
  const cached = world.cache.get(key) as SearchIndex | undefined;
  if (cached) return cached;
  const index = buildSearchIndex(content, (version) => {
    // Versions are immutable and shared by revisions: parse each once, not once per revision.
    const sectionsKey = `sections:${version.id}`;
    let list = world.cache.get(sectionsKey) as Section[] | undefined;
    if (!list) {
      list = pageSections(version.title, version.markdown);
      world.cache.set(sectionsKey, list, jsonBytes(list));
    }
    return list;
  });
  world.cache.set(key, index, indexBytes(content));
  return index;
}

function buildSearchIndex(
  content: FullContent,
  sectionsOf: (version: PageVersionRecord) => Section[],
): SearchIndex {
  const documents: SectionDocument[] = [];
  const sections = new Map<string, Section[]>();
  for (const node of pageTree(content).ordered) {
    const { version } = node;
    if (version.noIndex) continue;
    const pageSectionList = sectionsOf(version);
    sections.set(version.page, pageSectionList);
    pageSectionList.forEach((section, index) => {
      documents.push({
        id: documents.length,
        page: version.page,
        section: index,
        title: section.title,
        pageTitle: version.title,
        body: section.body,
      });
    });
  }
  const engine = new MiniSearch<SectionDocument>({
    fields: ["title", "pageTitle", "body"],
    storeFields: [],
    processTerm,
  });
  engine.addAll(documents);
  return { engine, documents, sections };
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

/** Pages matching a query, best first (ties by page id). */
export function searchPages(index: SearchIndex, query: string): PageHit[] {
  const terms = queryTerms(query);
  if (terms.length === 0) return [];
  const text = terms.join(" ");
  let results = index.engine.search(text, { ...SEARCH_OPTIONS, combineWith: "AND" });
  if (results.length === 0 && terms.length > 1) {
    results = index.engine.search(text, { ...SEARCH_OPTIONS, combineWith: "OR" });
  }
  const byPage = new Map<string, (SectionHit & { own: boolean })[]>();
  for (const result of results) {
    const document = index.documents[result.id as number]!;
    const hits = byPage.get(document.page) ?? [];
    // A section found only through its page's title is not itself a match: the page is.
    hits.push({
      section: document.section,
      score: result.score,
      terms: result.terms,
      own: matchesOwnText(result),
    });
    byPage.set(document.page, hits);
  }
  const pages: PageHit[] = [];
  for (const [page, hits] of byPage) {
    const sorted = hits.sort((a, b) => b.score - a.score || a.section - b.section);
    const best = sorted[0]!;
    const own = sorted.filter((hit) => hit.own);
    pages.push({
      page,
      score: best.score,
      sections: (own.length > 0 ? own : [{ ...best, section: 0 }]).map(
        ({ section, score, terms: matched }) => ({
          section,
          score,
          terms: matched,
        }),
      ),
    });
  }
  return pages.sort((a, b) => b.score - a.score || (a.page < b.page ? -1 : a.page > b.page ? 1 : 0));
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
