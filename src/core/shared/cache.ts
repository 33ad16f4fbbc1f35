import { LRUCache } from "lru-cache";

/**
 * The default budget of {@link DerivedCache}: 512 MiB, room for the search index of a
 * 10,000-page space (about 250 MB) beside the trees and versions that edits read.
 */
export const DEFAULT_CACHE_BYTES = 512 * 1024 * 1024;

/**
 * Memo of values derived from immutable data (tree nodes, page and file versions, materialized
 * revisions, search indexes, link graphs, rendered documents), keyed by an immutable id. Safe to
 * share between transactions and instances because what it is keyed by never changes.
 *
 * Every entry is accounted by its estimated size in bytes, and the least recently used entries
 * leave when the total would exceed the budget, so memory stays bounded however many revisions
 * are read. An entry larger than the whole budget is not kept.
 */
export class DerivedCache {
  private readonly entries: LRUCache<string, object>;

  constructor(readonly maxBytes: number = DEFAULT_CACHE_BYTES) {
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
      throw new RangeError(`cacheBytes must be a positive integer, got ${maxBytes}`);
    }
    this.entries = new LRUCache<string, object>({ maxSize: maxBytes, maxEntrySize: maxBytes });
  }

  get(key: string): object | undefined {
    return this.entries.get(key);
  }

  /** Keeps `value` under `key`; `bytes` estimates the memory it holds (UTF-16 strings: 2 per char). */
  set(key: string, value: object, bytes: number): void {
    const size = Math.max(1, Math.ceil(bytes));
    if (size > this.maxBytes) {
      this.entries.delete(key);
      return;
    }
    this.entries.set(key, value, { size });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Drops every entry: for when what the keys name is no longer what they named (a restored storage). */
  clear(): void {
    this.entries.clear();
  }

  /** The estimated bytes of all entries kept now; never above {@link maxBytes}. */
  get bytes(): number {
    return this.entries.calculatedSize;
  }

  /** The number of entries kept now. */
  get size(): number {
    return this.entries.size;
  }
}

/** An estimate of the memory a JSON-like value holds: its JSON text in UTF-16, plus overhead. */
export function jsonBytes(value: unknown): number {
  return (JSON.stringify(value)?.length ?? 0) * 2 + 64;
}
