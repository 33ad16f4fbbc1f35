import type { Nodes } from "mdast";
import type { ContentRef } from "../document/types.js";
import type { LinkRef } from "../document/from-markdown-inlines.js";
import { destinationOf, parseMarkdown } from "../document/markdown.js";
import { textMemo } from "../shared/text-memo.js";
import {
  ASSETS_DIRECTORY,
  MISSING_DIRECTORY,
  directoryOf,
  encodeSegment,
  linkPath,
  pagePathOf,
  relativePath,
} from "./paths.js";

/**
 * Internal links stored as references by id (docs/api.md, "Links are references").
 *
 * Page markdown is stored with each link to a page, a file or an anchor of a page written as a
 * reserved URL: `docsbase-ref:page/<pageId>` (with the `?query#anchor` as written after it),
 * `docsbase-ref:file/<fileId>`. Writes turn the relative paths a user writes into these; every
 * read renders them back to the target's current path, relative to the linking page. So a rename
 * or a move changes no stored text: no link breaks, and a three-way merge sees no change on the
 * linking page. A reference in the markdown itself (rather than a side table of references) keeps
 * one text to diff, merge, translate and copy, and the link's place in that text is its identity.
 *
 * References are honoured only where a link target is written: link, image and definition
 * destinations, `href` and `src` attributes of raw HTML, and the `url`/`src` of GitBook's
 * `{% file %}`, `{% embed %}` and `{% content-ref %}` blocks. Autolinks (`<scheme:...>`) and text
 * never are. A target a user writes in the reserved form is escaped on write as
 * `docsbase-ref:url/<as written>` and rendered back exactly as written, so it is never taken for a
 * reference. Markdown stored before references existed keeps its text links, which resolve by path
 * as they always did.
 *
 * Conversions come in three steps so that the content lookups between them can be asynchronous:
 * find what a markdown needs ({@link writtenQuestions}, {@link storedQuestions}), let the caller
 * answer it (link-references/lookup.ts, `answerQuestions`), then convert synchronously with the answers
 * ({@link storeLinks}, {@link renderLinks}).
 */

export const REFERENCE_SCHEME = "docsbase-ref:";
const LITERAL_PREFIX = `${REFERENCE_SCHEME}url/`;

export type StoredReference =
  | { readonly kind: "page"; readonly page: string; readonly suffix: string }
  | { readonly kind: "file"; readonly file: string; readonly suffix: string }
  /** A target written in the reserved form by a user: `url` is what they wrote. */
  | { readonly kind: "literal"; readonly url: string };

export const isReservedUrl = (url: string) =>
  url.slice(0, REFERENCE_SCHEME.length).toLowerCase() === REFERENCE_SCHEME;

/** Cheap test for markdown that may hold references (most pages hold none). */
export const mayHoldReferences = (markdown: string) => /docsbase-ref:/i.test(markdown);

