import type { FullContent } from "../content-tree/revisions.js";
import type { RevisionRecord } from "../content-tree/tables.js";
import type { PageVersionRecord } from "../content-tree/tables.js";
import type { World } from "../shared/world.js";
import type { ContentDiff } from "../content-tree/revisions.js";
import { FIELDS, Postings, processTerm, tokenize, type Match, type Term } from "./postings.js";
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
 * the index a fresh build of that revision would give (live-index.ts keeps one per space): the
 * same words, statistics and postings, whatever numbers the documents got.
 *
 * Pages marked `noIndex` ("not indexable in the search and ask features") are left out; hidden
 * pages are searched, as any reader of the space can read them.
 *
 * Ranking (BM25, as minisearch computed it, see postings.ts): a section title weighs 3, the page
 * title 1.5, the text 1, so a page whose title matches ranks above a page that only mentions the
 * words. Every word of the query must match; when no section has them all, any word may match.
 * Common English words are ignored unless the query has nothing else. The last word may be the
 * start of a longer word, and a word no page holds may match with a typo: see {@link queryGroups}.
 *
 * A query finds its best pages in postings.ts (typed arrays, scratch space kept with the postings:
 * nothing allocated per document; documents scored by blocks in order of an upper bound of their
 * scores, until no block left can reach the best pages asked for), and orders those pages by a
 * native sort of their scores, ties by page id (slots kept in page-id order): its
 * {@link Ranking}, two typed arrays of the best pages and the number of pages matched. Each page's sections, with their matched
 * words, are listed for the pages shown only ({@link pageHit}), by scoring that page's documents
 * again, while the index is as ranked. A query thus keeps no object per page or section matched
 * (a common word matches 10,000 pages of 50,000 sections): that garbage, kept by the memo of
 * rankings, was most of a first ask's cost (docs/performance.md).
 */

interface IndexedPage {
  /** The version indexed: removal needs the very text that was added. */
  readonly version: PageVersionRecord;
  /** Its number in {@link SearchIndex.pageIds}. */
  readonly slot: number;
  /** Document numbers, by section index. */
  documents: number[];
}

export interface SearchIndex {
  /** The revision indexed; {@link applyDiff} moves it. */
  at: RevisionRecord;
  /** Words, postings and scoring (see postings.ts). */
  readonly postings: Postings;
  /** Indexed pages by page id. */
  readonly pages: Map<string, IndexedPage>;
  /** Page ids by slot (pages get small numbers, reused, to group hits by page in arrays). */
  readonly pageIds: (string | undefined)[];
  readonly freeSlots: number[];
  /** Page slots in order of page id (ties of score are broken by id), made again when pages come or go. */
  ranked?: Int32Array;
  /** Each page slot's place in {@link ranked}, made with it. */
  places?: Int32Array;
  /** Page slot and section index of each document number. */
  documentSlot: Int32Array;
  documentSection: Int32Array;
  /** Characters of text indexed (titles and bodies), for figures of bytes per character. */
  characters: number;
  /** Changes with every move ({@link applyDiff}): a {@link Ranking} holds for one generation. */
  generation: number;
  /**
   * Rankings of the latest queries at the revision indexed, oldest first (at most
   * {@link REMEMBERED_QUERIES}); emptied when the index moves.
   */
  readonly remembered: Map<string, Ranking>;
}

/** Queries whose results an index remembers. */
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

/** Letters a query's last word needs to match as a prefix of longer words. */
const PREFIX_LETTERS = 3;
/** Longer words a prefix matches, at most: the shortest ones, which weigh the most. */
const PREFIX_WORDS = 50;
/** Letters a word needs to match with a typo (one typo in words of fewer than ten letters). */
const FUZZY_LETTERS = 5;
/** The weight of a prefix match with no letter added (minisearch's; it falls as letters are added). */
const PREFIX_WEIGHT = 0.375;
/** The weight of a match with a typo with no letter changed (minisearch's; it falls with each typo). */
const FUZZY_WEIGHT = 0.45;

/**
 * The words of the index each word of a query matches (a group per word, see postings.ts): the
 * word itself; for the last word, being typed, also at most {@link PREFIX_WORDS} longer words (the
 * shortest), weighed as minisearch weighs prefix matches; for a word the index does not hold (as
 * a whole word or, for the last, as a prefix), the words one typo away (two from eight letters),
 * weighed as minisearch weighs them. A common word expanded by prefix and typo matches most
 * sections of a large space: these rules keep that to the words that need it.
 *
 * Each match counts as a query word for the score's multiplier (minisearch multiplies a score by
 * the number of query words matched): the word itself and its typos as that word, a longer word
 * as itself when it is also a word of the query; a document matched only through longer words of
 * the last word counts that word once (see postings.ts).
 */
