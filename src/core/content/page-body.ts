import { z } from "zod";
import { queryBoolean } from "../shared/schema.js";
import { evaluateMarkdown, markdownToDocument } from "./document/index.js";
import type { TreeNode } from "./tree.js";

/**
 * The body of a page read (reference parameters `format`, `evaluated`, `dereferenced`).
 *
 * - `format`: `document` (the default, as in the reference) returns the JSON document model
 *   converted from the stored markdown; `markdown` returns the markdown.
 * - `evaluated`: `true` substitutes `{{ ... }}` expressions with the space's and the page's
 *   variables; `deterministic-only` substitutes only plain variable lookups.
 * - `dereferenced`: accepted; there are no reusable contents to inline yet, so it changes nothing.
 */
export const pageBodyQuery = {
  format: z.enum(["document", "markdown"]).optional(),
  evaluated: z.union([queryBoolean(), z.literal("deterministic-only")]).optional(),
  dereferenced: z.union([queryBoolean(), z.literal("reusable-contents")]).optional(),
};

export interface PageBodyQuery {
  format?: "document" | "markdown" | undefined;
  evaluated?: boolean | "deterministic-only" | undefined;
}

/** Space-level variables: none can be set yet, so expressions see only the page's own. */
const SPACE_VARIABLES: Readonly<Record<string, string>> = {};

export function pageBody(query: PageBodyQuery) {
  return (node: TreeNode): { markdown: string } | { document: Record<string, unknown> } => {
    let markdown = node.version.markdown;
    if (query.evaluated) {
      markdown = evaluateMarkdown(
        markdown,
        { space: { vars: SPACE_VARIABLES }, page: { vars: node.version.variables ?? {} } },
        { deterministicOnly: query.evaluated === "deterministic-only" },
      );
    }
    if (query.format === "markdown") return { markdown };
    return { document: markdownToDocument(markdown) as unknown as Record<string, unknown> };
  };
}
