import type { Blockquote, Code, Definition, FootnoteDefinition, List, Paragraph, RootContent } from "mdast";
import { createSlugger, type Slugger } from "./anchors.js";
import {
  imageData,
  phrasingToDocument,
  urlRef,
  type LinkRef,
  type LinkTargets,
} from "./from-markdown-inlines.js";
import { assignKeys } from "./keys.js";
import { parseMarkdown, textOf } from "./markdown.js";
import { tableToDocument } from "./tables.js";
import type {
  DocumentBlockCode,
  DocumentBlockCodeLine,
  DocumentBlockEssential,
  DocumentBlockHint,
  DocumentBlockInListItem,
  DocumentBlockListItem,
  DocumentBlockParagraph,
  DocumentBlockQuote,
  DocumentBlockReusableContent,
  DocumentBlockTopLevel,
  DocumentHintStyle,
  JSONDocument,
} from "./types.js";

/**
 * Where a block stands decides what the reference lets it be: a quote holds only "essentials"
 * (paragraphs, headings, lists, dividers) and quotes, a hint only essentials, a list item also
 * code, hints, quotes and tables, and only the top level holds image blocks and includes of
 * reusable contents.
 */
type Place = "top" | "list-item" | "quote" | "hint";

/** GitHub alerts (`> [!NOTE]`) are the markdown of hints. IMPORTANT reads as `info`. */
const ALERT = /^\[!(note|tip|important|warning|caution)\][ \t]*(?:\n|$)/i;
const ALERT_STYLES: Record<string, DocumentHintStyle> = {
  note: "info",
  tip: "success",
  important: "info",
  warning: "warning",
  caution: "danger",
};

interface State {
  readonly targets: LinkTargets;
  readonly slug: Slugger;
}

export interface MarkdownToDocumentOptions {
  /** The reference of each link and image target; `{kind: "url", url}` without it. */
  readonly linkRef?: LinkRef;
}

/**
 * Converts page markdown (CommonMark with GitHub's extensions) to the reference JSON document
 * model, which is what GitBook's API reads and writes as page content. The same markdown always
 * gives the same document: keys are paths (see `assignKeys`).
 *
 * What the reference cannot hold where it stands is degraded rather than dropped: a code block or
 * table inside a quote or hint becomes paragraphs, a quote inside a hint gives its content, raw
 * HTML becomes text, footnotes become text. Soft line breaks read as spaces; link and image titles
 * and code block info beyond the language and a `title="..."` are not kept.
 *
 * Markdown over the limits of `markdownLimitError` (stored before writes checked them) reads as
 * plain text: one paragraph per run of non-blank lines.
 * @example
 * ```ts
 * const document = markdownToDocument("# Install\n\nRun `npm i docsbase`.\n");
 * document.nodes[0]; // { object: "block", type: "heading-1", key: "0", ... }
 * ```
 */
export function markdownToDocument(markdown: string, options: MarkdownToDocumentOptions = {}): JSONDocument {
  const tree = parseMarkdown(markdown);
  const definitions = new Map<string, Definition>();
  collectDefinitions(tree.children, definitions);
  const state: State = { targets: { definitions, ref: options.linkRef ?? urlRef }, slug: createSlugger() };
  const nodes = blocks(tree.children, "top", state) as DocumentBlockTopLevel[];
  return assignKeys({ object: "document", data: {}, nodes });
}

function blocks(children: readonly RootContent[], place: Place, state: State): DocumentBlockTopLevel[] {
  return children.flatMap((child) => block(child, place, state));
}

function block(node: RootContent, place: Place, state: State): DocumentBlockTopLevel[] {
  switch (node.type) {
    case "paragraph":
      return [
        place === "top"
          ? (includeBlock(node) ?? imagesBlock(node, state) ?? paragraph(node, state))
          : paragraph(node, state),
      ];
    case "heading": {
      const type = `heading-${Math.min(node.depth, 3)}` as "heading-1" | "heading-2" | "heading-3";
      const nodes = phrasingToDocument(node.children, state.targets);
      return [
        { object: "block", type, key: "", nodes, data: {}, meta: { id: state.slug(textOf(node).trim()) } },
      ];
    }
    case "thematicBreak":
      return [{ object: "block", type: "divider", key: "", isVoid: true, data: {} }];
    case "list":
      return [list(node, state)];
    case "blockquote":
      return quote(node, place, state);
    case "code":
      return [place === "quote" || place === "hint" ? codeParagraph(node.value) : codeBlock(node)];
    case "table":
      if (place === "top" || place === "list-item") return [tableToDocument(node, state.targets)];
      return node.children.map((row) => plainParagraph(row.children.map((cell) => textOf(cell)).join(" | ")));
    case "html":
      return node.value.trim() ? [plainParagraph(node.value)] : [];
    case "footnoteDefinition":
      return footnote(node, place, state);
    default:
      // definition (resolved into links), yaml and anything without a reference equivalent.
      return [];
  }
}

function codeBlock(node: Code): DocumentBlockCode {
  const nodes = node.value.split("\n").map((line): DocumentBlockCodeLine => ({
    object: "block",
    type: "code-line",
    key: "",
    data: {},
    nodes: [{ object: "text", key: "", leaves: [{ object: "leaf", text: line, marks: [] }] }],
  }));
  const data: DocumentBlockCode["data"] = {};
  if (node.lang) data.syntax = node.lang;
  const title = node.meta ? /(?:^|\s)title="([^"]*)"/.exec(node.meta)?.[1] : undefined;
  if (title !== undefined) data.title = title;
  return { object: "block", type: "code", key: "", data, nodes };
}