function queryGroups(index: SearchIndex, terms: readonly string[], ids: Map<string, number>): Match[][] {
  const dictionary = index.postings.terms;
  return terms.map((term, position) => {
    const id = ids.get(term)!;
    const group: Match[] = [];
    const exact = dictionary.get(term);
    if (exact) group.push({ word: term, term: exact, weight: 1, counts: id, longer: false });
    const prefix = position === terms.length - 1 && term.length >= PREFIX_LETTERS;
    const longer = prefix ? completions(index, term) : [];
    for (const word of longer) {
      const weight = (PREFIX_WEIGHT * word.length) / (word.length + 0.3 * (word.length - term.length));
      group.push({ word, term: dictionary.get(word)!, weight, counts: ids.get(word) ?? -1, longer: true });
    }
    if (term.length >= FUZZY_LETTERS && longer.length === 0 && !exact) {
      const distance = Math.min(6, Math.round(term.length * 0.2));
      for (const [word, [found, typos]] of dictionary.fuzzyGet(term, distance)) {
        if (typos === 0) continue;
        const weight = (FUZZY_WEIGHT * word.length) / (word.length + typos);
        group.push({ word, term: found, weight, counts: id, longer: false });
      }
    }
    return group;
  });
}

/**
 * The {@link PREFIX_WORDS} shortest words of the index that start with `prefix` (not itself), by
 * length then alphabet. The radix tree's own iteration builds every word under the prefix (over
 * 900 for a common syllable of 3 letters); this walks its nodes (a map of edge labels to nodes,
 * the empty label for a word's end: minisearch's SearchableMap since version 3) twice, first
 * counting words by length, then building only words up to the length that makes
 * {@link PREFIX_WORDS}.
 */
function completions(index: SearchIndex, prefix: string): string[] {
  const root = (index.postings.terms.atPrefix(prefix) as unknown as { _tree: RadixNode })._tree;
  const counts: number[] = [];
  const count = (node: RadixNode, length: number) => {
    for (const [label, child] of node) {
      if (label === "") counts[length] = (counts[length] ?? 0) + 1;
      else count(child as RadixNode, length + label.length);
    }
  };
  count(root, 0);
  let longest = 0;
  for (let length = 1, total = 0; length < counts.length && total < PREFIX_WORDS; length++) {
    total += counts[length] ?? 0;
    longest = length;
  }
  const words: string[] = [];
  const collect = (node: RadixNode, path: string) => {
    for (const [label, child] of node) {
      if (label === "") {
        if (path.length > 0) words.push(prefix + path);
      } else if (path.length + label.length <= longest) collect(child as RadixNode, path + label);
    }
  };
  collect(root, "");
  // Of the longest kept, often hundreds, the first alphabetically (a native sort of strings).
  const shorter = words.filter((word) => word.length < prefix.length + longest);
  const last = words.filter((word) => word.length === prefix.length + longest).sort();
  shorter.sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  return shorter.concat(last.slice(0, PREFIX_WORDS - shorter.length));
}

type RadixNode = Map<string, RadixNode | unknown>;

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
    postings: new Postings(),
    pages: new Map(),
    pageIds: [],
    freeSlots: [],
    documentSlot: new Int32Array(0),
    documentSection: new Int32Array(0),
    characters: 0,
    generation: 0,
    remembered: new Map(),
  };
  const batch = new Map<string, Term | null>();
  for (const version of content.pages.values()) addPage(world, index, version, batch);
  index.postings.trim();
  return index;
}

/**
 * Moves `index` to the revision `to`, given what differs between the revision it indexes and `to`.
 * Synchronous, so that no query sees it half moved.
 */
