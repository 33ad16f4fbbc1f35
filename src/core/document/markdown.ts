import type { Nodes, Root } from "mdast";
import { fromMarkdown, type Extension as MdastExtension, type Handle } from "mdast-util-from-markdown";
import { gfmFromMarkdown, gfmToMarkdown } from "mdast-util-gfm";
import { toMarkdown } from "mdast-util-to-markdown";
import { gfm } from "micromark-extension-gfm";
import { textMemo } from "../shared/text-memo.js";
import { MAX_DOCUMENT_DEPTH } from "./schema.js";
import { isBlank, parseInChunks, type ChunkResult } from "./chunked-parse.js";

/**
 * The one markdown dialect of page content: CommonMark with GitHub's extensions (tables,
 * strikethrough, task lists, autolink literals, footnotes). Every reader and writer in this folder
 * goes through these two functions, so they all agree on it.
 */

/**
 * The parser (micromark) is not linear on every shape: each list item that follows another copies
 * the events before it (so a block's cost grows with its list items x its size: 4,096 lines of
 * `- - - x` took seconds), and each emphasis delimiter run (`*`, `_`, `~`) or link opening walks
 * back over its paragraph's events (300 KB of `*a` never finished). Pages are therefore parsed in
 * chunks of top-level blocks (`parseInChunks`), which makes a page's cost linear in its size: a
 * long list is cut between its items. What remains superlinear lies inside one block that cannot
 * be cut (a quote or a list item holding a long list, a paragraph of many openers): `blockWork`
 * bounds it from above, in parser steps (one step is one event copied or visited), and one chunk
 * may not exceed `MAX_BLOCK_WORK` of them. Writes refuse more (`markdownLimitError`); reads of
 * markdown stored before the limit existed fall back to plain text (`parseMarkdown`), so that one
 * page can never stall or fail a reader.
 */
export const MAX_BLOCK_WORK = 32_000_000;

/** Parser events per byte of markdown, at most (`- - x` lines give about 3.7). */
const EVENTS_PER_BYTE = 4;

/**
 * An upper bound of the parser's superlinear work on one chunk of markdown, in parser steps: for
 * each line that opens list items (or may continue a container lazily), the events before it,
 * which the parser copies, once per list item on the line; plus the work of emphasis and link
 * openers (`openerWork`). Linear in the input.
 */
export function blockWork(markdown: string): number {
  return listWork(markdown) + openerWork(markdown);
}

function listWork(markdown: string): number {
  let work = 0;
  let afterContainer = false;
  let start = 0;
  while (start <= markdown.length) {
    const newline = markdown.indexOf("\n", start);
    const end = newline === -1 ? markdown.length : newline;
    if (isBlank(markdown, start, end)) {
      afterContainer = false;
    } else {
      const containers = containerLevels(markdown, start, end);
      // Each list item the line opens may close a nested one, and each closing copies the events.
      if (containers.lists > 0 || afterContainer)
        work += Math.max(containers.lists, 1) * start * EVENTS_PER_BYTE;
      afterContainer = containers.levels > 0 || afterContainer;
    }
    if (newline === -1) break;
    start = end + 1;
  }
  return work;
}

/**
 * The work of emphasis and link openers: each one times the events of the text it lies in. A
 * first bound takes each run of lines between blank lines as one text (no paragraph crosses a
 * blank line); when that exceeds the budget (a long table, a long paragraph), the texts are found
 * by a parse without the openers (linear), and each one's openers times its size is the bound.
 */
function openerWork(markdown: string): number {
  const { work: lineRuns, oneLine } = runsBetweenBlankLines(markdown);
  // A run of one line is one text (a table needs two lines): the bound is exact, no parse needed.
  if (lineRuns <= MAX_BLOCK_WORK || oneLine > MAX_BLOCK_WORK) return lineRuns;
  let work = 0;
  visitTexts(parseWithoutOpeners(markdown), (start, end) => {
    work += delimiterRuns(markdown, start, end) * (end - start) * EVENTS_PER_BYTE;
  });
  return work;
}

