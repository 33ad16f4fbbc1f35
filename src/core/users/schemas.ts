import * as z from "zod";
import { wellFormed } from "../shared/schema.js";

/** Input limits of the users folder (docs/api.md, "Users and tokens"). */
export const USER_LIMITS = {
  displayName: 100,
  /** RFC 5321's longest forward path. */
  email: 254,
  tokenLabel: 100,
  /** Shortest and longest token lifetime at creation, in seconds (1 minute, 365 days). */
  minTokenLifetime: 60,
  maxTokenLifetime: 365 * 24 * 60 * 60,
} as const;

// Control characters have no place in a one-line name; U+0000 also breaks some storage engines.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;

/** One line of text, trimmed, of 1 to `max` characters, well-formed UTF-16 without controls. */
export const singleLine = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .check(wellFormed())
    .refine((text) => !CONTROL.test(text), "must not contain control characters");

export const userSchema = z.object({
  object: z.literal("user"),
  id: z.string(),
  displayName: z.string(),
  email: z.string().optional(),
  photoURL: z.string().optional(),
  urls: z.object({ location: z.string() }),
});
export type User = z.infer<typeof userSchema>;

/** A token as lists show it: never the token itself, nor its hash. */
export const apiTokenSchema = z.object({
  object: z.literal("api-token"),
  id: z.string(),
  createdAt: z.string(),
  expiresAt: z.string().optional(),
  lastUsedAt: z.string().optional(),
  label: z.string().optional(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

/** The body of a token creation: all optional, and the body itself too. */
export const createTokenBody = z
  .object({
    label: singleLine(USER_LIMITS.tokenLabel).optional(),
    /** Lifetime in seconds from now. */
    expiresIn: z
      .number()
      .int()
      .min(USER_LIMITS.minTokenLifetime)
      .max(USER_LIMITS.maxTokenLifetime)
      .optional(),
    /** The expiry as an ISO 8601 date-time with a time zone; bounded like `expiresIn`. */
    expiresAt: z.iso.datetime({ offset: true }).optional(),
  })
  .refine((body) => body.expiresIn === undefined || body.expiresAt === undefined, {
    message: "give expiresIn or expiresAt, not both",
    path: ["expiresAt"],
  })
  .optional();