export function applyDiff(world: World, index: SearchIndex, diff: ContentDiff, to: RevisionRecord): void {
  const removed: number[] = [];
  const words: string[] = [];
  // A page indexed again keeps its slot, so that the order of pages by id stands.
  const kept = new Map<string, number>();
  for (const [page, { after }] of diff.pages) {
    const indexed = index.pages.get(page);
    if (!indexed) continue;
    const sections = sectionsOf(world, indexed.version);
    const pageTitle = tokenize(indexed.version.title);
    indexed.documents.forEach((doc, section) => {
      const { title, body } = sections[section]!;
      removed.push(doc);
      for (const tokens of [tokenize(title), pageTitle, tokenize(body)])
        for (const token of tokens) words.push(processTerm(token));
      index.characters -= title.length + indexed.version.title.length + body.length;
    });
    index.pages.delete(page);
    if (after && !after.noIndex) kept.set(page, indexed.slot);
    else {
      index.pageIds[indexed.slot] = undefined;
      index.freeSlots.push(indexed.slot);
      index.ranked = undefined;
    }
  }
  const renumbered = index.postings.remove(removed, words);
  if (renumbered) renumber(index, renumbered);
  for (const { after } of diff.pages.values())
    if (after) addPage(world, index, after, undefined, kept.get(after.page));
  index.at = to;
  index.generation++;
  index.remembered.clear();
}

/** Follows the postings' renumbering of documents (see postings.ts). */
function renumber(index: SearchIndex, renumbered: Int32Array) {
  const slots = new Int32Array(index.postings.capacity);
  const sections = new Int32Array(index.postings.capacity);
  for (const indexed of index.pages.values()) {
    indexed.documents = indexed.documents.map((doc) => renumbered[doc]!);
    indexed.documents.forEach((doc, section) => {
      slots[doc] = indexed.slot;
      sections[doc] = section;
    });
  }
  index.documentSlot = slots;
  index.documentSection = sections;
}

/** Adds a page version's sections to `index`, one document each. */
function addPage(
  world: World,
  index: SearchIndex,
  version: PageVersionRecord,
  batch: Map<string, Term | null> | undefined,
  kept?: number,
) {
  if (version.noIndex) return;
  let slot = kept;
  if (slot === undefined) {
    slot = index.freeSlots.pop() ?? index.pageIds.length;
    index.ranked = undefined;
  }
  index.pageIds[slot] = version.page;
  const pageTitle = tokenize(version.title);
  const documents = sectionsOf(world, version).map((section, position) => {
    const doc = index.postings.add([tokenize(section.title), pageTitle, tokenize(section.body)], batch);
    if (doc >= index.documentSlot.length) {
      const slots = new Int32Array(index.postings.capacity);
      slots.set(index.documentSlot);
      index.documentSlot = slots;
      const sections = new Int32Array(index.postings.capacity);
      sections.set(index.documentSection);
      index.documentSection = sections;
    }
    index.documentSlot[doc] = slot;
    index.documentSection[doc] = position;
    index.characters += section.title.length + version.title.length + section.body.length;
    return doc;
  });
  index.pages.set(version.page, { version, slot, documents });
}

/**
 * About how many bytes of memory an index holds, for the cache's budget: the postings' typed
 * arrays (4 bytes of document number and 3 × 2 bytes of frequencies per slot), the words (their
 * postings objects and the radix tree's nodes), and arrays by document number. Measured on
 * 10,000 pages of about 4 KB of markdown (bench/search.ts's text: 50,000 sections, 20,000 words,
 * 5.3 million postings): 62 MB of heap and array buffers, estimated 75 MB; on 3,000 pages 33 MB,
 * estimated 32 MB. The section texts are not counted: they are kept, and counted, under
 * `sections:<versionId>`.
 */
export function estimateBytes(index: SearchIndex): number {
  const { postings } = index;
  return (
    BYTES_PER_SLOT * postings.slots +
    BYTES_PER_TERM * postings.termCount +
    BYTES_PER_DOCUMENT * postings.capacity +
    BYTES_PER_PAGE * index.pages.size
  );
}

const BYTES_PER_SLOT = 4 + 2 * FIELDS;
const BYTES_PER_TERM = 700;
const BYTES_PER_DOCUMENT = 100;
const BYTES_PER_PAGE = 150;

/** About how many bytes a page's sections hold (strings count two bytes a character at most). */
export function estimateSectionBytes(sections: readonly Section[]): number {
  return sections.reduce(
    (sum, { anchor, title, body }) => sum + 64 + 2 * ((anchor?.length ?? 0) + title.length + body.length),
    32,
  );
}

/** The query's words, without common words unless nothing else is left. */
export function queryTerms(query: string): string[] {
  const terms = tokenize(query)
    .map(processTerm)
    .filter((term) => term.length > 0);
  const meaningful = terms.filter((term) => !STOP_WORDS.has(term));
  return meaningful.length > 0 ? meaningful : terms;
}

