import * as base64url from "jose/base64url";
import { loadJose } from "../shared/jose.js";
import * as z from "zod";
import type { Caller, World } from "../shared/world.js";
import type { ReadTransaction, WriteTransaction } from "../storage/port.js";
import { type SigningKeyRecord, signingKeysTable, type TokenRecord } from "./tables.js";

/**
 * Site tokens: the `apiToken` of a published-content lookup. GitBook's renderer decodes it as a
 * JWT (and refuses it within 120 s of its `exp`), so it is one: HS256, signed with a key kept in
 * the database, so that every instance sharing the database verifies the tokens of the others.
 * Nothing is stored per token: what it may read is in its claims, and it is revoked only by
 * expiry ({@link SITE_TOKEN_LIFETIME_MS}).
 */

/** The name of the signing key record of site tokens. */
export const SITE_TOKEN_KEY = "site-token";

/**
 * How long a site token authenticates: 15 minutes by the world clock. Long enough to render a page
 * and fetch what it links to, short enough that a leaked token soon stops working; a renderer
 * resolves the URL again for a new one.
 */
export const SITE_TOKEN_LIFETIME_MS = 15 * 60_000;

/** The caller id prefix of a site token: not a user id (user ids have no ":"), distinct per token. */
export const SITE_TOKEN_PREFIX = "space-reader:";

/** What a site token grants: one space's current content and revision, for one site's reader. */
export interface SiteTokenGrant {
  readonly organization: string;
  readonly site: string;
  readonly siteSection?: string | undefined;
  readonly siteSpace: string;
  readonly space: string;
  readonly revision: string;
  /** The claims the lookup filtered the site's structure with (`visitor.claims`); none when empty. */
  readonly claims?: Readonly<Record<string, unknown>> | undefined;
  /** The rate-limit key of the address that looks it up; absent for a call without one (in process). */
  readonly address?: string | undefined;
}

/** The payload of a site token, checked member by member when it is verified. */
const payloadSchema = z.object({
  exp: z.number().int(),
  kind: z.literal("site"),
  organization: z.string(),
  site: z.string(),
  siteSection: z.string().optional(),
  siteSpace: z.string(),
  space: z.string(),
  spaces: z.array(z.string()),
  revision: z.string(),
  claims: z.record(z.string(), z.unknown()).optional(),
  address: z.string().optional(),
});
export type SiteTokenPayload = z.infer<typeof payloadSchema>;

/** What a lookup remembers of a token it signed, to hand it out again. */
interface IssuedSiteToken {
  readonly token: string;
  readonly key: string;
  readonly expiresAt: number;
}

/**
 * The signing key of site tokens (and of integration and installation tokens), created on first use: 32 random bytes from the runtime's Web
 * Crypto. Write transactions are serializable on every adapter (PostgreSQL runs a refused one
 * again), so two instances starting together agree on one key: the second reads the first's.
 */
export async function signingKey(
  tx: WriteTransaction,
  world: Pick<World, "clock" | "ids">,
): Promise<SigningKeyRecord> {
  const existing = await tx.get(signingKeysTable, SITE_TOKEN_KEY);
  if (existing) return existing;
  const record: SigningKeyRecord = {
    name: SITE_TOKEN_KEY,
    id: world.ids(),
    secret: base64url.encode(crypto.getRandomValues(new Uint8Array(32))),
    createdAt: world.clock().toISOString(),
  };
  await tx.put(signingKeysTable, record);
  return record;
}

/**
 * Issues a site token (the `apiToken` of a lookup): a JWT whose claims say what it reads, signed
 * with `key` ({@link siteTokenKey}, or {@link signingKey} when none is stored yet). It is about
 * 400 characters for a visitor without claims (the renderer puts it in file paths): ids only,
 * `spaces` holding the one space it reads, the visitor's claims only when there are some.
 *
 * The same grant gets the same token again while more than half its lifetime is left, so a
 * renderer that caches by token keeps its cache across lookups. It reads and writes no storage,
 * so a lookup runs in a read transaction.
 *
 * @example
 * ```ts
 * const apiToken = await issueSiteToken(key, world, {
 *   organization: site.organization, site: site.id, siteSection: undefined,
 *   siteSpace: siteSpace.id, space: space.id, revision: space.revision,
 *   address: context.clientAddress,
 * });
 * ```
 */