/** The opener work of each run of lines between blank lines, and the largest of a one-line run. */
function runsBetweenBlankLines(markdown: string): { work: number; oneLine: number } {
  let work = 0;
  let oneLine = 0;
  let runStart = 0;
  let runLines = 0;
  let runOpeners = 0;
  const endRun = (end: number) => {
    const runWork = runOpeners * (end - runStart) * EVENTS_PER_BYTE;
    work += runWork;
    if (runLines === 1) oneLine = Math.max(oneLine, runWork);
  };
  let start = 0;
  while (start <= markdown.length) {
    const newline = markdown.indexOf("\n", start);
    const end = newline === -1 ? markdown.length : newline;
    if (isBlank(markdown, start, end)) {
      endRun(start);
      runStart = end + 1;
      runLines = 0;
      runOpeners = 0;
    } else {
      runLines++;
      runOpeners += delimiterRuns(markdown, start, end);
    }
    if (newline === -1) break;
    start = end + 1;
  }
  endRun(markdown.length);
  return { work, oneLine };
}

/** The constructs whose cost grows with their paragraph: off, the parse of a chunk is linear. */
const WITHOUT_OPENERS = {
  disable: { null: ["attention", "strikethrough", "labelStartLink", "labelStartImage", "labelEnd"] },
};

function parseWithoutOpeners(markdown: string): Root {
  parserRuns.count++;
  return fromMarkdown(markdown, { extensions: [...GFM_SYNTAX, WITHOUT_OPENERS], mdastExtensions: GFM_TREE });
}

/** Calls `visit` with the source range of each paragraph, heading and table cell: texts of one parse. */
function visitTexts(root: Nodes, visit: (start: number, end: number) => void): void {
  const stack: Nodes[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === "paragraph" || node.type === "heading" || node.type === "tableCell") {
      const start = node.position?.start.offset;
      const end = node.position?.end.offset;
      if (start !== undefined && end !== undefined) visit(start, end);
    } else if ("children" in node) {
      for (const child of node.children) stack.push(child);
    }
  }
}

/**
 * Why markdown may not be stored as a page or comment body, or `undefined` when it may: nesting
 * deeper than `MAX_DOCUMENT_DEPTH` (which `documentInput` would refuse, and which recursive
 * passes cannot follow far) or a block that costs the parser more than `MAX_BLOCK_WORK`. Checked
 * at write time only: at read time the same markdown reads as plain text instead. The answers for
 * the last 512 texts of up to 16 KiB are remembered (`textMemo`): checking parses the text.
 */
export const markdownLimitError: (markdown: string) => string | undefined = textMemo(limitError, {
  entries: 512,
  maxChars: 16_384,
});

function limitError(markdown: string): string | undefined {
  const result = pageTree(markdown);
  if (result === "too costly") {
    return (
      `Markdown too costly to parse: a block over the limit of ${MAX_BLOCK_WORK} units ` +
      "(list items inside one quote or list item times its size, or emphasis markers and link " +
      'openings times their paragraph\'s size; see docs/api.md, "Markdown limits")'
    );
  }
  if (result === "too deep") return `Markdown nests deeper than ${MAX_DOCUMENT_DEPTH} levels`;
  return undefined;
}

/**
 * How many times the parser ran in this process (`count`: one run is one chunk), and how many
 * pages `pageTree` parsed (`pages`): tests and the benchmark count them to show what is shared.
 */
export const parserRuns = { count: 0, pages: 0 };

/**
 * Parses page markdown into an mdast tree with source positions, in time linear in its size
 * (`parseInChunks`). Never fails and never exceeds the work budget: markdown over a limit of
 * `markdownLimitError` (stored before the limit existed) reads as plain text, one paragraph per
 * run of non-blank lines, so that every read (documents, search, links, backlinks, PDF) answers.
 *
 * The tree is shared (`pageTree`) and its root frozen: read it, never change it.
 */
