import { deepFreeze } from "../../core/storage/index.js";

/** What {@link RecordCache.get} answers for a key read before and found absent. */
export const ABSENT: object = Object.freeze({});

/** Bytes an absent key counts for, beside its name: the map's entry. */
const ABSENT_BYTES = 32;

interface Entry {
  readonly record: object;
  readonly bytes: number;
  /** When it was last placed at the newest end of the map, by {@link RecordCache}'s count. */
  placed: number;
}

/**
 * Records the SQLite adapter read by primary key, kept parsed and deeply frozen between
 * transactions, so that the point reads every request makes (its space, its member, its
 * organization) cost a map lookup instead of a statement and a `JSON.parse`.
 *
 * What is kept stays true because of two rules:
 * - Another connection's commits (another process, or another storage on the same file) change
 *   `PRAGMA data_version`, which every transaction reads first, inside its snapshot: when it moved,
 *   everything is dropped ({@link RecordCache.validate}).
 * - This connection's own writes do not move it, so a write transaction drops each key it puts or
 *   deletes, once when it writes it and again when it ends, committed or not
 *   ({@link RecordCache.forget} and {@link RecordCache.settle}): whatever it read of its own writes
 *   while it ran is not kept past it.
 *
 * Writes made through the same connection without the adapter are not seen (no version moves).
 * Entries are accounted by the length of their JSON text and, once `budget` bytes are held, the
 * least recently used go first (nearly: an entry read again while among the newest half keeps its
 * place).
 */
export class RecordCache {
  readonly #entries = new Map<string, Entry>();
  /** How many entries were placed at the newest end so far: {@link Entry.placed}'s clock. */
  #placed = 0;
  readonly #touched = new Set<string>();
  #bytes = 0;
  #version: unknown;

  constructor(readonly budget: number) {}

  /** How many bytes of JSON text the kept records came from. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Starts a transaction that read `version` (`PRAGMA data_version`): drops everything if it moved. */
  validate(version: unknown): void {
    if (version !== this.#version) {
      this.#clear();
      this.#version = version;
    }
  }

  /**
   * The record kept for `key` of `table`, {@link ABSENT} when the key was read and found absent,
   * or `undefined` when nothing is known of it.
   */
  get(table: string, key: string): object | undefined {
    const id = `${table}\n${key}`;
    const entry = this.#entries.get(id);
    if (!entry) return undefined;
    // Most recently used last, so that the oldest go first; an entry among the newest half is
    // near that end already, and is left where it is (moving it on every read was a measurable
    // share of a request: docs/performance.md, "The request path (issue 29)").
    if (this.#placed - entry.placed > this.#entries.size >> 1) {
      this.#entries.delete(id);
      this.#entries.set(id, entry);
      entry.placed = ++this.#placed;
    }
    return entry.record;
  }

  /** Keeps `record`, read from `text`. */
  set(table: string, key: string, record: object, text: string): void {
    this.#keep(`${table}\n${key}`, deepFreeze(record), text.length);
  }

  /**
   * Keeps that `key` of `table` holds no record: the reads every request makes of what is absent
   * (the membership an operator does not have) cost a map lookup too.
   */
  setAbsent(table: string, key: string): void {
    const id = `${table}\n${key}`;
    this.#keep(id, ABSENT, id.length + ABSENT_BYTES);
  }

  #keep(id: string, record: object, bytes: number): void {
    if (bytes > this.budget / 8) return;
    this.#drop(id);
    this.#entries.set(id, { record, bytes, placed: ++this.#placed });
    this.#bytes += bytes;
    for (const [oldest, { bytes }] of this.#entries) {
      if (this.#bytes <= this.budget) break;
      this.#entries.delete(oldest);
      this.#bytes -= bytes;
    }
  }

  /** A write transaction put or deleted `key`: not kept now, nor when the transaction ends. */
  forget(table: string, key: string): void {
    const id = `${table}\n${key}`;
    this.#drop(id);
    this.#touched.add(id);
  }

  /** The transaction ended (committed or rolled back): what it wrote is read again next time. */
  settle(): void {
    for (const id of this.#touched) this.#drop(id);
    this.#touched.clear();
  }

  /** Drops everything (the connection closes, or a write reached the file another way). */
  #clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  #drop(id: string): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#entries.delete(id);
    this.#bytes -= entry.bytes;
  }
}
