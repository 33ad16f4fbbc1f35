import { jsonBytes } from "../shared/cache.js";
import * as z from "zod";
import { queryBoolean } from "../shared/schema.js";
import type { LinkRendering } from "../link-references/markdown-links.js";
import { documentLinkRef } from "../link-references/references.js";
import { fnv1a } from "../shared/digest.js";
import type { DerivedCache } from "../shared/world.js";
import { evaluateMarkdown, markdownToDocument } from "../document/index.js";
import type { TreeNode } from "../content-tree/tree.js";
import type { PageVersionRecord } from "../content-tree/tables.js";

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

/**
 * A page read converting a document resolves the links still written as paths (link-references/
 * markdown-links.ts, `writtenLinks`); one returning markdown shows them as written.
 */
export const writtenLinksFor = (query: PageBodyQuery) => ({ writtenLinks: query.format !== "markdown" });

/** Space-level variables: none can be set yet, so expressions see only the page's own. */
const SPACE_VARIABLES: Readonly<Record<string, string>> = {};

/**
 * The body of each page read. A page version never changes, so its document is converted once and
 * kept in `cache` under `document:<pageVersionId>` (with the evaluation mode, which changes it).
 * Stored links are references by id (link-references/references.ts): the markdown shows their current paths
 * (`links`), the document their `{kind: "page"}`, `{kind: "anchor"}` or `{kind: "file"}` refs.
 */
export function pageBody(query: PageBodyQuery, links: LinkRendering, cache?: DerivedCache) {
  return (node: TreeNode): { markdown: string } | { document: Record<string, unknown> } => {
    const { version } = node;
    if (query.format === "markdown") {
      return { markdown: evaluated(links.markdown(version), version, query.evaluated) };
    }
    return { document: pageDocument(version, links, query.evaluated, cache) };
  };
}

/** The JSON document of a page version, converted once per evaluation mode (see {@link pageBody}). */
export function pageDocument(
  version: PageVersionRecord,
  links: LinkRendering,
  evaluation: PageBodyQuery["evaluated"],
  cache?: DerivedCache,
): Record<string, unknown> {
  const source = links.document(version);
  // HTML and GitBook blocks that hold references render to paths, which a rename changes.
  const rendered = source === version.markdown ? "" : `:${fnv1a(source)}`;
  const key = `document:${version.id}:${String(evaluation ?? false)}${rendered}`;
  let document = cache?.get(key) as Record<string, unknown> | undefined;
  if (!document) {
    const text = evaluated(source, version, evaluation);
    document = markdownToDocument(text, { linkRef: documentLinkRef(text) }) as unknown as Record<
      string,
      unknown
    >;
    cache?.set(key, document, jsonBytes(document));
  }
  return document;
}

/** `markdown` with its expressions substituted when `evaluation` asks for it. */
function evaluated(markdown: string, version: PageVersionRecord, evaluation: PageBodyQuery["evaluated"]) {
  return evaluation
    ? evaluateMarkdown(
        markdown,
        { space: { vars: SPACE_VARIABLES }, page: { vars: version.variables ?? {} } },
        { deterministicOnly: evaluation === "deterministic-only" },
      )
    : markdown;
}
