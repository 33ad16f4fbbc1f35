import { z } from "zod";
import { SLUG_PATTERN } from "./tree.js";

/** Request bodies of the content writes (see writes.ts), with their limits. */

const slug = z.string().max(100).regex(SLUG_PATTERN, "Lower-case letters and digits joined by hyphens");
const title = z.string().trim().min(1).max(255);
const emoji = z.string().min(1).max(50);
const description = z.string().max(1000);
/** Page variables, read by `{{ page.vars.name }}` expressions. */
const variables = z.record(
  z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "Variable names are identifiers")
    .max(100),
  z.string().max(10_000),
);

export const createPageBody = z.object({
  title,
  markdown: z.string().max(1_000_000).optional(),
  parent: z.string().min(1).optional(),
  emoji: emoji.optional(),
  description: description.optional(),
  slug: slug.optional(),
  hidden: z.boolean().optional(),
  variables: variables.optional(),
});

export const updatePageBody = z
  .object({
    title: title.optional(),
    markdown: z.string().max(1_000_000).optional(),
    /** A page id to move under, `null` to move to the root. A move puts the page last. */
    parent: z.string().min(1).nullable().optional(),
    emoji: emoji.nullable().optional(),
    description: description.nullable().optional(),
    slug: slug.optional(),
    hidden: z.boolean().optional(),
    variables: variables.optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    error: "Expected at least one property",
  });

export const uploadFileBody = z.object({
  name: z
    .string()
    .min(1)
    .max(255)
    .regex(/^[^/\\]+$/, "A file name without slashes"),
  contentType: z
    .string()
    .regex(/^[\w.+-]+\/[\w.+-]+$/, "A media type such as image/png")
    .transform((type) => type.toLowerCase()),
  /** The bytes, base64. */
  data: z.base64(),
});
