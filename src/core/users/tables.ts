import * as z from "zod";
import { defineTable } from "../storage/table.js";

/** "operator" for the bootstrap user who manages users, "user" otherwise. */
export const userKind = z.enum(["operator", "user"]);

export const userRecord = z.object({
  id: z.string(),
  displayName: z.string(),
  email: z.string(),
  /** Lower-cased email, for lookups by email. */
  emailKey: z.string(),
  photoURL: z.string().optional(),
  kind: userKind,
  createdAt: z.string(),
});
export type UserRecord = z.infer<typeof userRecord>;

/** The key `byEmail` finds a user by: the email lower-cased (one user per address, in any case). */
export const emailKeyOf = (email: string) => email.toLowerCase();

/**
 * A new user's record, for `createUser`, the operator's bootstrap and a replica's local copy of
 * its remote user: the email kept as given, and its {@link emailKeyOf}.
 */
export function newUserRecord(
  fields: Pick<UserRecord, "id" | "displayName" | "email" | "photoURL"> & {
    readonly kind?: UserRecord["kind"];
  },
  createdAt: string,
): UserRecord {
  return {
    id: fields.id,
    displayName: fields.displayName,
    email: fields.email,
    emailKey: emailKeyOf(fields.email),
    ...(fields.photoURL !== undefined ? { photoURL: fields.photoURL } : {}),
    kind: fields.kind ?? "user",
    createdAt,
  };
}

export const usersTable = defineTable({
  name: "users",
  key: "id",
  indexes: { byEmail: ["emailKey"], byKind: ["kind", "createdAt"] },
  record: userRecord,
});

export const tokenRecord = z.object({
  /** SHA-256 of the token, hex. The token itself is never stored. */
  hash: z.string(),
  id: z.string(),
  user: z.string(),
  createdAt: z.string(),
  /** When the token stops authenticating (ISO date-time); absent for a token that never expires. */
  expiresAt: z.string().optional(),
  /** Last authentication, recorded at most once a minute (`LAST_USED_GRANULARITY_MS`). */
  lastUsedAt: z.string().optional(),
  /** The creator's note on what the token is for. */
  label: z.string().optional(),
  /**
   * Set on the operator token that `bootstrap` registered (printed once, or `DOCSBASE_ADMIN_TOKEN`).
   * There is at most one: bootstrapping with another token deletes it. Tokens stored by docsbase 0.1.0
   * carry no mark until bootstrap registers them again.
   */
  bootstrap: z.literal(true).optional(),
  /**
   * `space-reader` for the short-lived read-only tokens that published-content lookups hand out
   * (`apiToken`): such a token stands for no user (`user` is ""), reads only `space` (its current
   * content and `revision`), and always has `expiresAt`.
   */
  kind: z.literal("space-reader").optional(),
  space: z.string().optional(),
  revision: z.string().optional(),
  /** A reader token's site, whose rate limit its requests count against. */
  site: z.string().optional(),
  /** The rate-limit key of the address that obtained a reader token, which its requests count against. */
  address: z.string().optional(),
});
export type TokenRecord = z.infer<typeof tokenRecord>;

export const tokensTable = defineTable({
  name: "tokens",
  key: "hash",
  indexes: { byUser: ["user", "createdAt"], byId: ["id"], byKind: ["kind", "expiresAt"] },
  record: tokenRecord,
});

/**
 * Keys docsbase signs its own tokens with, one record per use (`name`). Kept in the database so
 * that every instance sharing it signs and verifies alike; created once, on first use, and never
 * changed (see `site-token.ts`). The secret never leaves the server.
 */
export const signingKeyRecord = z.object({
  name: z.string(),
  /** Distinguishes a key from one created after a storage was restored without it. */
  id: z.string(),
  /** 32 random bytes in base64url: the HMAC key. */
  secret: z.string(),
  createdAt: z.string(),
});
export type SigningKeyRecord = z.infer<typeof signingKeyRecord>;

export const signingKeysTable = defineTable({
  name: "signingKeys",
  key: "name",
  indexes: {},
  record: signingKeyRecord,
});
