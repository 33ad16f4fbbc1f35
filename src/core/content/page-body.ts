import { jsonBytes } from "../shared/cache.js";
import * as z from "zod";
import { queryBoolean } from "../shared/schema.js";
import type { LinkRendering } from "../link-references/markdown-links.js";
import { documentLinkRef } from "../link-references/references.js";
import { fnv1a } from "../shared/digest.js";
import type { DerivedCache } from "../shared/world.js";
import { INCLUDE_PATTERN, evaluateMarkdown, markdownToDocument } from "../document/index.js";
import type { Revision } from "../content-tree/revisions.js";
import type { TreeNode } from "../content-tree/tree.js";
import type { PageVersionRecord, ReusableContentVersionRecord } from "../content-tree/tables.js";

/**
 * The body of a page read (reference parameters `format`, `evaluated`, `dereferenced`).
 *
 * - `format`: `document` (the default, as in the reference) returns the JSON document model
 *   converted from the stored markdown; `markdown` returns the markdown.
 * - `evaluated`: `true` substitutes `{{ ... }}` expressions with the space's and the page's
 *   variables; `deterministic-only` substitutes only plain variable lookups.
 * - `dereferenced`: `reusable-contents` (or `true`) inlines the reusable contents a page includes
 *   (`{% include "<id>" %}`, a `reusable-content` block): their markdown takes the include's place
 *   before the body is converted, so both formats show it. Without it, the markdown shows the
 *   include as written and the document a `reusable-content` block.
 */
export const pageBodyQuery = {
  format: z.enum(["document", "markdown"]).optional(),
  evaluated: z.union([queryBoolean(), z.literal("deterministic-only")]).optional(),
  dereferenced: z.union([queryBoolean(), z.literal("reusable-contents")]).optional(),
};

export interface PageBodyQuery {
  format?: "document" | "markdown" | undefined;
  evaluated?: boolean | "deterministic-only" | undefined;
  dereferenced?: boolean | "reusable-contents" | undefined;
}

/** Reusable content versions by id, to inline where pages include them. */
export type Includes = ReadonlyMap<string, Pick<ReusableContentVersionRecord, "id" | "markdown">>;

const INCLUDE_LINE = new RegExp(INCLUDE_PATTERN.source.replace(/^\^|\$$/g, ""), "g");

/**
 * The reusable contents that `versions` include, read from `content` (one lookup each), when
 * `query` asks to inline them; undefined otherwise.
 */
export async function includesFor(
  query: PageBodyQuery,
  content: Pick<Revision, "reusableContent">,
  versions: Iterable<Pick<PageVersionRecord, "markdown">>,
): Promise<Includes | undefined> {
  if (query.dereferenced !== true && query.dereferenced !== "reusable-contents") return undefined;
  const ids = new Set<string>();
  for (const version of versions) {
    if (!version.markdown.includes("{% include ")) continue;
    for (const match of version.markdown.matchAll(INCLUDE_LINE)) ids.add(match[1]!);
  }
  const includes = new Map<string, ReusableContentVersionRecord>();
  for (const id of ids) {
    const found = await content.reusableContent(id);
    if (found) includes.set(id, found);
  }
  return includes;
}

/**
 * `markdown` with each include alone on its line replaced by the included markdown (one level:
 * a reusable content's own includes stay as written); an include of a missing content goes.
 */
export function inlineIncludes(markdown: string, includes: Includes | undefined): string {
  if (!includes || !markdown.includes("{% include ")) return markdown;
  return markdown
    .split("\n")
    .map((line) => {
      const id = INCLUDE_PATTERN.exec(line.trim())?.[1];
      return id === undefined ? line : (includes.get(id)?.markdown.trim() ?? "");
    })
    .join("\n");
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
export function pageBody(
  query: PageBodyQuery,
  links: LinkRendering,
  cache?: DerivedCache,
  includes?: Includes,
) {
  return (node: TreeNode): { markdown: string } | { document: Record<string, unknown> } => {
    const { version } = node;
    if (query.format === "markdown") {
      const markdown = inlineIncludes(links.markdown(version), includes);
      return { markdown: evaluated(markdown, version, query.evaluated) };
    }
    return { document: pageDocument(version, links, query.evaluated, cache, includes) };
  };
}

/** The JSON document of a page version, converted once per evaluation mode (see {@link pageBody}). */
export function pageDocument(
  version: PageVersionRecord,
  links: LinkRendering,
  evaluation: PageBodyQuery["evaluated"],
  cache?: DerivedCache,
  includes?: Includes,
): Record<string, unknown> {
  const source = inlineIncludes(links.document(version), includes);
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

/**
 * `markdown` with its expressions substituted when `evaluation` asks for it; `version` gives the
 * page's variables (a reusable content has none of its own).
 */
export function evaluated(
  markdown: string,
  version: Pick<PageVersionRecord, "variables">,
  evaluation: PageBodyQuery["evaluated"],
) {
  return evaluation
    ? evaluateMarkdown(
        markdown,
        { space: { vars: SPACE_VARIABLES }, page: { vars: version.variables ?? {} } },
        { deterministicOnly: evaluation === "deterministic-only" },
      )
    : markdown;
}