export function parseMarkdown(markdown: string): Root {
  const tree = pageTree(markdown);
  return typeof tree === "string" ? plainTextTree(markdown) : tree;
}

/**
 * The last page parsed and its tree (or why it has none). One page write asks for the same
 * markdown's tree several times: its limit check (the body's validation), the link sites stored
 * as references, a document read right after. Each of those got its own parse, and a page of
 * 1,000,000 characters takes seconds to parse, during which every other request waits. Remembering
 * the last tree makes them one parse. One entry: only the page being written is asked for again at
 * once. A tree takes about 60 bytes per character of its markdown, so the tree of a page over
 * `STRONG_TREE_CHARS` is held weakly (a `WeakRef`): the garbage collector may take it back, and an
 * asker after that parses again.
 *
 * Module-level, like `textMemo`: the tree depends on the text only, so instances may share it.
 */
let lastPage: { readonly markdown: string; readonly tree: ChunkResult | WeakRef<Root> } | undefined;

/** The size up to which the last tree is held strongly: about 4 MB of tree. */
const STRONG_TREE_CHARS = 65_536;

/**
 * The tree of page markdown (root frozen), or why there is none (nesting deeper than
 * `MAX_DOCUMENT_DEPTH`, or a block over `MAX_BLOCK_WORK`): parsed once for consecutive askers.
 */
export function pageTree(markdown: string): ChunkResult {
  if (lastPage?.markdown === markdown) {
    const kept = lastPage.tree instanceof WeakRef ? lastPage.tree.deref() : lastPage.tree;
    if (kept !== undefined) return kept;
  }
  parserRuns.pages++;
  const tree = lineNestingExceeds(markdown, MAX_DOCUMENT_DEPTH) ? "too deep" : chunked(markdown);
  if (typeof tree === "string") {
    lastPage = { markdown, tree };
    return tree;
  }
  freezeTop(tree);
  lastPage = { markdown, tree: markdown.length > STRONG_TREE_CHARS ? new WeakRef(tree) : tree };
  return tree;
}

/**
 * Freezes the root and its list of blocks: what a consumer would most likely change. Freezing every
 * node and position took about a tenth of the parse; consumers only read (their tests pass on trees
 * frozen throughout).
 */
function freezeTop(root: Root): Root {
  Object.freeze(root.children);
  return Object.freeze(root);
}

/** The chunked parse; `chunkChars` (tests) sets the chunks' size. */
export function chunked(
  markdown: string,
  extensions: readonly MdastExtension[] = [],
  chunkChars?: number,
): ChunkResult {
  return parseInChunks(markdown, { parse: parseChunk, extensions, chunkChars });
}

function parseChunk(markdown: string, extensions: readonly MdastExtension[]): ChunkResult {
  if (blockWork(markdown) > MAX_BLOCK_WORK) return "too costly";
  return parsed(markdown, extensions) ?? "too deep";
}

/**
 * The whole markdown parsed at once, as before parsing went by chunks: what the chunked parse must
 * give. Only tests call it (it is superlinear on long lists).
 */
export function parseWhole(markdown: string, extensions: readonly MdastExtension[] = []): Root | undefined {
  return parsed(markdown, extensions);
}

/**
 * GFM's syntax and tree extensions, made once: they are plain configuration that the parser reads
 * and never changes, and making them anew cost about a third of parsing a short page.
 */
const GFM_SYNTAX = [gfm()];
const GFM_TREE = gfmFromMarkdown();

/**
 * Where each link, image and definition writes its destination, from its node's start (so that it
 * holds when chunks' positions are moved to the page's); the tree keeps the URL only.
 * link-references/references.ts rewrites destinations in place.
 */
const destinations = new WeakMap<Nodes, { readonly start: number; readonly end: number }>();

