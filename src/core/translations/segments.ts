import type { Nodes } from "mdast";
import { parseMarkdown } from "../document/markdown.js";

/**
 * What of a page's markdown goes to a translation engine (docs/translations.md, "What is sent"):
 * the text of text nodes only, found with the project's markdown parser, so that code blocks,
 * inline code, HTML, link and image targets, and everything else that is not prose stay byte for
 * byte as written. Within a text node, `{{ expressions }}` and URLs are cut out and kept, each
 * line is a segment of its own (the container markers of a quote or list continuation line stay),
 * and leading and trailing spaces stay in place. Pieces without a letter are not sent.
 */

/** A range of the markdown whose text is translated, and that text. */
export interface Segment {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/**
 * Expressions as the renderer finds them (document/evaluate.ts), URLs in text, and stored
 * references (link-references/references.ts: `{% content-ref url="docsbase-ref:page/<id>" %}` is text).
 */
const KEPT = /\{\{[^{}\n]*\}\}|\b(?:https?:\/\/|www\.)[^\s<>]+|docsbase-ref:[^\s"'<>()]*/g;
/** Blockquote markers and indentation that open a continuation line of a paragraph. */
const CONTAINER_PREFIX = /^[ \t]*(?:>[ \t]?)*[ \t]*/;
const LETTER = /\p{L}/u;

/** The segments of `markdown`, in document order. */
export function markdownSegments(markdown: string): Segment[] {
  const segments: Segment[] = [];
  visit(parseMarkdown(markdown), false, (start, end) => {
    let lineStart = start;
    for (const [index, line] of markdown.slice(start, end).split("\n").entries()) {
      const skip = index === 0 ? 0 : (CONTAINER_PREFIX.exec(line)?.[0].length ?? 0);
      pieces(markdown, lineStart + skip, lineStart + line.length, segments);
      lineStart += line.length + 1;
    }
  });
  return segments;
}

/** Adds the translatable pieces of `markdown[start, end)`: around kept spans, trimmed. */
function pieces(markdown: string, start: number, end: number, into: Segment[]): void {
  const add = (from: number, to: number) => {
    const raw = markdown.slice(from, to);
    const text = raw.trim();
    if (!LETTER.test(text)) return;
    const at = from + raw.indexOf(text);
    into.push({ start: at, end: at + text.length, text });
  };
  let from = start;
  for (const match of markdown.slice(start, end).matchAll(KEPT)) {
    add(from, start + match.index);
    from = start + match.index + match[0].length;
  }
  add(from, end);
}

/**
 * Calls `found` with the source range of every text node outside code and HTML, except the text
 * of a link that is its own URL (an autolink) and the label of a shortcut or collapsed reference
 * (`[label]`, `[label][]`), which names its definition and must stay as written.
 */
function visit(node: Nodes, inAutolink: boolean, found: (start: number, end: number) => void): void {
  if (node.type === "text") {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (!inAutolink && start !== undefined && end !== undefined) found(start, end);
    return;
  }
  if ((node.type === "linkReference" || node.type === "imageReference") && node.referenceType !== "full") {
    return;
  }
  if (!("children" in node)) return;
  const only =
    node.type === "link" && node.children.length === 1 && node.children[0]?.type === "text"
      ? node.children[0].value
      : undefined;
  const autolink =
    node.type === "link" &&
    only !== undefined &&
    [only, `mailto:${only}`, `http://${only}`].includes(node.url);
  for (const child of node.children) visit(child, inAutolink || autolink, found);
}

/**
 * `markdown` with each segment replaced by its translation (same order as `segments`). A
 * translation is put on one line: a line break an engine adds would change the structure.
 */
export function replaceSegments(
  markdown: string,
  segments: readonly Segment[],
  translations: readonly string[],
) {
  let result = "";
  let from = 0;
  segments.forEach((segment, index) => {
    result += markdown.slice(from, segment.start) + (oneLine(translations[index] ?? "") || segment.text);
    from = segment.end;
  });
  return result + markdown.slice(from);
}

/** A translated title, description or segment on one line, trimmed. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, " ").trim();
}

/** Words of a text, as counted in `stats`: runs of non-space characters. */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}