/** The reference a stored target holds, or undefined for any other target. */
export function parseReference(url: string): StoredReference | undefined {
  if (!isReservedUrl(url)) return undefined;
  const rest = url.slice(REFERENCE_SCHEME.length);
  if (rest.startsWith("url/")) return { kind: "literal", url: rest.slice(4) };
  const match = /^(page|file)\/([^/?#\s]+)(.*)$/s.exec(rest);
  if (!match) return { kind: "literal", url };
  const [, kind, id = "", suffix = ""] = match;
  return kind === "page" ? { kind: "page", page: id, suffix } : { kind: "file", file: id, suffix };
}

export const pageReference = (page: string, suffix = "") => `${REFERENCE_SCHEME}page/${page}${suffix}`;
export const fileReference = (file: string, suffix = "") => `${REFERENCE_SCHEME}file/${file}${suffix}`;

/** Where a link target is written in markdown. */
export interface LinkSite {
  /** Source range of the target as written (inside the `<` `>` of a bracketed destination). */
  readonly start: number;
  readonly end: number;
  /** The target as the parser reads it (escapes and entities of a destination decoded). */
  readonly url: string;
  /** A link or definition destination, an image's, an HTML attribute, a GitBook block's target. */
  readonly where: "destination" | "image" | "html" | "block";
}

const BLOCK_TAG = /\{%\s*(?:file|embed|content-ref)\s+(?:src|url)\s*=\s*"([^"]+)"/g;
const HTML_ATTRIBUTE = /\b(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;

/**
 * What every link target needs in its text: an inline destination follows `](`, a definition's
 * `]:`, a GitBook block opens with `{%`, an HTML target is an `href` or `src` attribute. Markdown
 * with none of them has no sites, and is not parsed.
 */
const MAY_HOLD_TARGETS = /\]\(|\]:|\{%|\b(?:href|src)\s*=/i;

/**
 * The sites of every link target in `markdown`, in source order. Remembered for the last 512 texts
 * of up to 16 KiB (`textMemo`), since finding them parses the text: the array is frozen.
 */
export const linkSites: (markdown: string) => readonly LinkSite[] = textMemo(
  (markdown) => Object.freeze(findLinkSites(markdown)),
  { entries: 512, maxChars: 16_384 },
);

function findLinkSites(markdown: string): LinkSite[] {
  if (!MAY_HOLD_TARGETS.test(markdown)) return [];
  const tree = parseMarkdown(markdown);
  const sites: LinkSite[] = [];
  const inSource = (from: number, to: number, pattern: RegExp, text: string, where: LinkSite["where"]) => {
    let cursor = from;
    for (const match of text.matchAll(pattern)) {
      const value = match[1] ?? match[2] ?? "";
      const at = markdown.indexOf(match[0], cursor);
      if (at < 0 || at >= to) continue;
      const end = at + match[0].length - 1;
      sites.push({ start: end - value.length, end, url: value, where });
      cursor = at + match[0].length;
    }
  };
  walk(tree, (node) => {
    // The tree keeps a link's URL; the parse recorded where it is written (`destinationOf`).
    const destination = destinationOf(node);
    if (destination && "url" in node) {
      const { start, end } = destination;
      const bracketed = markdown[start] === "<" && markdown[end - 1] === ">";
      const range = bracketed ? { start: start + 1, end: end - 1 } : { start, end };
      sites.push({ ...range, url: node.url, where: node.type === "image" ? "image" : "destination" });
    }
    const from = node.position?.start.offset;
    const to = node.position?.end.offset;
    if (from === undefined || to === undefined) return;
    if (node.type === "html") inSource(from, to, HTML_ATTRIBUTE, node.value, "html");
    if (node.type === "paragraph") inSource(from, to, BLOCK_TAG, markdown.slice(from, to), "block");
  });
  sites.sort((a, b) => a.start - b.start);
  return sites.filter((site, index) => index === 0 || site.start >= sites[index - 1]!.end);
}

function walk(node: Nodes, visit: (node: Nodes) => void): void {
  visit(node);
  if ("children" in node) for (const child of node.children) walk(child, visit);
}

/** What a conversion needs from the content: asked by a caller of the lookup. */
export interface LinkQuestions {
  /** Tree paths of pages ("" for the first page). */
  readonly pagePaths: Set<string>;
  readonly fileNames: Set<string>;
  /** Pages whose file (`a/b.md`, `a/b/README.md`) is needed. */
  readonly pageIds: Set<string>;
  readonly fileIds: Set<string>;
}

/** The answers of the lookup; an absent key is content that does not exist. */
export interface LinkAnswers {
  readonly pageByPath: ReadonlyMap<string, string>;
  readonly fileByName: ReadonlyMap<string, string>;
  /** Page id to its file in the Git Sync layout. */
  readonly pageFiles: ReadonlyMap<string, string>;
  readonly fileNames: ReadonlyMap<string, string>;
}

export const noQuestions = (): LinkQuestions => ({
  pagePaths: new Set(),
  fileNames: new Set(),
  pageIds: new Set(),
  fileIds: new Set(),
});

/** What a written target names, before the lookup. */
type Written =
  | { readonly kind: "page-path"; readonly path: string }
  | { readonly kind: "file-name"; readonly name: string }
  | { readonly kind: "page" | "file"; readonly id: string };

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

function writtenTarget(url: string, fromDirectory: string): Written | undefined {
  const trimmed = url.trim();
  if (!trimmed || trimmed.startsWith("#") || trimmed.startsWith("?")) return undefined;
  if (trimmed.startsWith("//") || SCHEME.test(trimmed)) return undefined;
  const path = linkPath(trimmed, fromDirectory);
  if (path.startsWith(`${ASSETS_DIRECTORY}/`)) {
    return { kind: "file-name", name: path.slice(ASSETS_DIRECTORY.length + 1) };
  }
  const missing = /^\.gitbook\/missing\/(page|file)\/([^/]+)$/.exec(path);
  if (missing) return { kind: missing[1] as "page" | "file", id: missing[2]! };
  return { kind: "page-path", path: pagePathOf(path) };
}

/** The questions of storing `markdown` written for a page whose links start at `fromDirectory`. */
export function writtenQuestions(sites: readonly LinkSite[], fromDirectory: string): LinkQuestions {
  const questions = noQuestions();
  for (const site of sites) {
    if (isReservedUrl(site.url)) continue;
    const target = writtenTarget(site.url, fromDirectory);
    if (target?.kind === "page-path") questions.pagePaths.add(target.path);
    else if (target?.kind === "file-name") questions.fileNames.add(target.name);
  }
  return questions;
}

/** `raw` from its first `?` or `#`: what follows the path, kept as written. */
const suffixOf = (raw: string) => {
  const at = raw.search(/[?#]/);
  return at < 0 ? "" : raw.slice(at);
};

/**
 * Written markdown in its stored form: each target naming a page or a file of the content becomes
 * a reference; a target written in the reserved form is escaped; anything else (external URLs,
 * same-page anchors, paths naming nothing) stays as written.
 */
export function storeLinks(
  markdown: string,
  sites: readonly LinkSite[],
  fromDirectory: string,
  answers: LinkAnswers,
): string {
  return replaceSites(markdown, sites, (site, raw) =>
    isReservedUrl(site.url) ? LITERAL_PREFIX + raw : referenceOfWritten(site, raw, fromDirectory, answers),
  );
}

/** The reference a written (not reserved) target is stored as, or undefined when it stays as written. */
function referenceOfWritten(
  site: LinkSite,
  raw: string,
  fromDirectory: string,
  answers: LinkAnswers,
): string | undefined {
  const target = writtenTarget(site.url, fromDirectory);
  switch (target?.kind) {
    case "page-path": {
      const page = answers.pageByPath.get(target.path);
      return page === undefined ? undefined : pageReference(page, suffixOf(raw));
    }
    case "file-name": {
      const file = answers.fileByName.get(target.name);
      return file === undefined ? undefined : fileReference(file, suffixOf(raw));
    }
    case "page":
      return pageReference(target.id, suffixOf(raw));
    case "file":
      return fileReference(target.id, suffixOf(raw));
    default:
      return undefined;
  }
}

/**
 * Whether stored markdown keeps a link or image destination written as a relative path, which
 * named nothing when it was written (or was stored before references existed) and may name a page
 * or a file now ({@link RenderOptions.resolveWritten}).
 */
export function hasWrittenDestinations(sites: readonly LinkSite[]): boolean {
  return sites.some((site) => isWrittenDestination(site) && writtenTarget(site.url, "") !== undefined);
}

const isWrittenDestination = (site: LinkSite) =>
  (site.where === "destination" || site.where === "image") && !isReservedUrl(site.url);

/** The questions of rendering stored markdown of page `source`. */
export function storedQuestions(sites: readonly LinkSite[], source: string): LinkQuestions {
  const questions = noQuestions();
  questions.pageIds.add(source);
  for (const site of sites) {
    const reference = parseReference(site.url);
    if (reference?.kind === "page") questions.pageIds.add(reference.page);
    else if (reference?.kind === "file") questions.fileIds.add(reference.file);
  }
  return questions;
}

export interface RenderOptions {
  /**
   * Leave link, image and definition destinations as stored, for the JSON document, where they
   * become references ({@link documentRef}); HTML and blocks, which it holds as text, are rendered.
   */
  readonly keepDestinations?: boolean;
  /**
   * With `keepDestinations`: link and image destinations still written as relative paths become
   * the references a write would store now (`answers` must hold {@link writtenQuestions} of the
   * page's directory), so a link written before its target existed names the target as one written
   * after it does.
   */
  readonly resolveWritten?: boolean;
}

/**
 * Stored markdown of page `source` as its readers see it: each reference becomes the current path
 * of its target relative to the page (`../guides/install.md#setup`, `.gitbook/assets/logo.png`),
 * or `.gitbook/missing/<kind>/<id>` when the target no longer exists; escaped targets are given
 * back as written.
 */
export function renderLinks(
  markdown: string,
  sites: readonly LinkSite[],
  source: string,
  answers: LinkAnswers,
  options: RenderOptions = {},
): string {
  const fromDirectory = directoryOf(answers.pageFiles.get(source) ?? "");
  return replaceSites(markdown, sites, (site, raw) => {
    const reference = parseReference(site.url);
    if (!reference) {
      if (!options.keepDestinations || !options.resolveWritten || !isWrittenDestination(site))
        return undefined;
      const written = referenceOfWritten(site, raw, fromDirectory, answers);
      // As for a stored one: an image keeps a file reference, and shows any other target as a path.
      return site.where === "image" && parseReference(written ?? "")?.kind !== "file" ? undefined : written;
    }
    if (options.keepDestinations && site.where === "destination") return undefined;
    // An image shows a file or a URL: a file reference stays one, anything else is its path.
    if (options.keepDestinations && site.where === "image" && reference.kind === "file") return undefined;
    if (reference.kind === "literal") {
      return raw.slice(0, LITERAL_PREFIX.length).toLowerCase() === LITERAL_PREFIX
        ? raw.slice(LITERAL_PREFIX.length)
        : reference.url;
    }
    const path =
      reference.kind === "page"
        ? (answers.pageFiles.get(reference.page) ?? `${MISSING_DIRECTORY}/page/${reference.page}`)
        : answers.fileNames.has(reference.file)
          ? `${ASSETS_DIRECTORY}/${encodeSegment(answers.fileNames.get(reference.file)!)}`
          : `${MISSING_DIRECTORY}/file/${reference.file}`;
    return relativePath(fromDirectory, path) + suffixOf(raw);
  });
}

/** Stored markdown with page references renamed (`pages` maps old ids to new: a copy). */
export function remapReferences(
  markdown: string,
  sites: readonly LinkSite[],
  pages: ReadonlyMap<string, string>,
): string {
  return replaceSites(markdown, sites, (site, raw) => {
    const reference = parseReference(site.url);
    const page = reference?.kind === "page" ? pages.get(reference.page) : undefined;
    return page === undefined ? undefined : pageReference(page, suffixOf(raw));
  });
}

/** `markdown` with the text of each site replaced by `replace` (undefined keeps it). */
function replaceSites(
  markdown: string,
  sites: readonly LinkSite[],
  replace: (site: LinkSite, raw: string) => string | undefined,
): string {
  let result = "";
  let from = 0;
  for (const site of sites) {
    const raw = markdown.slice(site.start, site.end);
    const replacement = replace(site, raw);
    if (replacement === undefined) continue;
    result += markdown.slice(from, site.start) + replacement;
    from = site.end;
  }
  return from === 0 ? markdown : result + markdown.slice(from);
}

/**
 * The reference `ContentRef` of a link or image target in a JSON document: a stored reference is
 * `{kind: "page", page}`, `{kind: "anchor", anchor, page}` or `{kind: "file", file}`; a same-page
 * anchor is `{kind: "anchor", anchor}`; anything else (and every autolink) is `{kind: "url", url}`.
 */
export function documentRef(url: string, autolink: boolean): ContentRef {
  const reference = autolink ? undefined : parseReference(url);
  if (!reference) {
    if (!autolink && /^#[^#]+$/.test(url)) return { kind: "anchor", anchor: decodeAnchor(url.slice(1)) };
    return { kind: "url", url };
  }
  switch (reference.kind) {
    case "literal":
      return { kind: "url", url: reference.url };
    case "file":
      return { kind: "file", file: reference.file };
    case "page": {
      const hash = reference.suffix.indexOf("#");
      const anchor = hash < 0 ? "" : decodeAnchor(reference.suffix.slice(hash + 1));
      return anchor
        ? { kind: "anchor", anchor, page: reference.page }
        : { kind: "page", page: reference.page };
    }
  }
}

/** {@link documentRef} for the links of `markdown`: an autolink's source starts with `<`. */
export function documentLinkRef(markdown: string): LinkRef {
  return (url, node) => {
    const start = node.position?.start.offset;
    return documentRef(url, node.type === "link" && start !== undefined && markdown[start] === "<");
  };
}

function decodeAnchor(anchor: string): string {
  try {
    return decodeURIComponent(anchor);
  } catch {
    return anchor;
  }
}
