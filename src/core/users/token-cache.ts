import type { WrittenKeys } from "../storage/watch.js";
import type { Caller } from "../shared/world.js";
import { tokensTable, usersTable, type TokenRecord } from "./tables.js";

/** Options of the token cache (`createDocsbase({ tokenCache })`). */
export interface TokenCacheOptions {
  /** How long a token's caller is kept, in milliseconds of the docsbase clock. Default 5 s. */
  readonly ttlMs?: number;
  /** Most tokens kept; past it the oldest entry goes. Default 10,000. */
  readonly maxEntries?: number;
}

/** The defaults: see docs/scaling.md, "Bearer tokens". */
export const DEFAULT_TOKEN_CACHE = {
  ttlMs: 5_000,
  maxEntries: 10_000,
} as const satisfies Required<TokenCacheOptions>;

/** What a cached token stands for: its caller and its record as read (for expiry and `lastUsedAt`). */
export interface CachedToken {
  readonly caller: Caller;
  readonly record: TokenRecord;
}

interface Entry extends CachedToken {
  /** Clock time (ms) from which the entry is no longer used. */
  readonly until: number;
  /** The token itself, when the fill named it (see {@link TokenCache.hashOf}). */
  readonly token: string | undefined;
}

/**
 * Token hash to caller, so that an authenticated request costs no storage transaction of its own:
 * the request then reads storage once, in its operation's transaction.
 *
 * Bounded two ways: at most `maxEntries` tokens (the oldest goes first: for entries that live a few
 * seconds, insertion order is as good as recency, and cheaper), each for at most `ttlMs`.
 *
 * Fresh on this instance: `forgetWritten` drops every token whose record, or whose user's record,
 * a committed write on this instance touched (revocation, expiry change, user change), so the next
 * request reads them again. A fill that started reading before such a write and ends after it is
 * refused (`generation`), so a stale read never lands after the write that outdated it. Writes by
 * other instances on a shared database are seen once the entry's `ttlMs` has passed.
 */
export class TokenCache {
  readonly #entries = new Map<string, Entry>();
  /** Token to hash, for the tokens of the entries held (never more, never longer). */
  readonly #hashes = new Map<string, string>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  #generation = 0;

  constructor(options: TokenCacheOptions = {}) {
    this.#ttlMs = Math.max(0, options.ttlMs ?? DEFAULT_TOKEN_CACHE.ttlMs);
    this.#maxEntries = Math.max(0, Math.floor(options.maxEntries ?? DEFAULT_TOKEN_CACHE.maxEntries));
  }

  /** How many tokens are kept now. */
  get size(): number {
    return this.#entries.size;
  }

  /** The cached caller of a token hash, if it was filled less than `ttlMs` before `now`. */
  get(hash: string, now: number): CachedToken | undefined {
    const entry = this.#entries.get(hash);
    if (!entry) return undefined;
    if (now < entry.until) return entry;
    this.#drop(hash);
    return undefined;
  }

  /**
   * The hash of a token whose entry is held, so that a token presented again within its entry's
   * lifetime is not hashed again (its SHA-256 was most of the cost of a cache hit). The hash of a
   * token never changes: what this answers is never stale, and it is kept exactly as long as the
   * token's entry.
   */
  hashOf(token: string): string | undefined {
    return this.#hashes.get(token);
  }

  /** A mark to hand {@link fill} for a read that starts now. */
  begin(): number {
    return this.#generation;
  }

  /**
   * Keeps what a read begun at `mark` found, unless a watched write committed since; `token`, the
   * token hashed to `hash`, lets {@link hashOf} answer for it while the entry lives.
   */
  fill(hash: string, found: CachedToken, mark: number, now: number, token?: string): void {
    if (mark !== this.#generation || this.#ttlMs === 0 || this.#maxEntries === 0) return;
    this.#drop(hash);
    if (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#drop(oldest.value);
    }
    this.#entries.set(hash, { caller: found.caller, record: found.record, until: now + this.#ttlMs, token });
    if (token !== undefined) this.#hashes.set(token, hash);
  }

  /** Drops one token, known to have changed in storage. */
  forget(hash: string): void {
    this.#generation++;
    this.#drop(hash);
  }

  /** Drops the tokens a committed write touched: by token hash, or every token of a written user. */
  forgetWritten(written: WrittenKeys): void {
    const hashes = written.get(tokensTable.name);
    const users = written.get(usersTable.name);
    if (!hashes && !users) return;
    this.#generation++;
    for (const hash of hashes ?? []) this.#drop(hash);
    if (!users) return;
    for (const [hash, entry] of this.#entries) {
      if (users.has(entry.caller.userId)) this.#drop(hash);
    }
  }

  /** Drops every token, and refuses the fills under way: storage may have gone back in time. */
  clear(): void {
    this.#generation++;
    this.#entries.clear();
    this.#hashes.clear();
  }

  #drop(hash: string): void {
    const entry = this.#entries.get(hash);
    if (!entry) return;
    this.#entries.delete(hash);
    if (entry.token !== undefined) this.#hashes.delete(entry.token);
  }
}
