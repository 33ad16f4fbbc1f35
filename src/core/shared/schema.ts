import { z } from "zod";

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

/** A path parameter: a non-empty string. */
export const pathParam = () => z.string().min(1);

/** A date-time string as the reference `Timestamp`. */
export const timestamp = () => z.string();

/** `urls` objects: absolute URI strings. */
export const url = () => z.string();

/** Formats zod issues so the message names each field and its rule (DESIGN.md, "Errors"). */
export function describeIssues(where: string, error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = [where, ...issue.path.map(String)].filter(Boolean).join(".");
      return `${path}: ${issue.message}`;
    })
    .join("; ");
}
