import * as z from "zod";

/**
 * Schema helpers shared by operations. Query strings arrive as text over HTTP and as typed values
 * in process, so query schemas accept both.
 */

/** A boolean query parameter: `true`/`false` as booleans or as the strings "true"/"false". */
export const queryBoolean = () =>
  z.union([z.boolean(), z.enum(["true", "false"]).transform((value) => value === "true")]);

/** An integer query parameter, from a number or its decimal text. */
export const queryInteger = (min: number, max: number) =>
  z
    .union([
      z.number(),
      z
        .string()
        .regex(/^-?\d+$/, "Expected an integer")
        .transform(Number),
    ])
    .pipe(z.number().int().min(min).max(max));

/** Longest id a client may send: path parameters and ids in bodies and queries (docs/api.md, "Limits"). */
export const MAX_ID_LENGTH = 128;
/** Longest URL a client may store (the API's limit for the organization logo URL, max 2048). */
export const MAX_URL_LENGTH = 2048;

/**
 * An id sent by a client (`parent`, `tableCell.record`, a member's user id...). Generated ids are
 * far shorter than the bound; it only keeps hostile input from being stored or compared.
 */
export const boundedId = () => z.string().min(1).max(MAX_ID_LENGTH);

/**
 * A path parameter: a non-empty string of at most `max` characters (an id unless a longer bound is
 * given, as for a page path).
 */
export const pathParam = (max = MAX_ID_LENGTH) => z.string().min(1).max(max);

/**
 * An absolute `http:` or `https:` URL as the WHATWG URL parser reads it, at most `MAX_URL_LENGTH`
 * characters. Other schemes (`javascript:`, `data:`, `file:`...) are refused: such a URL is shown
 * by clients as a link or an image source, where they would run script or read local files.
 * Whitespace and control characters are refused rather than stripped, so that what is stored is
 * exactly what every URL parser reads.
 *
 * @example
 * z.object({ logo: httpUrl().nullable().optional() })
 */
export const httpUrl = () =>
  z.string().max(MAX_URL_LENGTH).refine(isHttpUrl, { error: "Expected an absolute http: or https: URL" });

/**
 * Whether `value` is a URL `httpUrl` accepts: for stored URLs, which records written before the
 * check (docsbase 0.1.0) may hold with another scheme.
 */
export function isHttpUrl(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (value.length > MAX_URL_LENGTH || /[\u0000-\u0020\u007f]/.test(value)) return false;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return false;
  }
  return (parsed.protocol === "http:" || parsed.protocol === "https:") && parsed.hostname !== "";
}

/**
 * Refuses ill-formed UTF-16 (a lone surrogate, which JSON's `\ud800` escape can carry): it has no
 * UTF-8 encoding, so it could not go into a URL, a header or a database row unaltered. Every name,
 * title, slug and display name carries this check.
 *
 * @example
 * z.string().trim().min(1).max(255).check(wellFormed())
 */
export const wellFormed = () =>
  z.refine<string>((text) => !/\p{Cs}/u.test(text), {
    error: "must be well-formed Unicode text (no lone surrogate)",
  });

/** A date-time string as the reference `Timestamp`. */
export const timestamp = () => z.string();

/** `urls` objects: absolute URI strings. */
export const url = () => z.string();

/** Formats zod issues so the message names each field and its rule: a 400 a caller can act on. */
export function describeIssues(where: string, error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = [where, ...issue.path.map(String)].filter(Boolean).join(".");
      return `${path}: ${issue.message}`;
    })
    .join("; ");
}