const recordDestination: Handle = function (token) {
  const node = this.stack.at(-1);
  const from = node?.position?.start.offset;
  if (node === undefined || from === undefined) return;
  destinations.set(node as Nodes, { start: token.start.offset - from, end: token.end.offset - from });
};

/** GFM's tree extensions, and the destinations' recorder (before the caller's: theirs win). */
const TREE_EXTENSIONS: MdastExtension[] = [
  ...GFM_TREE,
  { exit: { resourceDestination: recordDestination, definitionDestination: recordDestination } },
];

/**
 * The source range `[start, end)` of the destination of a link, image or definition of a tree of
 * `parseMarkdown`, brackets (`<url>`) included, or `undefined` for other nodes.
 */
export function destinationOf(node: Nodes): { start: number; end: number } | undefined {
  const range = destinations.get(node);
  const from = node.position?.start.offset;
  if (range === undefined || from === undefined) return undefined;
  return { start: from + range.start, end: from + range.end };
}

/**
 * The parsed tree, or `undefined` when it nests deeper than `MAX_DOCUMENT_DEPTH`. `extensions`
 * observe tokens the tree does not keep (link-references/references.ts records where destinations are).
 */
function parsed(markdown: string, extensions: readonly MdastExtension[] = []): Root | undefined {
  parserRuns.count++;
  let tree: Root;
  try {
    tree = fromMarkdown(markdown, {
      extensions: GFM_SYNTAX,
      mdastExtensions: extensions.length ? [...TREE_EXTENSIONS, ...extensions] : TREE_EXTENSIONS,
    });
  } catch (error) {
    // Nesting the pre-check missed (lazy lines, emphasis) can still overflow the parser's stack.
    if (error instanceof RangeError) return undefined;
    throw error;
  }
  return depthExceeds(tree, MAX_DOCUMENT_DEPTH) ? undefined : tree;
}

/** Markdown as text: each run of non-blank lines one paragraph of one text node, with positions. */
export function plainTextTree(markdown: string): Root {
  const children: Root["children"] = [];
  const lines = markdown.split("\n");
  let offset = 0;
  let paragraph: { start: number; end: number } | undefined;
  const point = (at: number) => ({ line: 1, column: 1, offset: at });
  const flush = () => {
    if (!paragraph) return;
    const position = { start: point(paragraph.start), end: point(paragraph.end) };
    const value = markdown.slice(paragraph.start, paragraph.end);
    children.push({ type: "paragraph", position, children: [{ type: "text", value, position }] });
    paragraph = undefined;
  };
  for (const line of lines) {
    const end = offset + line.length;
    if (line.trim() === "") flush();
    else if (paragraph) paragraph.end = end;
    else paragraph = { start: offset, end };
    offset = end + 1;
  }
  flush();
  return { type: "root", children };
}

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
 * Runs of `*`, `_` or `~` on a line (a run of one character counts once), and link openings `](`,
 * from each of which the parser may scan a destination to the end of the paragraph.
 */
function delimiterRuns(text: string, start: number, end: number): number {
  let runs = 0;
  let previous = "";
  for (let index = start; index < end; index++) {
    const char = text[index]!;
    if ((char === "*" || char === "_" || char === "~") && char !== previous) runs++;
    else if (char === "(" && previous === "]") runs++;
    previous = char;
  }
  return runs;
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
    if (containerLevels(markdown, start, end).levels > limit) {
      const line = markdown.slice(start, end).replace(/[ \t\r]/g, "");
      if (!/^(?:-{3,}|\*{3,}|_{3,})$/.test(line)) return true;
    }
    start = end + 1;
  }
  return false;
}

/** The container levels a line opens before its content, and how many of them are list items. */
function containerLevels(text: string, start: number, end: number): { levels: number; lists: number } {
  let levels = 0;
  let lists = 0;
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
      lists += 1;
      index = markerEnd;
    }
  }
  return { levels, lists };
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
