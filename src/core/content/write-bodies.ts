import * as z from "zod";
import { boundedId, wellFormed } from "../shared/schema.js";
import { markdownLimitError } from "../document/markdown.js";
import { SLUG_PATTERN } from "../content-tree/tree.js";

/** Request bodies of the content writes (see writes.ts), with their limits. */

const slug = z
  .string()
  .max(100)
  .regex(SLUG_PATTERN, "Lower-case letters and digits joined by hyphens")
  .check(wellFormed());
const title = z.string().trim().min(1).max(255).check(wellFormed());
const emoji = z.string().min(1).max(50);
/**
 * Page markdown: 1 MB, nested at most 64 levels, and within the parser's work budget
 * (`markdownLimitError`, docs/api.md "Markdown limits"), so that every read of it is bounded.
 */
const markdown = z
  .string()
  .max(1_000_000)
  .superRefine((value, context) => {
    const error = markdownLimitError(value);
    if (error) context.addIssue({ code: "custom", message: error });
  });
const description = z.string().max(1000);
/** Page variables, read by `{{ page.vars.name }}` expressions. */
const variables = z.record(
  z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "Variable names are identifiers")
    .max(100),
  z.string().max(10_000),
);

/** The field schemas of a page, with the limits every write of a page applies. */
export const pageFieldSchemas = { title, markdown, slug, emoji, description, variables };

export const createPageBody = z.object({
  title,
  markdown: markdown.optional(),
  parent: boundedId().optional(),
  emoji: emoji.optional(),
  description: description.optional(),
  slug: slug.optional(),
  hidden: z.boolean().optional(),
  variables: variables.optional(),
});

export const updatePageBody = z
  .object({
    title: title.optional(),
    markdown: markdown.optional(),
    /** A page id to move under, `null` to move to the root. A move puts the page last. */
    parent: boundedId().nullable().optional(),
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
    // Control characters are refused too: the name goes into the Content-Disposition of downloads.
    // eslint-disable-next-line no-control-regex
    .regex(/^[^/\\\u0000-\u001f\u007f]+$/, "A file name without slashes or control characters")
    .check(wellFormed()),
  contentType: z
    .string()
    .regex(/^[\w.+-]+\/[\w.+-]+$/, "A media type such as image/png")
    .transform((type) => type.toLowerCase()),
  /** The bytes, base64. */
  data: z.base64(),
});

/** Reusable contents take a page's title and markdown limits. */
export const createReusableContentBody = z.object({ title, markdown: markdown.optional() });

export const updateReusableContentBody = z
  .object({ title: title.optional(), markdown: markdown.optional() })
  .refine((body) => body.title !== undefined || body.markdown !== undefined, {
    error: "Expected at least one property",
  });

/**
 * A page's texts with their write limits, for text that reaches a page by another way than these
 * bodies (a translation engine's answers).
 */
export const pageTexts = z.object({ title, description: description.optional(), markdown });
