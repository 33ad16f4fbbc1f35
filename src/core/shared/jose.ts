/**
 * jose's JWT signing and verification, imported the first time a token is signed or verified.
 * Reader, visitor and integration tokens are the only JWTs docsbase handles, and most requests
 * carry none: a browser bundle with code splitting keeps them in a chunk of their own, fetched on
 * first use (docs/browser.md). jose's `base64url` and `decodeJwt` stay static imports: they are
 * small and used synchronously.
 */
export const loadJose = (): Promise<typeof import("./jwt.js")> => import("./jwt.js");
