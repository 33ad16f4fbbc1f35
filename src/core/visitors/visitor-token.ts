import * as base64url from "jose/base64url";
import { loadJose } from "../shared/jose.js";

/**
 * Visitor tokens of `visitor-auth` sites (issue 11, item 5): a JWT that the site owner's own
 * server signs with HS256, using the site's publishing key as the HMAC secret, and that docsbase
 * verifies before it resolves a published URL. The claims it carries become `visitor.claims`, the
 * input of section and site-space conditions. jose does the cryptography through Web Crypto, so
 * this runs unchanged in Node, browsers, workers, Deno and Bun.
 */

/**
 * Seconds of clock skew allowed on `exp` and `nbf`: the signer is another machine, whose clock may
 * differ from ours by a few seconds, and a token refused for that would be refused at random.
 * Thirty seconds is small next to the lifetime of any usable token (minutes to hours).
 */
export const VISITOR_TOKEN_CLOCK_TOLERANCE_SECONDS = 30;

/**
 * The registered claims of RFC 7519 (section 4.1). They describe the token, not the visitor, so
 * they are not passed on as `visitor.claims`.
 */
export const REGISTERED_CLAIMS: readonly string[] = ["iss", "sub", "aud", "exp", "nbf", "iat", "jti"];

/** Why a visitor token was refused. */
export type VisitorTokenFailure = "malformed" | "signature" | "expired" | "not-yet-valid" | "algorithm";

export type VisitorTokenResult =
  { ok: true; claims: Record<string, unknown> } | { ok: false; reason: VisitorTokenFailure };

/**
 * Verifies a visitor token against a site's publishing key at the instant `now`.
 *
 * - Only HS256 is accepted: `alg: none`, other HMAC sizes and asymmetric algorithms are refused
 *   with `algorithm`, before any key is used.
 * - The signature is checked before the claims, so a token signed with another key is
 *   `signature` whatever its `exp`.
 * - `exp` and `nbf` are optional (a token without `exp` never expires: that is the signer's
 *   choice); when present they are checked against `now` with
 *   {@link VISITOR_TOKEN_CLOCK_TOLERANCE_SECONDS} of tolerance.
 * - `claims` is the payload without the {@link REGISTERED_CLAIMS}: what the signer says about the
 *   visitor, as GitBook passes it on as `visitor.claims`.
 *
 * It never throws for a bad token; an empty key verifies nothing (`signature`).
 *
 * @example
 * ```ts
 * const result = await verifyVisitorToken(token, site.publishingKey, new Date());
 * if (!result.ok) throw notFound(`visitorAuthToken: ${result.reason}`);
 * const visible = evaluateCondition(parseCondition(section.condition), result.claims);
 * ```
 */
export async function verifyVisitorToken(token: string, key: string, now: Date): Promise<VisitorTokenResult> {
  if (typeof token !== "string" || !COMPACT_JWS.test(token)) return failure("malformed");
  if (!key) return failure("signature");
  const { jwtVerify } = await loadJose();
  try {
    const { payload } = await jwtVerify(token, secret(key), {
      algorithms: ["HS256"],
      currentDate: now,
      clockTolerance: VISITOR_TOKEN_CLOCK_TOLERANCE_SECONDS,
    });
    // `Object.entries` and `Object.fromEntries` define own properties, so a claim named
    // `__proto__` stays a plain claim and never becomes the result's prototype.
    const claims = Object.fromEntries(
      Object.entries(payload).filter(([name]) => !REGISTERED_CLAIMS.includes(name)),
    );
    return { ok: true, claims };
  } catch (error) {
    return failure(reasonOf(error));
  }
}

/**
 * A new publishing key: 32 random bytes (256 bits, the size of an HS256 output, as RFC 7518
 * section 3.2 asks of the secret) in base64url, 43 characters.
 *
 * @example
 * ```ts
 * await sitesTable.put(storage, { ...site, publishingKey: newPublishingKey() });
 * ```
 */
export function newPublishingKey(): string {
  return base64url.encode(crypto.getRandomValues(new Uint8Array(32)));
}

/** When a signed token takes effect and ends; each is left out of the token when not given. */
export interface VisitorTokenTimes {
  issuedAt?: Date;
  notBefore?: Date;
  expiresAt?: Date;
}

/**
 * Signs a visitor token the way a site owner's server would: HS256 with the publishing key. For
 * tests and documentation examples; docsbase itself only verifies.
 *
 * @example
 * ```ts
 * const token = await signVisitorToken({ plan: "pro" }, publishingKey, {
 *   expiresAt: new Date(Date.now() + 60 * 60 * 1000),
 * });
 * ```
 */
export async function signVisitorToken(
  claims: Record<string, unknown>,
  key: string,
  times: VisitorTokenTimes = {},
): Promise<string> {
  const { SignJWT } = await loadJose();
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: "HS256", typ: "JWT" });
  if (times.issuedAt) jwt.setIssuedAt(times.issuedAt);
  if (times.notBefore) jwt.setNotBefore(times.notBefore);
  if (times.expiresAt) jwt.setExpirationTime(times.expiresAt);
  return jwt.sign(secret(key));
}

/**
 * A compact JWS: three base64url parts, the signature possibly empty (as `alg: none` has it, which
 * is then refused for its algorithm). Checked first because base64 decoders skip whitespace and
 * would accept a token with a space in it.
 */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** The HMAC secret: the key string's UTF-8 bytes, as a site owner's JWT library would use it. */
const secret = (key: string) => new TextEncoder().encode(key);

const failure = (reason: VisitorTokenFailure): VisitorTokenResult => ({ ok: false, reason });

/** jose's error codes, mapped to the reasons callers act on; anything else is malformed input. */
function reasonOf(error: unknown): VisitorTokenFailure {
  const { code, claim, reason } = (error ?? {}) as { code?: unknown; claim?: unknown; reason?: unknown };
  switch (code) {
    case "ERR_JOSE_ALG_NOT_ALLOWED":
      return "algorithm";
    case "ERR_JWS_SIGNATURE_VERIFICATION_FAILED":
      return "signature";
    case "ERR_JWT_EXPIRED":
      return "expired";
    case "ERR_JWT_CLAIM_VALIDATION_FAILED":
      // A numeric `nbf` after `now` fails its check; a non-numeric one is malformed.
      return claim === "nbf" && reason === "check_failed" ? "not-yet-valid" : "malformed";
    default:
      return "malformed";
  }
}
