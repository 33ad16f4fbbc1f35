import { compareTuples, indexTuple, type IndexValue, type StoredRecord } from "../../core/storage/index.js";

/** Most tuples a chunk holds before it splits in two: what a first write after a snapshot copies. */
const CHUNK_TUPLES = 256;

/** A run of consecutive tuples, writable only by the generation (`owner`) that made it. */
interface Chunk {
  readonly owner: object;
  readonly tuples: IndexValue[][];
}

/**
 * One declared index of a memory table over its committed rows: the index tuples (fields, then
 * primary key) in order, so a range is found by binary search instead of a scan and a sort.
 * Tuples are unique because they end with the primary key.
 *
 * The tuples are cut into chunks of at most {@link CHUNK_TUPLES}, shared between the generations
 * of a storage (see `memoryStorage().snapshot()`): an index is only changed through the copy that
 * `writable(owner)` returns, and a chunk made by another generation is copied before its first
 * change, so a snapshot's index never changes and a write copies one chunk, not the index.
 */
export class SortedIndex {
  readonly #owner: object;
  readonly #chunks: Chunk[];
  /** Position of each chunk's first tuple in the whole index; `#starts[#chunks.length]` is the size. */
  readonly #starts: number[];

  constructor(
    readonly fields: readonly string[],
    readonly key: string,
    owner: object,
    chunks: Chunk[] = [],
    starts: number[] = [0],
  ) {
    this.#owner = owner;
    this.#chunks = chunks;
    this.#starts = starts;
  }

  /** This index if `owner` made it, else a copy of its chunk list (not of its chunks) that `owner` may change. */
  writable(owner: object): SortedIndex {
    if (owner === this.#owner) return this;
    return new SortedIndex(this.fields, this.key, owner, [...this.#chunks], [...this.#starts]);
  }

  /** How many tuples the index holds. */
  get size(): number {
    return this.#starts[this.#chunks.length]!;
  }

  /** Moves a row's entry from its old record to its new one (either may be absent). */
  update(before: StoredRecord | undefined, after: StoredRecord | undefined): void {
    const old = before && indexTuple(before, this.fields, this.key);
    if (old) this.#remove(old);
    const next = after && indexTuple(after, this.fields, this.key);
    if (next) this.#insert(next);
  }

  /**
   * Primary keys of the rows whose tuple starts with `where`, in order, strictly after (or, when
   * `reverse`, strictly before) the position `[...where, ...after]`, at most `limit` of them.
   */
  keys(
    where: readonly IndexValue[],
    after: readonly IndexValue[] | undefined,
    reverse: boolean,
    limit: number,
  ): string[] {
    // The range of tuples extending `where`: a prefix sorts before all its extensions.
    const start = this.#lowerBound(where);
    const end = this.#afterPrefix(where);
    let from = start;
    let to = end;
    if (after) {
      const position = [...where, ...after];
      if (reverse) to = Math.min(end, Math.max(start, this.#lowerBound(position)));
      else from = Math.max(start, Math.min(end, this.#upperBound(position)));
    }
    const keys: string[] = [];
    const count = Math.min(limit, to - from);
    if (count <= 0) return keys;
    let c = this.#chunkAt(reverse ? to - 1 : from);
    let i = (reverse ? to - 1 : from) - this.#starts[c]!;
    while (keys.length < count) {
      const tuples = this.#chunks[c]!.tuples;
      const tuple = tuples[i]!;
      keys.push(tuple[tuple.length - 1] as string);
      if (reverse) {
        if (--i < 0) i = (this.#chunks[--c]?.tuples.length ?? 0) - 1;
      } else if (++i === tuples.length) {
        c++;
        i = 0;
      }
    }
    return keys;
  }

  /** How many rows have a tuple starting with `where`. */
  count(where: readonly IndexValue[]): number {
    return this.#afterPrefix(where) - this.#lowerBound(where);
  }

  /** First position whose tuple is not less than `tuple`. */
  #lowerBound(tuple: readonly IndexValue[]): number {
    return this.#search((x) => compareTuples(x, tuple) < 0);
  }

  /** First position whose tuple is greater than `tuple` (tuples equal to it are skipped). */
  #upperBound(tuple: readonly IndexValue[]): number {
    return this.#search((x) => compareTuples(x, tuple) <= 0);
  }

  /** First position after the tuples that start with `prefix` (all of which follow the smaller ones). */
  #afterPrefix(prefix: readonly IndexValue[]): number {
    return this.#search((x) => compareTuples(x, prefix) < 0 || prefix.every((value, i) => x[i] === value));
  }

  /** First position whose tuple fails `before`, which holds for a first run of tuples and no other. */
  #search(before: (tuple: readonly IndexValue[]) => boolean): number {
    const chunks = this.#chunks;
    // The first chunk whose last tuple fails: the position is in it.
    let low = 0;
    let high = chunks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const tuples = chunks[middle]!.tuples;
      if (before(tuples[tuples.length - 1]!)) low = middle + 1;
      else high = middle;
    }
    if (low === chunks.length) return this.size;
    const tuples = chunks[low]!.tuples;
    const chunk = low;
    low = 0;
    high = tuples.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (before(tuples[middle]!)) low = middle + 1;
      else high = middle;
    }
    return this.#starts[chunk]! + low;
  }

  /** The chunk holding position `at` (`0 <= at < size`). */
  #chunkAt(at: number): number {
    let low = 0;
    let high = this.#chunks.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (this.#starts[middle]! <= at) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  /** The chunk `c`, copied first if another generation made it. */
  #own(c: number): IndexValue[][] {
    const chunk = this.#chunks[c]!;
    if (chunk.owner === this.#owner) return chunk.tuples;
    const copy = { owner: this.#owner, tuples: [...chunk.tuples] };
    this.#chunks[c] = copy;
    return copy.tuples;
  }

  #shift(from: number, by: number): void {
    for (let c = from; c < this.#starts.length; c++) this.#starts[c]! += by;
  }

  #insert(tuple: IndexValue[]): void {
    if (this.#chunks.length === 0) {
      this.#chunks.push({ owner: this.#owner, tuples: [tuple] });
      this.#starts.push(1);
      return;
    }
    const at = this.#lowerBound(tuple);
    // Into the chunk holding `at`, or the last one when the tuple goes after every other.
    const c = at === this.size ? this.#chunks.length - 1 : this.#chunkAt(at);
    const tuples = this.#own(c);
    tuples.splice(at - this.#starts[c]!, 0, tuple);
    this.#shift(c + 1, 1);
    if (tuples.length > CHUNK_TUPLES) {
      const second = tuples.splice(tuples.length >>> 1);
      this.#chunks.splice(c + 1, 0, { owner: this.#owner, tuples: second });
      this.#starts.splice(c + 1, 0, this.#starts[c]! + tuples.length);
    }
  }

  #remove(tuple: IndexValue[]): void {
    const at = this.#lowerBound(tuple);
    if (at === this.size) return;
    const c = this.#chunkAt(at);
    const offset = at - this.#starts[c]!;
    if (compareTuples(this.#chunks[c]!.tuples[offset]!, tuple) !== 0) return;
    if (this.#chunks[c]!.tuples.length === 1) {
      this.#chunks.splice(c, 1);
      this.#starts.splice(c, 1);
      this.#shift(c, -1);
      return;
    }
    this.#own(c).splice(offset, 1);
    this.#shift(c + 1, -1);
  }
}
