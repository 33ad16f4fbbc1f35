import SearchableMap from "minisearch/SearchableMap";

/**
 * The inverted index under search-index.ts: documents of three fields (section title, page title,
 * section text), numbered; for each word, its postings (the documents holding it, in ascending
 * number, with how often each field holds it), kept in typed arrays; BM25 computed over them in
 * loops that allocate nothing per document.
 *
 * Scores are minisearch's (the library this replaced, still the test oracle): BM25+ with k = 1.2,
 * b = 0.7, d = 0.5, per field (its own length normalisation and document frequency), times the
 * field's boost, summed over fields and words, times the number of query words matched. A field's
 * length is, as there, the number of distinct tokens of its text before folding (see
 * {@link fieldLength}).
 *
 * - Postings are sorted by document number: a new document takes a number above all others, and
 *   removal filters documents out of the postings of the words they held (found by tokenizing
 *   their text again), so the postings hold live documents only and the statistics are exact.
 *   When numbers run past twice the live documents, they are renumbered in order (see
 *   {@link Postings.renumber}).
 * - The word dictionary is minisearch's radix tree (SearchableMap): exact, prefix and fuzzy lookup.
 * - A query ({@link Postings.top}) is a list of groups, one per query word, each a list of words
 *   of the index it matches with their weights. With `all`, a document must match every group: the
 *   groups with the fewest postings are intersected first, by marks, and only documents left at
 *   the end are scored; and only as many of them, by blocks of document numbers in order of an
 *   upper bound of their scores, as finding the best pages asked for needs.
 */

export const FIELDS = 3;
/** Section title, page title, section text. */
const BOOSTS = [3, 1.5, 1] as const;
const K = 1.2;
const B = 0.7;
const D = 0.5;
const K1 = K + 1;
/** Term frequencies are kept in 16 bits; a word repeated more in one field counts this often. */
const MAX_FREQUENCY = 0xffff;
/** Flag of a document in a query: a match by a longer word. */
const LONGER = 1;

const SPACE_OR_PUNCTUATION = /[\n\r\p{Z}\p{P}]+/u;

/** minisearch's default tokenizer: the text split at spaces and punctuation. */
export const tokenize = (text: string): string[] => text.split(SPACE_OR_PUNCTUATION);

/** A token folded to the word indexed: accents removed, lower case. */
export const processTerm = (term: string): string =>
  term
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();

/** A word's postings: documents in ascending number, and each field's frequency in each. */
export class Term {
  /** Postings held. */
  n = 0;
  docs: Int32Array;
  /** {@link FIELDS} frequencies per posting. */
  freqs: Uint16Array;
  /** Documents whose field holds the word, by field. */
  readonly df = [0, 0, 0];
  /** The document being added (for counting its tokens), else -1. */
  adding = -1;
  /** Its postings' bounds by block of document numbers (see {@link Blocks}); dropped by any change. */
  blocks: Blocks | undefined;

  constructor(capacity = 2) {
    this.docs = new Int32Array(capacity);
    this.freqs = new Uint16Array(capacity * FIELDS);
  }

  /** The posting of `doc` at `from` or after, or -1 (binary search). */
  find(doc: number, from = 0): number {
    let low = from;
    let high = this.n - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const at = this.docs[middle]!;
      if (at === doc) return middle;
      if (at < doc) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }
}

/** Document numbers per block: 64 numbers, 2^6. */
const BLOCK_SHIFT = 6;

/**
 * A word's postings by block of document numbers (numbers `b × 64` to `b × 64 + 63`): for each
 * block holding any, its number, where its postings start, and per field the highest frequency and
 * the shortest length among its documents whose field holds the word. From them, a query bounds
 * the BM25 score of every document of a block without reading its postings (the frequency is
 * highest and the length normalisation lowest at once); they are raw counts, so they stay true
 * whatever the averages and document frequencies become, and are made again only when the word's
 * postings change, for the first query of it after that.
 */
interface Blocks {
  readonly ids: Int32Array;
  /** Postings of block `ids[j]` are `starts[j]` to `starts[j + 1]` - 1. */
  readonly starts: Int32Array;
  readonly maxFrequency: Uint16Array;
  readonly minLength: Int32Array;
}

