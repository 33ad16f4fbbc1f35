import type { ReadTransaction, WriteTransaction } from "../storage/port.js";
import { type TokenRecord, tokensTable, usersTable } from "./tables.js";
import type { Caller, World } from "../shared/world.js";
import { randomId } from "../shared/world.js";

/**
 * API tokens. A token is 40 random base62 characters (about 238 bits) behind a `dbt_` prefix, so a
 * plain SHA-256 of it is enough to store: there is nothing to brute-force, unlike a password.
 * Only the hash is stored; the token is shown once, when it is created.
 */
export const TOKEN_PREFIX = "dbt_";

export function newToken(): string {
  return TOKEN_PREFIX + randomId(40);
}

export async function hashToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Stores a token for a user; idempotent for the same token. */
export async function storeToken(tx: WriteTransaction, world: World, user: string, token: string) {
  const hash = await hashToken(token);
  const existing = await tx.get(tokensTable, hash);
  if (existing) return existing;
  const record: TokenRecord = { hash, id: world.ids(), user, createdAt: world.clock().toISOString() };
  await tx.put(tokensTable, record);
  return record;
}

/** The caller a bearer token stands for, or null when the token is unknown. */
export async function callerForToken(tx: ReadTransaction, token: string): Promise<Caller | null> {
  const record = await tx.get(tokensTable, await hashToken(token));
  if (!record) return null;
  const user = await tx.get(usersTable, record.user);
  if (!user) return null;
  return { userId: user.id, operator: user.kind === "operator" };
}
