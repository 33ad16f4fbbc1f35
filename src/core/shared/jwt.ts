/**
 * What `loadJose` (jose.ts) loads: jose's JWT signing and verification, nothing else of it (its
 * subpath modules, so that the static imports of `jose/base64url` and `jose/jwt/decode` elsewhere
 * do not pull them into the first chunk).
 */
export { SignJWT } from "jose/jwt/sign";
export { jwtVerify } from "jose/jwt/verify";