/** One word of the index a query word matches, and its weight (see search-index.ts). */
export interface Match {
  /** The word matched, as found in the index. */
  readonly word: string;
  readonly term: Term;
  /** minisearch's term weight times term boost (1 for the word itself). */
  readonly weight: number;
  /** The query word this counts as (an index into the query's distinct words), or -1. */
  readonly counts: number;
  /** Whether it is a longer word of the query's last word (see search-index.ts, rescoring). */
  readonly longer: boolean;
}

/**
 * The best pages of a query ({@link Postings.top}): `listed` pages (their slots and scores, in no
 * particular order, in scratch arrays valid until the next query) whose scores are exact, and
 * which include the query's best `depth` pages; every page matched when `complete`. `count` is the
 * number of pages matched, counted from the postings' document numbers without scoring.
 */
export interface TopPages {
  readonly count: number;
  readonly listed: number;
  readonly slots: Int32Array;
  readonly scores: Float64Array;
  readonly complete: boolean;
}

/** One document scored for a query on its own (see {@link Postings.scoreDocument}). */
export interface DocumentMatch {
  /** As {@link Postings.top} scores it. */
  readonly score: number;
  /** Positions of the matches it holds, in the query's groups flattened, ascending. */
  readonly held: readonly number[];
  /** Whether it holds a match in its own title or text (not only in its page's title). */
  readonly own: boolean;
}

