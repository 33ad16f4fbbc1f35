import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import type { ReadTransaction, WriteTransaction } from "../storage/port.js";
import { type TokenRecord, tokensTable, usersTable } from "./tables.js";
import type { CachedToken, TokenCache } from "./token-cache.js";
import type { Caller, World } from "../shared/world.js";
import { randomId } from "../shared/world.js";
import { verifySignedToken } from "./integration-token.js";
import { isSiteToken, SITE_TOKEN_LIFETIME_MS, SITE_TOKEN_PREFIX, siteTokenKey } from "./site-token.js";

/**
 * API tokens. A token is 40 random base62 characters (about 238 bits) behind a `dbt_` prefix, so a
 * plain SHA-256 of it is enough to store: there is nothing to brute-force, unlike a password.
 * Only the hash is stored; the token is shown once, when it is created.
 */
export const TOKEN_PREFIX = "dbt_";

/**
 * `lastUsedAt` is rewritten only when it is at least this old. A write on every authenticated
 * request would put every read behind the storage's write lock (one writer at a time on every
 * adapter); once a minute per token keeps that cost negligible.
 */
export const LAST_USED_GRANULARITY_MS = 60_000;

export function newToken(): string {
  return TOKEN_PREFIX + randomId(40);
}

/**
 * The stored form of a token: its SHA-256 in hex. Synchronous (`@noble/hashes`, on every runtime):
 * it runs on every authenticated request, where Web Crypto's `digest` cost 25 to 53 µs and a
 * third of the server's CPU in its round trip to the thread pool, against about 1 µs here.
 */
export function hashToken(token: string): string {
  return bytesToHex(sha256(asciiBytes(token) ?? utf8ToBytes(token)));
}

/** The bytes of an ASCII string (every token docsbase issues), without a `TextEncoder`; else null. */
function asciiBytes(text: string): Uint8Array | null {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) return null;
    bytes[i] = code;
  }
  return bytes;
}

/** What a new token record may carry beside its identity. */
export type TokenFields = Pick<TokenRecord, "expiresAt" | "label" | "bootstrap">;

/** Stores a token for a user; idempotent for the same token. */
export async function storeToken(
  tx: WriteTransaction,
  world: Pick<World, "ids" | "clock">,
  user: string,
  token: string,
  fields: TokenFields = {},
): Promise<TokenRecord> {
  const hash = hashToken(token);
  const existing = await tx.get(tokensTable, hash);
  if (existing) return existing;
  const record: TokenRecord = {
    hash,
    id: world.ids(),
    user,
    createdAt: world.clock().toISOString(),
    ...definedOnly(fields),
  };
  await tx.put(tokensTable, record);
  return record;
}

/** Whether a token no longer authenticates at `now`. */
export function isExpired(record: TokenRecord, now: Date): boolean {
  return record.expiresAt !== undefined && timesOf(record).expires <= now.getTime();
}

/** The times of token records, parsed once per record: a cached token is checked on every request. */
const parsedTimes = new WeakMap<TokenRecord, { readonly expires: number; readonly lastUsed: number }>();

function timesOf(record: TokenRecord): { readonly expires: number; readonly lastUsed: number } {
  let times = parsedTimes.get(record);
  if (!times) {
    times = {
      expires: record.expiresAt === undefined ? Number.NaN : Date.parse(record.expiresAt),
      lastUsed: record.lastUsedAt === undefined ? Number.NaN : Date.parse(record.lastUsedAt),
    };
    parsedTimes.set(record, times);
  }
  return times;
}

/**
 * The caller a token hash stands for, with its record, or null when the token is unknown, revoked
 * (deleted) or expired at `now`.
 */
export async function callerForHash(
  tx: ReadTransaction,
  hash: string,
  now: Date,
): Promise<{ caller: Caller; record: TokenRecord } | null> {
  const record = await tx.get(tokensTable, hash);
  if (!record || isExpired(record, now)) return null;
  if (record.kind === "space-reader") {
    // A reader token stored by docsbase before they were site tokens (JWTs, `site-token.ts`),
    // honoured until it expires. It stands for no user; `invoke` holds it to its one space.
    if (!record.space || !record.revision || record.expiresAt === undefined) return null;
    const caller: Caller = Object.freeze({
      userId: `${SPACE_READER_PREFIX}${record.id}`,
      operator: false,
      scope: Object.freeze({
        space: record.space,
        revision: record.revision,
        ...(record.site === undefined ? {} : { site: record.site }),
        ...(record.address === undefined ? {} : { address: record.address }),
      }),
    });
    return { caller, record };
  }
  const user = await tx.get(usersTable, record.user);
  if (!user) return null;
  return { caller: Object.freeze({ userId: user.id, operator: user.kind === "operator" }), record };
}

/**
 * Authenticates a bearer token and records its use (`lastUsedAt`), at most once per
 * {@link LAST_USED_GRANULARITY_MS}. Recording is best effort: a failed write (a busy or read-only
 * database) never fails the request the token authenticates.
 *
 * With a `cache`, a token seen in the last few seconds costs no storage read (see
 * {@link TokenCache}: a revocation on this instance drops it at once, one on another instance
 * sharing the database within the cache's lifetime). Unknown tokens are never cached. Expiry is
 * checked on every call, cached or not.
 */
export async function authenticateToken(
  world: World,
  token: string,
  cache?: TokenCache,
): Promise<Caller | null> {
  const now = world.clock();
  const hash = cache?.hashOf(token) ?? hashToken(token);
  let found: CachedToken | null | undefined = cache?.get(hash, now.getTime());
  if (found) {
    if (isExpired(found.record, now)) return null;
  } else {
    const mark = cache?.begin() ?? 0;
    found = isSiteToken(token)
      ? // The key is read in the transaction, the signature checked after it (Web Crypto is async).
        // A site, integration or installation token: a JWT docsbase signed.
        await verifySignedToken(token, hash, await world.storage.read(siteTokenKey), now)
      : await world.storage.read((tx) => callerForHash(tx, hash, now));
    if (!found) return null;
    cache?.fill(hash, found, mark, now.getTime(), token);
  }
  // Reader tokens live minutes and are never listed: their use is not worth a write. Signed tokens
  // (site, integration, installation) are not stored at all.
  if (found.record.kind !== "space-reader" && found.record.user !== "" && isStale(found.record, now)) {
    try {
      const revoked = await world.storage.write(async (tx) => {
        // Read again: the token may have been revoked or touched since; never write it back.
        const current = await tx.get(tokensTable, hash);
        if (current && isStale(current, now)) {
          await tx.put(tokensTable, { ...current, lastUsedAt: now.toISOString() });
        }
        return !current;
      });
      // Revoked since it was read (by another instance, say): its next request reads storage again.
      if (revoked) cache?.forget(hash);
    } catch {
      // Best effort, see above: the request goes on with the caller already found.
    }
  }
  return found.caller;
}

/**
 * The caller id of a reader token: not a user id (user ids have no ":"), distinct per token. Its
 * requests count against the address that obtained it and its site (`CallerScope`), not this id.
 */
export const SPACE_READER_PREFIX = SITE_TOKEN_PREFIX;

/**
 * How long a reader token (the `apiToken` of a published-content lookup, a site token) authenticates.
 */
export const SPACE_READER_LIFETIME_MS = SITE_TOKEN_LIFETIME_MS;

function isStale(record: TokenRecord, now: Date): boolean {
  return (
    record.lastUsedAt === undefined || now.getTime() - timesOf(record).lastUsed >= LAST_USED_GRANULARITY_MS
  );
}

/** Drops `undefined` members, which table records do not hold. */
function definedOnly<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}