/**
 * The pages a query matched at one state of an index, best first (ties by page id), in typed
 * arrays: what an index remembers of a query. A page's sections are listed from the index by
 * {@link pageHit}, only for the pages shown, and only while the index is in that state (a query
 * reads its window synchronously with its ranking, see live-index.ts).
 */
export interface Ranking {
  /** Pages matched. */
  readonly count: number;
  /**
   * The best of them, by slot ({@link SearchIndex.pageIds}), best first: at least as many as
   * {@link rankPages} was asked for (or all); every page matched when {@link complete}.
   */
  readonly slots: Int32Array;
  /** Their scores: each page's best section's. */
  readonly scores: Float64Array;
  /** Whether {@link slots} holds every page matched. */
  readonly complete: boolean;
  /** {@link SearchIndex.generation} when ranked. */
  readonly generation: number;
  /** The query as scored (see postings.ts), to score a page's sections alike. */
  readonly groups: readonly (readonly Match[])[];
  readonly all: boolean;
  readonly words: number;
  readonly last: number;
  /** The words of the index matched, by position in `groups`, flattened. */
  readonly matched: readonly string[];
}

/**
 * The best `depth` pages matching a query (all by default), ranked, and the number of pages it
 * matches (see {@link Ranking}); remembered for the latest {@link REMEMBERED_QUERIES} queries until
 * the index moves, and ranked again deeper when a deeper window asks. Only as many documents are
 * scored as finding those pages needs (see {@link Postings.top}); the pages, their order and
 * scores are those of a ranking of every page matched.
 *
 * @example
 * ```ts
 * const ranking = rankPages(index, "deploy prev", 20);
 * const best = ranking.count > 0 ? pageHit(index, ranking, 0) : undefined; // { page, score, sections }
 * ```
 */
export function rankPages(index: SearchIndex, query: string, depth = Infinity): Ranking {
  const known = index.remembered.get(query);
  if (known && (known.complete || known.slots.length >= depth)) return known;
  index.remembered.delete(query);
  const ranking = rank(index, query, depth);
  if (index.remembered.size >= REMEMBERED_QUERIES)
    index.remembered.delete(index.remembered.keys().next().value!);
  index.remembered.set(query, ranking);
  return ranking;
}

/** The id of the page ranked `rank` (0 for the best), while the index is as ranked. */
export function pageAt(index: SearchIndex, ranking: Ranking, rank: number): string {
  current(index, ranking);
  return index.pageIds[ranking.slots[rank]!]!;
}

/**
 * The page ranked `rank` with its matching sections, best first: its documents scored again as
 * the query scored them (see {@link Postings.scoreDocument}), a few binary searches each. Throws
 * when the index moved since the ranking.
 */
export function pageHit(index: SearchIndex, ranking: Ranking, rank: number): PageHit {
  const page = pageAt(index, ranking, rank);
  const { documents } = index.pages.get(page)!;
  const found: { section: number; score: number; terms: string[]; own: boolean }[] = [];
  documents.forEach((doc, section) => {
    const match = index.postings.scoreDocument(ranking.groups, ranking.all, ranking.words, ranking.last, doc);
    if (!match) return;
    const terms: string[] = [];
    for (const position of match.held) {
      const word = ranking.matched[position]!;
      if (!terms.includes(word)) terms.push(word);
    }
    found.push({ section, score: match.score, terms, own: match.own });
  });
  const sorted = found.sort((a, b) => b.score - a.score || a.section - b.section);
  const best = sorted[0]!;
  // A section found only through its page's title is not itself a match: the page is.
  const own = sorted.filter((hit) => hit.own);
  const sections = (own.length > 0 ? own : [{ ...best, section: 0 }]).map(({ section, score, terms }) => ({
    section,
    score,
    terms,
  }));
  return { page, score: ranking.scores[rank]!, sections };
}

/**
 * Pages matching a query, best first (ties by page id), each with its sections: every page
 * matched, for tests and small spaces; a query shows a window of them ({@link rankPages},
 * {@link pageHit}).
 *
 * @example
 * ```ts
 * const [best] = searchPages(index, "deploy prev"); // { page, score, sections: [{ section, score, terms }] }
 * ```
 */
export function searchPages(index: SearchIndex, query: string): PageHit[] {
  const ranking = rankPages(index, query);
  return Array.from({ length: ranking.count }, (_, rank) => pageHit(index, ranking, rank));
}

