import type { Nodes, Root } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown, gfmToMarkdown } from "mdast-util-gfm";
import { toMarkdown } from "mdast-util-to-markdown";
import { gfm } from "micromark-extension-gfm";
import { badRequest } from "../../shared/errors.js";
import { MAX_DOCUMENT_DEPTH } from "./schema.js";

/**
 * The one markdown dialect of page content: CommonMark with GitHub's extensions (tables,
 * strikethrough, task lists, autolink literals, footnotes). Every reader and writer in this folder
 * goes through these two functions, so they all agree on it.
 */

/**
 * Parses page markdown into an mdast tree with source positions.
 *
 * @throws DocsbaseError `bad_request` when the markdown nests deeper than `MAX_DOCUMENT_DEPTH`
 * (quotes in quotes, lists in lists, emphasis in emphasis): the document would be refused by
 * `documentInput`, and the recursive passes over it (ours and the parser's own) would exhaust
 * the stack a few thousand levels down. Markdown that the parser cannot nest at all answers the
 * same error rather than a stack overflow.
 */
export function parseMarkdown(markdown: string): Root {
  // The parser takes time quadratic in the containers opened on one line ("- - - - x"): 20,000
  // list markers take minutes. Counting them first, in linear time, refuses such a line early.
  if (lineNestingExceeds(markdown, MAX_DOCUMENT_DEPTH)) throw tooDeep();
  let tree: Root;
  try {
    tree = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  } catch (error) {
    if (error instanceof RangeError) throw tooDeep();
    throw error;
  }
  if (depthExceeds(tree, MAX_DOCUMENT_DEPTH)) throw tooDeep();
  return tree;
}

const tooDeep = () => badRequest(`Markdown nests deeper than ${MAX_DOCUMENT_DEPTH} levels`);

/** Whether the tree is deeper than `limit` below its root, checked without recursion. */
function depthExceeds(root: Nodes, limit: number): boolean {
  const stack: [Nodes, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > limit) return true;
    if ("children" in node) for (const child of node.children) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * Writes an mdast tree in the normalized form: `-` bullets, `*` and `**` emphasis (`_` cannot
 * open emphasis inside a word), fenced code, `---` rules, ATX headings, one space after list
 * markers, aligned table pipes, and a final newline.
 */
export function serializeMarkdown(tree: Root): string {
  return toMarkdown(tree, {
    bullet: "-",
    emphasis: "*",
    strong: "*",
    fence: "`",
    fences: true,
    rule: "-",
    listItemIndent: "one",
    setext: false,
    extensions: [gfmToMarkdown()],
  });
}

/**
 * The text a reader sees in a node: text, inline code and image alternatives; soft line breaks
 * (a newline inside a text) read as spaces and hard breaks as newlines, as they render.
 */
export function textOf(node: Nodes): string {
  switch (node.type) {
    case "text":
      return softBreaksAsSpaces(node.value);
    case "inlineCode":
      return node.value;
    case "break":
      return "\n";
    case "image":
    case "imageReference":
      return node.alt ?? "";
    case "footnoteReference":
      return "";
    default:
      return "children" in node ? node.children.map((child) => textOf(child)).join("") : "";
  }
}

/**
 * A soft line break renders as one space. (The parser already drops the spaces around it; a
 * pattern that also matched them would take quadratic time on long runs of spaces.)
 */
export function softBreaksAsSpaces(text: string): string {
  return text.replace(/\r?\n/g, " ");
}

/**
 * Whether a line opens more than `limit` levels of containers: a `>` opens one (a quote), a list
 * marker two (the list and its item). Thematic breaks (`- - -`, `* * *`) are not lists.
 */
function lineNestingExceeds(markdown: string, limit: number): boolean {
  let start = 0;
  while (start < markdown.length) {
    const newline = markdown.indexOf("\n", start);
    const end = newline === -1 ? markdown.length : newline;
    if (containerLevels(markdown, start, end) > limit) {
      const line = markdown.slice(start, end).replace(/[ \t\r]/g, "");
      if (!/^(?:-{3,}|\*{3,}|_{3,})$/.test(line)) return true;
    }
    start = end + 1;
  }
  return false;
}

/** The container levels a line opens before its content. */
function containerLevels(text: string, start: number, end: number): number {
  let levels = 0;
  let index = start;
  while (index < end) {
    const char = text[index];
    if (char === " " || char === "\t") {
      index++;
    } else if (char === ">") {
      levels += 1;
      index++;
    } else {
      const markerEnd = listMarkerEnd(text, index, end);
      if (markerEnd === undefined) break;
      levels += 2;
      index = markerEnd;
    }
  }
  return levels;
}

/** Where a list marker starting at `index` (`-`, `+`, `*`, or 1 to 9 digits and `.` or `)`) ends. */
function listMarkerEnd(text: string, index: number, end: number): number | undefined {
  let after = index;
  while (after < end && after - index < 9 && /[0-9]/.test(text[after]!)) after++;
  const char = text[after];
  const isMarker =
    after === index ? char === "-" || char === "+" || char === "*" : char === "." || char === ")";
  const next = text[after + 1];
  const spaced = after + 1 >= end || next === " " || next === "\t" || next === "\r";
  return isMarker && spaced ? after + 1 : undefined;
}
