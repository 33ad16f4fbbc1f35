import { z } from "zod";
import { queryBoolean } from "../shared/schema.js";
import type { RevisionContent } from "./revisions.js";
import type { TreeNode } from "./tree.js";

/**
 * The body of a page read (reference parameters `format`, `evaluated`, `dereferenced`).
 *
 * - `format`: `markdown` returns the stored markdown; `document` the JSON document model.
 * - `evaluated`: `true` substitutes `{{ ... }}` expressions (space and page variables);
 *   `deterministic-only` substitutes only those whose value does not depend on the reader.
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

export function pageBody(_content: RevisionContent, query: PageBodyQuery) {
  return (node: TreeNode): { markdown: string } => {
    void query;
    return { markdown: node.version.markdown };
  };
}