export async function issueSiteToken(
  key: SigningKeyRecord,
  world: Pick<World, "clock" | "cache">,
  grant: SiteTokenGrant,
): Promise<string> {
  const now = world.clock().getTime();
  const claims = grant.claims && Object.keys(grant.claims).length > 0 ? grant.claims : undefined;
  // JSON of an array: no separator an id, an address or a claim could forge.
  const memoKey = `site-token:${JSON.stringify([
    grant.address ?? "",
    grant.site,
    grant.siteSection ?? "",
    grant.siteSpace,
    grant.space,
    grant.revision,
    claims ?? {},
  ])}`;
  const issued = world.cache.get(memoKey) as IssuedSiteToken | undefined;
  // The key's id: a token signed with a key since lost (a restored storage) is not handed out.
  if (issued && issued.key === key.id && issued.expiresAt - now > SITE_TOKEN_LIFETIME_MS / 2) {
    return issued.token;
  }
  const exp = Math.floor((now + SITE_TOKEN_LIFETIME_MS) / 1000);
  const payload: SiteTokenPayload = {
    exp,
    kind: "site",
    organization: grant.organization,
    site: grant.site,
    ...(grant.siteSection === undefined ? {} : { siteSection: grant.siteSection }),
    siteSpace: grant.siteSpace,
    space: grant.space,
    spaces: [grant.space],
    revision: grant.revision,
    ...(claims ? { claims: { ...claims } } : {}),
    ...(grant.address === undefined ? {} : { address: grant.address }),
  };
  const { SignJWT } = await loadJose();
  const token = await new SignJWT(payload).setProtectedHeader({ alg: "HS256" }).sign(secretOf(key));
  world.cache.set(
    memoKey,
    { token, key: key.id, expiresAt: exp * 1000 } satisfies IssuedSiteToken,
    2 * (memoKey.length + token.length) + 256,
  );
  return token;
}

/** Whether a presented token has the form of a site token (a compact JWS), not of a `dbt_` one. */
export function isSiteToken(token: string): boolean {
  return token.startsWith("eyJ") && COMPACT_JWS.test(token);
}

/** The stored signing key of site tokens, if one was created. */
export const siteTokenKey = (tx: ReadTransaction) => tx.get(signingKeysTable, SITE_TOKEN_KEY);

/**
 * The caller a site token stands for, with a record of it as a stored token would read (for the
 * token cache's expiry check; never stored), or null when the signature, the algorithm, `exp` (at
 * `now`, no tolerance: docsbase signed it by the same clock) or a claim is wrong.
 */
export async function verifySiteToken(
  token: string,
  hash: string,
  key: SigningKeyRecord | undefined,
  now: Date,
): Promise<{ caller: Caller; record: TokenRecord } | null> {
  if (!key || !isSiteToken(token)) return null;
  const payload = await verifiedClaims(token, key, now, payloadSchema);
  if (!payload) return null;
  const record = unstoredRecord(hash, now, payload.exp, {
    kind: "space-reader",
    space: payload.space,
    revision: payload.revision,
    site: payload.site,
  });
  const caller: Caller = Object.freeze({
    userId: `${SITE_TOKEN_PREFIX}${record.id}`,
    operator: false,
    scope: Object.freeze({
      space: payload.space,
      revision: payload.revision,
      site: payload.site,
      claims: Object.freeze(payload.claims ?? {}),
      ...(payload.address === undefined ? {} : { address: payload.address }),
    }),
  });
  return { caller, record };
}

/**
 * The claims of `token`, signed with `key` and read by `schema`; null when the signature, the
 * algorithm, `exp` (at `now`, no tolerance: docsbase signed it by the same clock) or a claim is
 * wrong. Site, integration and installation tokens are all checked so.
 */
export async function verifiedClaims<T>(
  token: string,
  key: SigningKeyRecord,
  now: Date,
  schema: z.ZodType<T>,
): Promise<T | null> {
  const { jwtVerify } = await loadJose();
  try {
    const verified = await jwtVerify(token, secretOf(key), { algorithms: ["HS256"], currentDate: now });
    return schema.parse(verified.payload);
  } catch {
    return null;
  }
}

/**
 * A signed token as a stored token's record would read, for the token cache's expiry check: never
 * stored. Its id is the first 20 characters of the token's hash.
 */
export const unstoredRecord = (
  hash: string,
  now: Date,
  exp: number,
  more: Partial<TokenRecord> = {},
): TokenRecord => ({
  hash,
  id: hash.slice(0, 20),
  user: "",
  createdAt: now.toISOString(),
  expiresAt: new Date(exp * 1000).toISOString(),
  ...more,
});

/** A compact JWS of three non-empty base64url parts. */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** The HMAC secret: the key's bytes. */
export const secretOf = (key: SigningKeyRecord) => base64url.decode(key.secret);
