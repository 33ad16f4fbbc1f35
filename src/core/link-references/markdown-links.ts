import { jsonBytes } from "../shared/cache.js";
import type { Revision } from "../content-tree/revisions.js";
import type { PageVersionRecord } from "../content-tree/tables.js";
import type { DerivedCache } from "../shared/world.js";
import { answerQuestions, mergeQuestions, resolverFor, type LinkLookup } from "./lookup.js";
import { directoryOf, pageFilePath } from "./paths.js";
import {
  hasWrittenDestinations,
  linkSites,
  mayHoldReferences,
  noQuestions,
  remapReferences,
  renderLinks,
  storedQuestions,
  storeLinks,
  writtenQuestions,
  type LinkAnswers,
  type LinkSite,
} from "./references.js";

/**
 * Where page markdown enters and leaves the system (link-references/references.ts): writes store written
 * links as references ({@link storeWrittenMarkdown}); reads render them to current paths
 * ({@link linkRendering}). Each does its lookups in one asynchronous step between two pure ones.
 * `versions` given to {@link linkRendering} must include every page the read then renders.
 */

/** Where a page's written markdown stands: its parent ("" at the root), slug and, if it exists, id. */
export interface PagePlace {
  readonly parent: string;
  readonly slug: string;
  readonly page?: string;
}

/**
 * `markdown` written for a page at `place`, in its stored form: relative links to pages and files
 * of the content become references by id.
 * @example
 * ```ts
 * const stored = await storeWrittenMarkdown(resolverFor(content), "[Install](install.md)", { parent: "", slug: "intro" });
 * // "[Install](docsbase-ref:page/<id of install>)"
 * ```
 */
export async function storeWrittenMarkdown(
  lookup: LinkLookup,
  markdown: string,
  place: PagePlace,
): Promise<string> {
  const sites = linkSites(markdown);
  if (sites.length === 0) return markdown;
  const parentPath = place.parent ? ((await lookup.pathOf(place.parent)) ?? "") : "";
  const path = parentPath ? `${parentPath}/${place.slug}` : place.slug;
  const hasChildren = place.page !== undefined && (await lookup.hasChildren(place.page));
  const directory = directoryOf(pageFilePath(path, hasChildren));
  const answers = await answerQuestions(writtenQuestions(sites, directory), lookup);
  return storeLinks(markdown, sites, directory, answers);
}

/** Stored page markdown as readers see it, for pages of one content. */
export interface LinkRendering {
  /** The markdown with references rendered as relative paths. */
  markdown(version: PageVersionRecord): string;
  /**
   * The markdown to convert to a JSON document: destinations kept as references, which
   * `documentLinkRef` (link-references/references.ts) turns into `{kind: "page"}`, `{kind: "anchor"}` and
   * `{kind: "file"}` refs; HTML and GitBook blocks, which the document holds as text, rendered.
   */
  document(version: PageVersionRecord): string;
}

/** What a rendering prepares beyond references. */
export interface RenderingOptions {
  /**
   * Resolve, for `document`, link and image destinations still written as relative paths: a link
   * written before its target existed (or stored before references did) names the page or file at
   * that path now, as if written now. Costs a lookup per such path, so only reads that convert a
   * document ask for it.
   */
  readonly writtenLinks?: boolean;
}

/**
 * Prepares the rendering of `versions` (the pages a read presents) in the content `lookup` reads:
 * one lookup for all of them (two with `writtenLinks`: the pages' own places, then the paths their
 * links name from there). Markdown without a reference (all markdown stored before references
 * existed) is given back as stored, without being parsed, unless `writtenLinks` resolves its links.
 */
export async function linkRendering(
  lookup: LinkLookup,
  versions: Iterable<PageVersionRecord>,
  cache?: DerivedCache,
  options: RenderingOptions = {},
): Promise<LinkRendering> {
  const questions = noQuestions();
  const written = new Set<PageVersionRecord>();
  for (const version of versions) {
    if (mayHoldReferences(version.markdown)) {
      mergeQuestions(questions, storedQuestions(sitesOf(version, cache), version.page));
    }
    if (options.writtenLinks && hasWrittenDestinations(sitesOf(version, cache))) {
      written.add(version);
      questions.pageIds.add(version.page);
    }
  }
  let answers: LinkAnswers | undefined =
    questions.pageIds.size > 0 ? await answerQuestions(questions, lookup) : undefined;
  if (answers && written.size > 0) {
    const more = noQuestions();
    for (const version of written) {
      const directory = directoryOf(answers.pageFiles.get(version.page) ?? "");
      mergeQuestions(more, writtenQuestions(sitesOf(version, cache), directory));
    }
    // The first round asked no paths or names: these answers are all there are.
    const { pageByPath, fileByName } = await answerQuestions(more, lookup);
    answers = { ...answers, pageByPath, fileByName };
  }
  const render = (version: PageVersionRecord, keepDestinations: boolean) => {
    const resolveWritten = keepDestinations && written.has(version);
    return answers && (resolveWritten || mayHoldReferences(version.markdown))
      ? renderLinks(version.markdown, sitesOf(version, cache), version.page, answers, {
          keepDestinations,
          resolveWritten,
        })
      : version.markdown;
  };
  return {
    markdown: (version) => render(version, false),
    document: (version) => render(version, true),
  };
}

/** The link sites of a page version, parsed once: versions never change. */
function sitesOf(version: PageVersionRecord, cache?: DerivedCache): readonly LinkSite[] {
  const key = `link-sites:${version.id}`;
  let sites = cache?.get(key) as readonly LinkSite[] | undefined;
  if (!sites) {
    sites = linkSites(version.markdown);
    cache?.set(key, sites, jsonBytes(sites));
  }
  return sites;
}

/** {@link linkRendering} of pages of `content`, looked up with {@link resolverFor}. */
export function renderingFor(
  world: { readonly cache: DerivedCache },
  content: Revision,
  versions: Iterable<PageVersionRecord>,
  options?: RenderingOptions,
): Promise<LinkRendering> {
  return linkRendering(resolverFor(content), versions, world.cache, options);
}

/** Stored markdown copied with its pages under new ids (`pages`: old id to new id). */
export function remapPageReferences(markdown: string, pages: ReadonlyMap<string, string>): string {
  return mayHoldReferences(markdown) ? remapReferences(markdown, linkSites(markdown), pages) : markdown;
}