/** Footnotes have no reference form: a definition reads as `[^label]: ` before its content. */
function footnote(node: FootnoteDefinition, place: Place, state: State): DocumentBlockTopLevel[] {
  const label = `[^${node.label ?? node.identifier}]: `;
  const [first, ...rest] = blocks(node.children, place, state);
  const opening = first?.type === "paragraph" ? first.nodes[0] : undefined;
  if (!first || opening?.object !== "text") {
    return [plainParagraph(label.trim()), ...(first ? [first, ...rest] : [])];
  }
  const head = opening.leaves[0];
  if (head && head.marks.length === 0) head.text = label + head.text;
  else opening.leaves.unshift({ object: "leaf", text: label, marks: [] });
  return [first, ...rest];
}

function paragraph(node: Paragraph, state: State): DocumentBlockParagraph {
  return {
    object: "block",
    type: "paragraph",
    key: "",
    nodes: phrasingToDocument(node.children, state.targets),
  };
}

/** `{% include "<id>" %}`, alone in a paragraph: the id of the reusable content it includes. */
export const INCLUDE_PATTERN = /^\{% include "([^"\s]{1,200})" %\}$/;

/** A top-level paragraph that is an include alone is a `reusable-content` block. */
function includeBlock(node: Paragraph): DocumentBlockReusableContent | undefined {
  const [only] = node.children;
  if (node.children.length !== 1 || only?.type !== "text") return undefined;
  const id = INCLUDE_PATTERN.exec(only.value.trim())?.[1];
  if (id === undefined) return undefined;
  const ref = { kind: "reusable-content" as const, reusableContent: id };
  return { object: "block", type: "reusable-content", key: "", isVoid: true, data: { ref } };
}

/** A top-level paragraph of images only (and the space between them) is an `images` block. */
function imagesBlock(node: Paragraph, state: State): DocumentBlockTopLevel | undefined {
  const images = node.children.filter((child) => !(child.type === "text" && child.value.trim() === ""));
  const data = images.map((child) => imageData(child, state.targets));
  if (images.length === 0 || data.some((entry) => entry === undefined)) return undefined;
  const nodes = data.map((entry) => ({
    object: "block" as const,
    type: "image" as const,
    key: "",
    data: entry!,
    fragments: [],
    isVoid: true as const,
  }));
  return { object: "block", type: "images", key: "", data: {}, nodes, isVoid: false };
}

function list(node: List, state: State): DocumentBlockTopLevel {
  const tasks = node.children.some((item) => typeof item.checked === "boolean");
  const nodes = node.children.map((item): DocumentBlockListItem => {
    const children = blocks(item.children, "list-item", state) as DocumentBlockInListItem[];
    const listItem: DocumentBlockListItem = { object: "block", type: "list-item", key: "", nodes: children };
    return tasks ? { ...listItem, data: { checked: item.checked === true } } : listItem;
  });
  if (tasks) return { object: "block", type: "list-tasks", key: "", nodes };
  if (!node.ordered) return { object: "block", type: "list-unordered", key: "", nodes };
  const data = typeof node.start === "number" && node.start !== 1 ? { start: node.start } : {};
  return { object: "block", type: "list-ordered", key: "", data, nodes };
}

function quote(node: Blockquote, place: Place, state: State): DocumentBlockTopLevel[] {
  const alert = place === "top" || place === "list-item" ? asAlert(node) : undefined;
  if (alert) {
    const nodes = blocks(alert.children, "hint", state) as DocumentBlockEssential[];
    const hint: DocumentBlockHint = {
      object: "block",
      type: "hint",
      key: "",
      data: { style: alert.style },
      nodes,
    };
    return [hint];
  }
  const nodes = blocks(node.children, place === "hint" ? "hint" : "quote", state);
  if (place === "hint") return nodes;
  return [{ object: "block", type: "blockquote", key: "", nodes: nodes as DocumentBlockQuote["nodes"] }];
}

/** The style and the remaining content of a quote opening with a GitHub alert marker. */
function asAlert(node: Blockquote): { style: DocumentHintStyle; children: RootContent[] } | undefined {
  const [first, ...rest] = node.children;
  if (first?.type !== "paragraph") return undefined;
  const [opening, ...inline] = first.children;
  const match = opening?.type === "text" ? ALERT.exec(opening.value) : null;
  if (!opening || opening.type !== "text" || !match) return undefined;
  const remainder = opening.value.slice(match[0].length);
  const children = remainder ? [{ ...opening, value: remainder }, ...inline] : inline;
  const style = ALERT_STYLES[match[1]!.toLowerCase()]!;
  return { style, children: children.length > 0 ? [{ ...first, children }, ...rest] : rest };
}

function plainParagraph(text: string): DocumentBlockParagraph {
  const leaves = [{ object: "leaf" as const, text, marks: [] }];
  return { object: "block", type: "paragraph", key: "", nodes: [{ object: "text", key: "", leaves }] };
}

/** A code block where the reference allows none: one paragraph of code-marked text. */
function codeParagraph(code: string): DocumentBlockParagraph {
  const leaves = [
    { object: "leaf" as const, text: code, marks: [{ object: "mark" as const, type: "code" as const }] },
  ];
  return { object: "block", type: "paragraph", key: "", nodes: [{ object: "text", key: "", leaves }] };
}

function collectDefinitions(children: readonly RootContent[], into: Map<string, Definition>): void {
  for (const child of children) {
    // The first definition of an identifier wins (CommonMark).
    if (child.type === "definition" && !into.has(child.identifier)) into.set(child.identifier, child);
    if ("children" in child) collectDefinitions(child.children as RootContent[], into);
  }
}
