import type { StoredRecord } from "../../core/storage/index.js";

/** Buckets per table: what a first write after a snapshot copies is one bucket, about 1/256 of the rows. */
const BUCKETS = 256;

/** Some of a table's rows (those whose key hashes to it), writable only by the generation that made it. */
interface Bucket {
  readonly owner: object;
  readonly rows: Map<string, StoredRecord>;
}

/**
 * A memory table's committed rows by primary key, in buckets by key hash, shared between the
 * generations of a storage like {@link SortedIndex}'s chunks: changed only through the copy
 * `writable(owner)` returns (a copy of the bucket list), a bucket copied before its first change
 * by another generation.
 */
export class Rows {
  readonly #owner: object;
  readonly #buckets: (Bucket | undefined)[];

  constructor(
    owner: object,
    buckets: (Bucket | undefined)[] = new Array<undefined>(BUCKETS).fill(undefined),
  ) {
    this.#owner = owner;
    this.#buckets = buckets;
  }

  /** These rows if `owner` made them, else a copy of the bucket list that `owner` may change. */
  writable(owner: object): Rows {
    return owner === this.#owner ? this : new Rows(owner, [...this.#buckets]);
  }

  get(key: string): StoredRecord | undefined {
    return this.#buckets[bucketOf(key)]?.rows.get(key);
  }

  set(key: string, record: StoredRecord): void {
    this.#own(bucketOf(key)).set(key, record);
  }

  delete(key: string): void {
    const at = bucketOf(key);
    if (this.#buckets[at]?.rows.has(key)) this.#own(at).delete(key);
  }

  *values(): IterableIterator<StoredRecord> {
    for (const bucket of this.#buckets) if (bucket) yield* bucket.rows.values();
  }

  #own(at: number): Map<string, StoredRecord> {
    const bucket = this.#buckets[at];
    if (bucket?.owner === this.#owner) return bucket.rows;
    const rows = new Map(bucket?.rows);
    this.#buckets[at] = { owner: this.#owner, rows };
    return rows;
  }
}

/**
 * FNV-1a over the key's last 8 UTF-16 code units, to a bucket: every get hashes, and the end of a
 * key (random ids, counters, the last part of a composite key) is where keys differ.
 */
function bucketOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = Math.max(0, key.length - 8); i < key.length; i++)
    hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % BUCKETS;
}