function current(index: SearchIndex, ranking: Ranking) {
  if (ranking.generation !== index.generation) throw new Error("The search index moved since this ranking");
}

function rank(index: SearchIndex, query: string, depth: number): Ranking {
  const terms = queryTerms(query);
  const ids = new Map<string, number>();
  for (const term of terms) if (!ids.has(term)) ids.set(term, ids.size);
  const groups = terms.length > 0 ? queryGroups(index, terms, ids) : [];
  const last = terms.length > 0 ? ids.get(terms.at(-1)!)! : -1;
  const { postings, documentSlot, pageIds } = index;
  let all = true;
  let top = postings.top(groups, true, ids.size, last, documentSlot, pageIds.length, depth);
  if (top.count === 0 && terms.length > 1) {
    all = false;
    top = postings.top(groups, false, ids.size, last, documentSlot, pageIds.length, depth);
  }
  // The pages kept, in order of id (a native sort of their places in that order), then by score.
  const scratch = pageScratch(index);
  const { found, keys } = scratch;
  const ranked = rankedSlots(index);
  const place = placeOf(index);
  const places = new Int32Array(top.listed);
  for (let i = 0; i < top.listed; i++) places[i] = place[top.slots[i]!]!;
  places.sort();
  const best = scratch.best;
  for (let i = 0; i < top.listed; i++) best[top.slots[i]!] = top.scores[i]!;
  for (let i = 0; i < top.listed; i++) {
    const slot = ranked[places[i]!]!;
    found[i] = slot;
    keys[i] = -best[slot]!;
  }
  const pages = top.listed;
  const order = byScore(scratch, pages);
  const slots = new Int32Array(pages);
  const ranks = new Float64Array(pages);
  for (let i = 0; i < pages; i++) {
    slots[i] = found[order[i]!]!;
    ranks[i] = -keys[order[i]!]!;
  }
  return {
    count: top.count,
    complete: top.complete,
    slots,
    scores: ranks,
    generation: index.generation,
    groups,
    all,
    words: ids.size,
    last,
    matched: groups.flat().map(({ word }) => word),
  };
}

/** Arrays by page slot for ranking a query's pages, kept with the index. */
interface PageScratch {
  readonly best: Float64Array;
  readonly found: Int32Array;
  readonly keys: Float64Array;
  readonly sorted: Float64Array;
  readonly order: Int32Array;
  readonly placed: Int32Array;
}

function pageScratch(index: SearchIndex): PageScratch {
  const slots = index.pageIds.length;
  let scratch = scratches.get(index);
  if (!scratch || scratch.best.length < slots) {
    const size = slots * 2;
    scratch = {
      best: new Float64Array(size),
      found: new Int32Array(size),
      keys: new Float64Array(size),
      sorted: new Float64Array(size),
      order: new Int32Array(size),
      placed: new Int32Array(size),
    };
    scratches.set(index, scratch);
  }
  return scratch;
}

const scratches = new WeakMap<SearchIndex, PageScratch>();

/** Page slots in order of page id (made when first needed after pages came or went). */
function rankedSlots(index: SearchIndex): Int32Array {
  if (!index.ranked) {
    const ids = [...index.pages.keys()].sort();
    index.ranked = Int32Array.from(ids, (id) => index.pages.get(id)!.slot);
    index.places = undefined;
  }
  return index.ranked;
}

/** Each page slot's place in {@link rankedSlots}. */
function placeOf(index: SearchIndex): Int32Array {
  const ranked = rankedSlots(index);
  if (!index.places) {
    const places = new Int32Array(index.pageIds.length);
    for (let i = 0; i < ranked.length; i++) places[ranked[i]!] = i;
    index.places = places;
  }
  return index.places;
}

/**
 * Positions 0 to n - 1 of `keys` in order of key, lowest first, equal keys in order of position (a
 * stable sort): the keys sorted natively, then each placed at the first position of its key (a
 * comparison sort of thousands of pages costs several ms). Returns the scratch `order`.
 */
function byScore({ keys, sorted: space, order, placed }: PageScratch, n: number): Int32Array {
  const sorted = space.subarray(0, n);
  sorted.set(keys.subarray(0, n));
  sorted.sort();
  placed.fill(0, 0, n);
  for (let i = 0; i < n; i++) {
    const key = keys[i]!;
    let low = 0;
    let high = n;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (sorted[middle]! < key) low = middle + 1;
      else high = middle;
    }
    order[low + placed[low]!++] = i;
  }
  return order;
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