/** Number of bits set in a 32-bit word. */
function bits(word: number): number {
  word -= (word >>> 1) & 0x55555555;
  word = (word & 0x33333333) + ((word >>> 2) & 0x33333333);
  return (((word + (word >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** The length minisearch gives a field: its distinct tokens (case-sensitive, the empty one too). */
export function fieldLength(tokens: readonly string[]): number {
  if (tokens.length < 2) return tokens.length;
  return new Set(tokens).size;
}

export class Postings {
  readonly terms = new SearchableMap<Term>();
  /** Live documents. */
  documentCount = 0;
  /** Next document number: above every number in use. */
  private nextDoc = 0;
  /** Field lengths, {@link FIELDS} per document number. */
  private lengths = new Int32Array(0);
  /** Sum of each field's lengths over live documents (for the average). */
  private readonly totalLength = [0, 0, 0];
  /** Postings slots allocated over all words, for {@link estimateBytes}. */
  slots = 0;

  // Scratch space of queries, by document number; a stamp tells this query's entries from older.
  private stamp = 0;
  private marks = new Int32Array(0);
  private seen = new Int32Array(0);
  private groupSeen = new Int32Array(0);
  private total = new Float64Array(0);
  private groupSum = new Float64Array(0);
  private flags = new Uint8Array(0);
  private counted = new Uint32Array(0);
  private touched = new Int32Array(0);
  private listed = new Int32Array(0);
  private norms = new Float64Array(0);
  /** Changes with every addition and removal; {@link norms} are for this one. */
  private version = 0;
  private normsFor = -1;
  /** Whether a document number is in use. */
  private alive = new Uint8Array(0);
  // Scratch space of {@link top}: by page slot (a stamp per use), and by block of document numbers.
  private pageStamp = new Int32Array(0);
  private pageStampNext = 0;
  private pageBest = new Float64Array(0);
  private pageList = new Int32Array(0);
  private pageScores = new Float64Array(0);
  private pageSorted = new Float64Array(0);
  private blockBound = new Float64Array(0);
  private blockGroup = new Int32Array(0);
  private blockGroups = new Int32Array(0);
  private readonly blockDocs = new Int32Array(1 << BLOCK_SHIFT);
  /** Documents scored by queries so far: what {@link top} skips shows here (for tests and benches). */
  readonly work = { scored: 0 };

  get capacity(): number {
    return this.marks.length;
  }

  get termCount(): number {
    return this.terms.size;
  }

  /** Document numbers in use are below this. */
  get limit(): number {
    return this.nextDoc;
  }

  /**
   * Adds a document of three fields' tokens (see {@link tokenize}) and returns its number. A
   * batch of additions with no removal between them may share `batch`, each token's word (most
   * tokens of a space repeat: each is folded and looked up once).
   */
  add(fields: readonly (readonly string[])[], batch?: Map<string, Term | null>): number {
    const doc = this.nextDoc++;
    if (doc >= this.capacity) this.grow(Math.max(64, Math.ceil(this.capacity * 1.5)));
    for (let field = 0; field < FIELDS; field++) {
      const tokens = fields[field]!;
      const length = fieldLength(tokens);
      this.lengths[doc * FIELDS + field] = length;
      this.totalLength[field]! += length;
      for (const token of tokens) {
        let term = batch?.get(token);
        if (term === undefined) {
          const word = processTerm(token);
          term = word ? (this.terms.get(word) ?? this.create(word)) : null;
          batch?.set(token, term);
        }
        if (term) this.count(term, doc, field);
      }
    }
    this.alive[doc] = 1;
    this.documentCount++;
    this.version++;
    return doc;
  }

  private create(word: string): Term {
    const term = new Term();
    this.terms.set(word, term);
    this.slots += term.docs.length;
    return term;
  }

  private count(term: Term, doc: number, field: number) {
    term.blocks = undefined;
    if (term.adding !== doc) {
      if (term.n === term.docs.length) {
        const capacity = Math.max(4, term.n + (term.n >> 1));
        const docs = new Int32Array(capacity);
        docs.set(term.docs);
        const freqs = new Uint16Array(capacity * FIELDS);
        freqs.set(term.freqs);
        this.slots += capacity - term.docs.length;
        term.docs = docs;
        term.freqs = freqs;
      }
      term.docs[term.n] = doc;
      term.n++;
      term.adding = doc;
    }
    const at = (term.n - 1) * FIELDS + field;
    const frequency = term.freqs[at]!;
    if (frequency === 0) term.df[field]!++;
    if (frequency < MAX_FREQUENCY) term.freqs[at] = frequency + 1;
  }

  /** Ends a batch of {@link add}s: postings trimmed to their length. */
  trim(): void {
    for (const term of this.terms.values()) {
      term.adding = -1;
      if (term.docs.length > term.n) {
        this.slots -= term.docs.length - term.n;
        term.docs = term.docs.slice(0, term.n);
        term.freqs = term.freqs.slice(0, term.n * FIELDS);
      }
    }
  }

  /**
   * Removes documents, given the words each held (the folded tokens of its fields, in any order
   * and repeated or not). Returns a renumbering when it renumbered the documents left (see
   * {@link renumber}), else undefined.
   */
  remove(docs: readonly number[], words: Iterable<string>): Int32Array | undefined {
    if (docs.length === 0) return undefined;
    this.renewStamps();
    const stamp = this.nextStamp();
    for (const doc of docs) {
      this.marks[doc] = stamp;
      this.alive[doc] = 0;
      for (let field = 0; field < FIELDS; field++)
        this.totalLength[field]! -= this.lengths[doc * FIELDS + field]!;
      this.documentCount--;
    }
    this.version++;
    const sorted = Int32Array.from(docs).sort();
    const visited = new Set<string>();
    for (const word of words) {
      if (visited.has(word)) continue;
      visited.add(word);
      const term = this.terms.get(word);
      if (!term) continue;
      // A few documents out of many postings (an edit): found by binary search, the rest moved
      // in blocks; else one pass.
      if (sorted.length * 16 < term.n) this.cut(term, sorted);
      else this.filter(term, stamp);
      if (term.n === 0) {
        this.slots -= term.docs.length;
        this.terms.delete(word);
      }
    }
    return this.nextDoc > 2 * this.documentCount + 64 ? this.renumber() : undefined;
  }

  /** Drops the postings of the documents `sorted` (ascending), keeping order. */
  private cut(term: Term, sorted: Int32Array) {
    term.blocks = undefined;
    const { docs, freqs, df } = term;
    let write = -1;
    let from = 0;
    for (const doc of sorted) {
      const at = term.find(doc, from);
      if (at < 0) continue;
      for (let field = 0; field < FIELDS; field++) if (freqs[at * FIELDS + field]! > 0) df[field]!--;
      if (write < 0) write = at;
      else {
        docs.copyWithin(write, from, at);
        freqs.copyWithin(write * FIELDS, from * FIELDS, at * FIELDS);
        write += at - from;
      }
      from = at + 1;
    }
    if (write < 0) return;
    docs.copyWithin(write, from, term.n);
    freqs.copyWithin(write * FIELDS, from * FIELDS, term.n * FIELDS);
    write += term.n - from;
    freqs.fill(0, write * FIELDS, term.n * FIELDS);
    term.n = write;
  }

  /** Drops the postings of documents marked `stamp`, keeping order. */
  private filter(term: Term, stamp: number) {
    term.blocks = undefined;
    const { docs, freqs, df } = term;
    const marks = this.marks;
    let kept = 0;
    for (let i = 0; i < term.n; i++) {
      const doc = docs[i]!;
      if (marks[doc] === stamp) {
        for (let field = 0; field < FIELDS; field++) if (freqs[i * FIELDS + field]! > 0) df[field]!--;
        continue;
      }
      if (kept !== i) {
        docs[kept] = doc;
        for (let field = 0; field < FIELDS; field++)
          freqs[kept * FIELDS + field] = freqs[i * FIELDS + field]!;
      }
      kept++;
    }
    freqs.fill(0, kept * FIELDS, term.n * FIELDS);
    term.n = kept;
  }

  /**
   * Gives the live documents the numbers 0, 1, ... in their order, so that numbers (and the
   * arrays indexed by them) stay within twice the live documents. Returns old number → new
   * number (-1 for a number not in use).
   */
  private renumber(): Int32Array {
    const live = this.alive;
    const renumbered = new Int32Array(this.nextDoc).fill(-1);
    const lengths = new Int32Array(Math.max(64, this.documentCount * 2) * FIELDS);
    let next = 0;
    for (let doc = 0; doc < this.nextDoc; doc++) {
      if (!live[doc]) continue;
      renumbered[doc] = next;
      for (let field = 0; field < FIELDS; field++)
        lengths[next * FIELDS + field] = this.lengths[doc * FIELDS + field]!;
      next++;
    }
    for (const term of this.terms.values()) {
      for (let i = 0; i < term.n; i++) term.docs[i] = renumbered[term.docs[i]!]!;
      term.adding = -1;
      term.blocks = undefined;
    }
    this.nextDoc = next;
    this.lengths = lengths;
    this.allocate(lengths.length / FIELDS);
    this.alive.fill(1, 0, next);
    return renumbered;
  }

  private grow(capacity: number) {
    const lengths = new Int32Array(capacity * FIELDS);
    lengths.set(this.lengths);
    this.lengths = lengths;
    const alive = this.alive;
    this.allocate(capacity);
    this.alive.set(alive);
  }

  /** Fresh scratch arrays for `capacity` document numbers. */
  private allocate(capacity: number) {
    this.stamp = 0;
    this.marks = new Int32Array(capacity);
    this.seen = new Int32Array(capacity);
    this.groupSeen = new Int32Array(capacity);
    this.total = new Float64Array(capacity);
    this.groupSum = new Float64Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.alive = new Uint8Array(capacity);
    this.touched = new Int32Array(capacity);
    this.listed = new Int32Array(capacity);
    this.counted = new Uint32Array(0);
  }

  private nextStamp(): number {
    return ++this.stamp;
  }

  /** Called before a query or removal, which take at most a few thousand stamps. */
  private renewStamps() {
    if (this.stamp < 0x7f000000) return;
    this.stamp = 0;
    this.marks.fill(0);
    this.seen.fill(0);
    this.groupSeen.fill(0);
  }

  /** Scratch space for a query of `stride` words of bits per document. */
  private reserve(stride: number) {
    if (this.counted.length < this.capacity * stride) this.counted = new Uint32Array(this.capacity * stride);
  }

  /**
   * Each field's BM25 length normalisation, k × (1 - b + b × length / average length), by document
   * number: computed once per state of the index (any addition or removal changes the averages).
   */
  private normalisations(): Float64Array {
    if (this.norms.length === this.lengths.length && this.normsFor === this.version) return this.norms;
    const count = this.documentCount;
    const average = this.totalLength.map((sum) => (count > 0 ? sum / count : 0));
    const lengths = this.lengths;
    if (this.norms.length !== lengths.length) this.norms = new Float64Array(lengths.length);
    const norms = this.norms;
    for (let doc = 0; doc < this.nextDoc; doc++) {
      for (let field = 0; field < FIELDS; field++) {
        const at = doc * FIELDS + field;
        norms[at] = K * (1 - B + (B * lengths[at]!) / average[field]!);
      }
    }
    this.normsFor = this.version;
    return norms;
  }

  /**
   * The best pages of the query `groups` (every group with `all`, else any), given each
   * document's page slot (`pageOf`, slots below `pageSlots`): at least the best `depth` pages
   * (fewer when fewer match) with their exact scores, a page's score being its best document's
   * (see {@link TopPages}). A document's score is the sum of the BM25 scores of the words matched,
   * weighted, times the number of query words counted (see {@link Match.counts}), plus one when a
   * longer word of the last query word matched and the word `last` itself did not.
   *
   * Documents are scored a block of 64 document numbers at a time, blocks in order of an upper
   * bound of their documents' scores (each matched word's {@link Blocks}: highest frequencies and
   * shortest lengths, times the query's words), until the next block's bound is below the
   * `depth`-th best page score found: no document left could then enter the best `depth` nor tie
   * with them, so the pages kept (those at or above it) are exactly the best, and most documents of
   * a word every page holds are never read. Within a block the sums are those of a scoring of every
   * document (same terms, in the same order), so scores do not depend on which blocks were read.
   * The number of pages matched is counted from document numbers alone (an `all` query intersects
   * the groups by marks first, fewest postings first). Allocates nothing by document.
   */
  top(
    groups: readonly (readonly Match[])[],
    all: boolean,
    words: number,
    last: number,
    pageOf: Int32Array,
    pageSlots: number,
    depth: number,
  ): TopPages {
    this.reservePages(pageSlots);
    const none = { count: 0, listed: 0, slots: this.pageList, scores: this.pageScores, complete: true };
    if (groups.length === 0) return none;
    if (all && groups.some((group) => group.length === 0)) return none;
    this.renewStamps();
    const { marks, listed, pageStamp } = this;
    let candidates = 0;
    let final = 0;
    if (all) {
      // Intersect by marks, the groups with the fewest postings first: a document still marked
      // `base + j` has matched the j groups before.
      const order = [...groups].sort((a, b) => size(a) - size(b));
      const base = this.nextStamp();
      this.stamp += order.length;
      for (let j = 0; j < order.length; j++) {
        const from = base + j - 1;
        const to = base + j;
        const lastGroup = j === order.length - 1;
        let advanced = 0;
        for (const { term } of order[j]!) {
          const docs = term.docs;
          for (let i = 0; i < term.n; i++) {
            const doc = docs[i]!;
            const mark = marks[doc]!;
            if (j === 0 ? mark !== to : mark === from) {
              marks[doc] = to;
              if (lastGroup) listed[candidates++] = doc;
              advanced++;
            }
          }
        }
        if (advanced === 0) return none;
      }
      final = base + order.length - 1;
    }
    // The pages matched, from document numbers alone.
    const counting = this.nextPageStamp();
    let count = 0;
    if (all) {
      for (let i = 0; i < candidates; i++) {
        const slot = pageOf[listed[i]!]!;
        if (pageStamp[slot] !== counting) {
          pageStamp[slot] = counting;
          count++;
        }
      }
    } else {
      for (const group of groups)
        for (const { term } of group)
          for (let i = 0; i < term.n; i++) {
            const slot = pageOf[term.docs[i]!]!;
            if (pageStamp[slot] !== counting) {
              pageStamp[slot] = counting;
              count++;
            }
          }
    }
    if (count === 0) return none;

    const norms = this.normalisations();
    const documents = this.documentCount;
    const average = this.totalLength.map((sum) => (documents > 0 ? sum / documents : 0));
    const blockCount = (this.nextDoc >> BLOCK_SHIFT) + 1;
    this.reserveBlocks(blockCount);
    const { blockBound: bound, blockGroup, blockGroups: present } = this;
    bound.fill(0, 0, blockCount);
    blockGroup.fill(0, 0, blockCount);
    present.fill(0, 0, blockCount);
    groups.forEach((group, g) => {
      for (const match of group) {
        const { ids, maxFrequency, minLength } = this.blocksOf(match.term);
        const { df } = match.term;
        for (let field = 0; field < FIELDS; field++) {
          const weight = match.weight * BOOSTS[field]!;
          const inverse = idf(documents, df[field]!);
          for (let j = 0; j < ids.length; j++) {
            const frequency = maxFrequency[j * FIELDS + field]!;
            if (frequency === 0) continue;
            const norm = K * (1 - B + (B * minLength[j * FIELDS + field]!) / average[field]!);
            bound[ids[j]!] = bound[ids[j]!]! + bm25(weight, inverse, frequency, norm);
          }
        }
        for (let j = 0; j < ids.length; j++) {
          const block = ids[j]!;
          if (blockGroup[block] !== g + 1) {
            blockGroup[block] = g + 1;
            present[block]!++;
          }
        }
      }
    });
    // A document counts at most `words` query words (see above); the margin covers sums in
    // another order than the score's.
    const times = words * (1 + 1e-9);
    const order: number[] = [];
    for (let block = 0; block < blockCount; block++) {
      if (bound[block] === 0 || (all && present[block] !== groups.length)) continue;
      bound[block] = bound[block]! * times;
      order.push(block);
    }
    order.sort((a, b) => bound[b]! - bound[a]!);

    const stride = (words + 31) >>> 5;
    this.reserve(stride);
    const seenStamp = this.nextStamp();
    const listing = this.nextPageStamp();
    const { seen, groupSeen, total, groupSum, flags, counted, touched, blockDocs, pageBest, pageList } = this;
    const lastWord = last >>> 5;
    const lastBit = last >= 0 ? 1 << (last & 31) : 0;
    let pages = 0;
    let threshold = -Infinity;
    let scored = 0;
    let sinceThreshold = 0;
    let complete = true;
    for (const block of order) {
      if (pages >= depth && sinceThreshold > 0 && sinceThreshold * 4 >= scored - sinceThreshold) {
        threshold = this.nth(pages, depth);
        sinceThreshold = 0;
      }
      if (bound[block]! < threshold) {
        complete = false;
        break;
      }
      let inBlock = 0;
      for (const group of groups) {
        const summed = group.length > 1;
        const groupStamp = summed ? this.nextStamp() : 0;
        let inGroup = 0;
        for (const match of group) {
          const blocks = this.blocksOf(match.term);
          const j = findBlock(blocks.ids, block);
          if (j < 0) continue;
          const { docs, freqs, df } = match.term;
          const c0 = match.weight * BOOSTS[0];
          const c1 = match.weight * BOOSTS[1];
          const c2 = match.weight * BOOSTS[2];
          const idf0 = idf(documents, df[0]!);
          const idf1 = idf(documents, df[1]!);
          const idf2 = idf(documents, df[2]!);
          const word = match.counts >>> 5;
          const bit = match.counts >= 0 ? 1 << (match.counts & 31) : 0;
          const longer = match.longer ? LONGER : 0;
          const end = blocks.starts[j + 1]!;
          for (let i = blocks.starts[j]!; i < end; i++) {
            const doc = docs[i]!;
            if (all && marks[doc] !== final) continue;
            // minisearch's sum, field by field in its order (0 + x is x, as its first assignment).
            const f0 = freqs[i * 3]!;
            const f1 = freqs[i * 3 + 1]!;
            const f2 = freqs[i * 3 + 2]!;
            let score = 0;
            if (f0 !== 0) score += bm25(c0, idf0, f0, norms[doc * 3]!);
            if (f1 !== 0) score += bm25(c1, idf1, f1, norms[doc * 3 + 1]!);
            if (f2 !== 0) score += bm25(c2, idf2, f2, norms[doc * 3 + 2]!);
            if (seen[doc] !== seenStamp) {
              seen[doc] = seenStamp;
              total[doc] = 0;
              flags[doc] = 0;
              for (let w = doc * stride; w < doc * stride + stride; w++) counted[w] = 0;
              blockDocs[inBlock++] = doc;
            }
            if (bit !== 0) counted[doc * stride + word] = counted[doc * stride + word]! | bit;
            if (longer !== 0) flags[doc] = longer;
            if (!summed) total[doc] = total[doc]! + score;
            else if (groupSeen[doc] !== groupStamp) {
              groupSeen[doc] = groupStamp;
              groupSum[doc] = score;
              touched[inGroup++] = doc;
            } else groupSum[doc] = groupSum[doc]! + score;
          }
        }
        for (let i = 0; i < inGroup; i++) {
          const doc = touched[i]!;
          total[doc] = total[doc]! + groupSum[doc]!;
        }
      }
      for (let i = 0; i < inBlock; i++) {
        const doc = blockDocs[i]!;
        let matched = 0;
        for (let w = 0; w < stride; w++) matched += bits(counted[doc * stride + w]!);
        if (flags[doc]! & LONGER && !(counted[doc * stride + lastWord]! & lastBit)) matched++;
        const score = total[doc]! * matched;
        const slot = pageOf[doc]!;
        if (pageStamp[slot] !== listing) {
          pageStamp[slot] = listing;
          pageBest[slot] = score;
          pageList[pages++] = slot;
        } else if (score > pageBest[slot]!) pageBest[slot] = score;
      }
      scored += inBlock;
      sinceThreshold += inBlock;
    }
    this.work.scored += scored;
    // The pages kept: every page scored, or those at or above the threshold (exact, see above).
    const { pageScores } = this;
    let kept = 0;
    for (let i = 0; i < pages; i++) {
      const slot = pageList[i]!;
      const score = pageBest[slot]!;
      if (!complete && score < threshold) continue;
      pageList[kept] = slot;
      pageScores[kept] = score;
      kept++;
    }
    return { count, listed: kept, slots: pageList, scores: pageScores, complete };
  }

  /** The `depth`-th best score of the first `pages` pages listed by {@link top}. */
  private nth(pages: number, depth: number): number {
    const sorted = this.pageSorted.subarray(0, pages);
    for (let i = 0; i < pages; i++) sorted[i] = this.pageBest[this.pageList[i]!]!;
    sorted.sort();
    return sorted[pages - depth]!;
  }

  /** A word's {@link Blocks}, made again after its postings changed. */
  private blocksOf(term: Term): Blocks {
    if (term.blocks) return term.blocks;
    const { docs, freqs, n } = term;
    let count = 0;
    for (let i = 0, previous = -1; i < n; i++) {
      const block = docs[i]! >> BLOCK_SHIFT;
      if (block !== previous) {
        count++;
        previous = block;
      }
    }
    const ids = new Int32Array(count);
    const starts = new Int32Array(count + 1);
    const maxFrequency = new Uint16Array(count * FIELDS);
    const minLength = new Int32Array(count * FIELDS).fill(0x7fffffff);
    const lengths = this.lengths;
    for (let i = 0, j = -1, previous = -1; i < n; i++) {
      const doc = docs[i]!;
      const block = doc >> BLOCK_SHIFT;
      if (block !== previous) {
        j++;
        ids[j] = block;
        starts[j] = i;
        previous = block;
      }
      for (let field = 0; field < FIELDS; field++) {
        const frequency = freqs[i * FIELDS + field]!;
        if (frequency === 0) continue;
        const at = j * FIELDS + field;
        if (frequency > maxFrequency[at]!) maxFrequency[at] = frequency;
        const length = lengths[doc * FIELDS + field]!;
        if (length < minLength[at]!) minLength[at] = length;
      }
    }
    starts[count] = n;
    term.blocks = { ids, starts, maxFrequency, minLength };
    return term.blocks;
  }

  private nextPageStamp(): number {
    if (this.pageStampNext >= 0x7f000000) {
      this.pageStampNext = 0;
      this.pageStamp.fill(0);
    }
    return ++this.pageStampNext;
  }

  /** Scratch by page slot for {@link top}. */
  private reservePages(slots: number) {
    if (this.pageStamp.length >= slots) return;
    const size = Math.max(64, slots * 2);
    this.pageStamp = new Int32Array(size);
    this.pageStampNext = 0;
    this.pageBest = new Float64Array(size);
    this.pageList = new Int32Array(size);
    this.pageScores = new Float64Array(size);
    this.pageSorted = new Float64Array(size);
  }

  /** Scratch by block of document numbers for {@link top}. */
  private reserveBlocks(blocks: number) {
    if (this.blockBound.length >= blocks) return;
    const size = blocks * 2;
    this.blockBound = new Float64Array(size);
    this.blockGroup = new Int32Array(size);
    this.blockGroups = new Int32Array(size);
  }

  /**
   * One document scored for `groups` as {@link top} scores it (same sums in the same order),
   * with the matches it holds, or undefined when {@link top} would not list it. Reads its
   * postings by binary search: for the few documents of the pages shown.
   */
  scoreDocument(
    groups: readonly (readonly Match[])[],
    all: boolean,
    words: number,
    last: number,
    doc: number,
  ): DocumentMatch | undefined {
    const norms = this.normalisations();
    const count = this.documentCount;
    const counted = new Uint32Array((words + 31) >>> 5);
    const held: number[] = [];
    let total = 0;
    let own = false;
    let longer = false;
    let position = 0;
    for (const group of groups) {
      const summed = group.length > 1;
      let inGroup = false;
      let groupSum = 0;
      for (const match of group) {
        const at = match.term.find(doc);
        if (at >= 0) {
          const { freqs, df } = match.term;
          const f0 = freqs[at * 3]!;
          const f1 = freqs[at * 3 + 1]!;
          const f2 = freqs[at * 3 + 2]!;
          let score = 0;
          if (f0 !== 0) score += bm25(match.weight * BOOSTS[0], idf(count, df[0]!), f0, norms[doc * 3]!);
          if (f1 !== 0) score += bm25(match.weight * BOOSTS[1], idf(count, df[1]!), f1, norms[doc * 3 + 1]!);
          if (f2 !== 0) score += bm25(match.weight * BOOSTS[2], idf(count, df[2]!), f2, norms[doc * 3 + 2]!);
          held.push(position);
          if (match.counts >= 0) counted[match.counts >>> 5]! |= 1 << (match.counts & 31);
          if (f0 !== 0 || f2 !== 0) own = true;
          if (match.longer) longer = true;
          if (!summed) total = total + score;
          else groupSum = inGroup ? groupSum + score : score;
          inGroup = true;
        }
        position++;
      }
      if (summed && inGroup) total = total + groupSum;
      if (all && !inGroup) return undefined;
    }
    if (held.length === 0) return undefined;
    let matched = 0;
    for (const word of counted) matched += bits(word);
    if (longer && !(last >= 0 && counted[last >>> 5]! & (1 << (last & 31)))) matched++;
    return { score: total * matched, held, own };
  }
}

/** BM25+'s inverse document frequency of a word in `df` of `count` documents (minisearch's). */
const idf = (count: number, df: number) => Math.log(1 + (count - df + 0.5) / (df + 0.5));

/** A field's BM25+ score of a word `frequency` times in it, weighted by `weight` (minisearch's). */
const bm25 = (weight: number, idf: number, frequency: number, norm: number) =>
  weight * (idf * (D + (frequency * K1) / (frequency + norm)));

/** The index of `block` in a word's block numbers (ascending), or -1 (binary search). */
function findBlock(ids: Int32Array, block: number): number {
  let low = 0;
  let high = ids.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const at = ids[middle]!;
    if (at === block) return middle;
    if (at < block) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

const size = (group: readonly Match[]) => group.reduce((sum, { term }) => sum + term.n, 0);
