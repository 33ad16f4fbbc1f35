import { compareTuples, indexTuple, type IndexValue, type StoredRecord } from "../../core/storage/index.js";

/**
 * One declared index of a memory table over its committed rows: the index tuples (fields, then
 * primary key) in order, so a range is found by binary search instead of a scan and a sort.
 * Tuples are unique because they end with the primary key.
 */
export class SortedIndex {
  readonly #tuples: IndexValue[][] = [];

  constructor(
    readonly fields: readonly string[],
    readonly key: string,
  ) {}

  /** Moves a row's entry from its old record to its new one (either may be absent). */
  update(before: StoredRecord | undefined, after: StoredRecord | undefined): void {
    const old = before && indexTuple(before, this.fields, this.key);
    if (old) {
      const at = this.#lowerBound(old);
      if (at < this.#tuples.length && compareTuples(this.#tuples[at]!, old) === 0) this.#tuples.splice(at, 1);
    }
    const next = after && indexTuple(after, this.fields, this.key);
    if (next) this.#tuples.splice(this.#lowerBound(next), 0, next);
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
    const end = this.#afterPrefix(where, start);
    let from = start;
    let to = end;
    if (after) {
      const position = [...where, ...after];
      if (reverse) to = Math.max(start, this.#lowerBound(position, start, end));
      else from = Math.min(end, this.#upperBound(position, start, end));
    }
    const keyOf = (tuple: IndexValue[]) => tuple[tuple.length - 1] as string;
    const keys: string[] = [];
    if (reverse)
      for (let i = to - 1; i >= from && keys.length < limit; i--) keys.push(keyOf(this.#tuples[i]!));
    else for (let i = from; i < to && keys.length < limit; i++) keys.push(keyOf(this.#tuples[i]!));
    return keys;
  }

  /** How many rows have a tuple starting with `where`. */
  count(where: readonly IndexValue[]): number {
    const start = this.#lowerBound(where);
    return this.#afterPrefix(where, start) - start;
  }

  /** First position whose tuple is not less than `tuple`. */
  #lowerBound(tuple: readonly IndexValue[], low = 0, high = this.#tuples.length): number {
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareTuples(this.#tuples[middle]!, tuple) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** First position whose tuple is greater than `tuple` (tuples equal to it are skipped). */
  #upperBound(tuple: readonly IndexValue[], low = 0, high = this.#tuples.length): number {
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareTuples(this.#tuples[middle]!, tuple) <= 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** First position from `start` whose tuple does not start with `prefix`. */
  #afterPrefix(prefix: readonly IndexValue[], start: number): number {
    let low = start;
    let high = this.#tuples.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const tuple = this.#tuples[middle]!;
      if (prefix.every((value, i) => tuple[i] === value)) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
