import { z } from "zod";
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
});
export type TokenRecord = z.infer<typeof tokenRecord>;

export const tokensTable = defineTable({
  name: "tokens",
  key: "hash",
  indexes: { byUser: ["user", "createdAt"] },
  record: tokenRecord,
});
