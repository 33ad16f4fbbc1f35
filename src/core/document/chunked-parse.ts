import type { Definition, FootnoteDefinition, List, Nodes, Root, RootContent } from "mdast";
import type { Extension as MdastExtension, Handle, Token } from "mdast-util-from-markdown";

/**
 * Parsing long markdown in chunks of top-level blocks, so that the parser's cost stays linear in
 * the input. micromark is superlinear on some shapes (each list item copies the events before it
 * in the document; emphasis and link openers walk back over their paragraph), so a whole page is
 * never handed to it at once: it gets chunks of about `CHUNK_CHARS` characters, cut where the
 * whole-page parse starts a new top-level block, and the trees are joined. The joined tree is the
 * one the whole-page parse gives (a differential test holds it to that):
 *
 * - A chunk ends before a line that starts at column 0 and either follows a blank line, or starts
 *   an item of the top-level list the chunk ends in (same marker). Whether the cut is one is read
 *   from the chunk's own tree: after a blank line, every block but an unclosed fenced code block or
 *   an HTML block is closed by such a line; before a sibling item, the list goes on.
 * - A list cut that way continues in the next chunk: the two lists are merged, and loose (`spread`)
 *   when a blank line separated them.
 * - A reference (`[text][label]`, `[label]`, `[^note]`) is one only when its label is defined
 *   somewhere in the page. A chunk whose brackets name a definition of another chunk is parsed
 *   again with those definitions written before it (and dropped from its tree).
 * - Positions are moved to the page's, and so are the tokens `extensions` observe.
 */
export const CHUNK_CHARS = 1_024;

/** One parse of a chunk's text: its tree, or why there is none. */
export type ChunkResult = Root | "too deep" | "too costly";

export interface ChunkedParseOptions {
  /** Parses one chunk on its own; `observe` holds the caller's extensions, moved to the page. */
  readonly parse: (text: string, extensions: readonly MdastExtension[]) => ChunkResult;
  readonly extensions: readonly MdastExtension[];
  readonly chunkChars?: number;
}

interface Chunk {
  readonly start: number;
  readonly end: number;
  /** The 1-based line the chunk starts on. */
  readonly line: number;
  readonly afterBlank: boolean;
  tree: Root;
}

/** The page's tree, parsed chunk by chunk, or why there is none (the first failing chunk's). */
export function parseInChunks(markdown: string, options: ChunkedParseOptions): ChunkResult {
  const chunkChars = options.chunkChars ?? CHUNK_CHARS;
  // Cuts are tried by parsing: only the parses kept in the end run the caller's extensions.
  const parseRange = (
    start: number,
    end: number,
    line: number,
    prefix = "",
    observe = false,
  ): ChunkResult => {
    const text = prefix + markdown.slice(start, end);
    const shift = { offset: start - prefix.length, line: line - 1 - lineCount(prefix), from: prefix.length };
    const extensions = observe ? options.extensions.map((extension) => shifted(extension, shift)) : [];
    const result = options.parse(text, extensions);
    if (typeof result !== "string") movePositions(result, shift);
    return result;
  };

  const chunks: Chunk[] = [];
  let start = 0;
  let startLine = 1;
  let startAfterBlank = true;
  let target = chunkChars;
  let lineStart = 0;
  let line = 1;
  let previousBlank = true;
  while (lineStart < markdown.length) {
    const newline = markdown.indexOf("\n", lineStart);
    const lineEnd = newline === -1 ? markdown.length : newline;
    const blank = isBlank(markdown, lineStart, lineEnd);
    if (lineStart - start >= target && !blank && !isSpace(markdown[lineStart])) {
      const marker = listItemMarker(markdown, lineStart, lineEnd);
      if (previousBlank || marker !== undefined) {
        const tree = parseRange(start, lineStart, startLine);
        if (typeof tree !== "string" && cutsBefore(tree, markdown, previousBlank, marker)) {
          chunks.push({ start, end: lineStart, line: startLine, afterBlank: startAfterBlank, tree });
          start = lineStart;
          startLine = line;
          startAfterBlank = previousBlank;
          target = chunkChars;
        } else {
          // Not a cut (or a chunk that fails on its own): try again at twice the size, so that the
          // attempts on one chunk cost at most twice its own parse.
          target = 2 * (lineStart - start);
        }
      }
    }
    previousBlank = blank;
    if (newline === -1) break;
    lineStart = newline + 1;
    line++;
  }
  const only = chunks.length === 0;
  const last = parseRange(start, markdown.length, startLine, "", only);
  if (typeof last === "string" || only) return last;
  chunks.push({ start, end: markdown.length, line: startLine, afterBlank: startAfterBlank, tree: last });

  // Chunks parsed alone missed the definitions of the others: parse again the few that need them,
  // and every chunk when there are extensions to run.
  const definitions = collectDefinitions(chunks);
  const observe = options.extensions.length > 0;
  for (const [index, chunk] of chunks.entries()) {
    const prefix = definitionPrefix(markdown, chunk, index, definitions);
    if (prefix === undefined && !observe) continue;
    const tree = parseRange(chunk.start, chunk.end, chunk.line, prefix?.text, observe);
    if (typeof tree === "string") return tree;
    tree.children.splice(0, prefix?.nodes ?? 0);
    chunk.tree = tree;
  }
  return joinChunks(markdown, chunks);
}

/** Whether the chunk's tree ends where the whole page's parse starts a new top-level block. */
function cutsBefore(tree: Root, markdown: string, afterBlank: boolean, marker: string | undefined): boolean {
  const last = tree.children.at(-1);
  if (last === undefined) return afterBlank;
  if (!afterBlank && !(last.type === "list" && listMarker(markdown, last) === marker)) return false;
  // The block written last, and the ones it ends in, must be closed: an unclosed fence or an HTML
  // block goes on (at the top level), or ends at a place the chunk cannot know (in a container);
  // after indented code the parser is still in it past blank lines, which changes what the next
  // line may start (an ordered list from 2 cannot start there).
  for (
    let node: Nodes | undefined = last;
    node;
    node = "children" in node ? node.children.at(-1) : undefined
  ) {
    if (node.type === "html") return false;
    if (
      node.type === "code" &&
      !isClosedCode(markdown, node.position!.start.offset!, node.position!.end.offset!)
    ) {
      return false;
    }
  }
  return true;
}

/**
 * Whether the code block written in `markdown[start, end)` is a fenced block with its closing fence
 * (an unclosed fence goes on to the end of the page). Indented code counts as not closed.
 */
function isClosedCode(markdown: string, start: number, end: number): boolean {
  const source = markdown.slice(start, end);
  const opening = /^ {0,3}(`{3,}|~{3,})/.exec(source);
  if (!opening) return false;
  const fence = opening[1]!;
  const lastNewline = source.lastIndexOf("\n");
  if (lastNewline === -1) return false;
  const closing = /^ {0,3}(`{3,}|~{3,})[ \t]*\r?$/.exec(source.slice(lastNewline + 1));
  return closing !== null && closing[1]![0] === fence[0] && closing[1]!.length >= fence.length;
}

/**
 * The marker kind of the list item a line starts at column 0 (`-`, `+`, `*`, or `.`/`)` after 1
 * to 9 digits), or `undefined` when it starts none (thematic breaks such as `- - -` are not items).
 */
function listItemMarker(markdown: string, start: number, end: number): string | undefined {
  let after = start;
  while (after < end && after - start < 9 && isDigit(markdown[after])) after++;
  const char = markdown[after];
  const isMarker =
    after === start ? char === "-" || char === "+" || char === "*" : char === "." || char === ")";
  if (!isMarker) return undefined;
  const next = markdown[after + 1];
  if (after + 1 < end && next !== " " && next !== "\t" && next !== "\r") return undefined;
  if (after === start && /^([-*_])(?:[ \t]*\1){2,}[ \t]*\r?$/.test(markdown.slice(start, end)))
    return undefined;
  return char;
}

/** The marker kind of a list, read from the source of its last item. */
function listMarker(markdown: string, list: List): string | undefined {
  const item = list.children.at(-1);
  const start = item?.position?.start.offset;
  if (start === undefined) return undefined;
  let at = start;
  while (isSpace(markdown[at])) at++;
  while (isDigit(markdown[at])) at++;
  return markdown[at];
}

/** Joins the chunks' trees: their children in order, a list cut in two merged again. */
function joinChunks(markdown: string, chunks: readonly Chunk[]): Root {
  const children: RootContent[] = [];
  for (const chunk of chunks) {
    const first = chunk.tree.children[0];
    const previous = children.at(-1);
    if (
      previous?.type === "list" &&
      first?.type === "list" &&
      first.position!.start.offset === chunk.start &&
      listMarker(markdown, previous) === listMarker(markdown, first)
    ) {
      previous.children.push(...first.children);
      previous.spread = Boolean(previous.spread || first.spread || chunk.afterBlank);
      previous.position!.end = first.position!.end;
      children.push(...chunk.tree.children.slice(1));
    } else {
      children.push(...chunk.tree.children);
    }
  }
  const lastTree = chunks.at(-1)!.tree;
  const position = { start: { line: 1, column: 1, offset: 0 }, end: lastTree.position!.end };
  return { type: "root", children, position };
}

interface Definitions {
  /** For each normalized label, the chunks that define it (link definitions). */
  readonly links: Map<string, { label: string; chunks: Set<number> }>;
  readonly notes: Map<string, { label: string; chunks: Set<number> }>;
}

function collectDefinitions(chunks: readonly Chunk[]): Definitions {
  const definitions: Definitions = { links: new Map(), notes: new Map() };
  for (const [index, chunk] of chunks.entries()) {
    visitDefinitions(chunk.tree, (node) => {
      const map = node.type === "definition" ? definitions.links : definitions.notes;
      const label = (node.label ?? node.identifier).replace(/[\t\n\r ]+/g, " ").trim();
      const key = normalizeLabel(label);
      const entry = map.get(key) ?? { label, chunks: new Set<number>() };
      entry.chunks.add(index);
      map.set(key, entry);
    });
  }
  return definitions;
}

function visitDefinitions(root: Nodes, visit: (node: Definition | FootnoteDefinition) => void): void {
  const stack: Nodes[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === "definition" || node.type === "footnoteDefinition") visit(node);
    if ("children" in node) for (const child of node.children) stack.push(child);
  }
}

/**
 * The definitions of other chunks that a chunk's brackets may name, written as markdown to go
 * before it (each one a node of the tree, and an HTML comment closing them all), or `undefined`
 * when it needs none.
 */
function definitionPrefix(
  markdown: string,
  chunk: Chunk,
  index: number,
  definitions: Definitions,
): { text: string; nodes: number } | undefined {
  if (definitions.links.size === 0 && definitions.notes.size === 0) return undefined;
  const lines: string[] = [];
  const seen = new Set<string>();
  const add = (map: Definitions["links"], key: string, write: (label: string) => string) => {
    const entry = map.get(key);
    if (!entry || entry.chunks.has(index)) return;
    const line = write(entry.label);
    if (seen.has(line)) return;
    seen.add(line);
    lines.push(line);
  };
  for (const label of bracketedLabels(markdown, chunk.start, chunk.end)) {
    add(definitions.links, normalizeLabel(label), (written) => `[${written}]: x\n\n`);
    if (label.startsWith("^"))
      add(definitions.notes, normalizeLabel(label.slice(1)), (written) => `[^${written}]: x\n\n`);
  }
  if (lines.length === 0) return undefined;
  return { text: `${lines.join("")}<!---->\n`, nodes: lines.length + 1 };
}

/**
 * The texts between an unescaped `[` and the next unescaped `]` with no bracket between (what a
 * reference's label can be), each at most 999 characters. Linear: each text is read once.
 */
function bracketedLabels(markdown: string, start: number, end: number): Set<string> {
  const labels = new Set<string>();
  let open = -1;
  for (let index = start; index < end; index++) {
    const char = markdown[index];
    if (char === "\\") {
      index++;
    } else if (char === "[") {
      open = index;
    } else if (char === "]") {
      if (open !== -1 && index - open <= 1000) labels.add(markdown.slice(open + 1, index));
      open = -1;
    }
  }
  return labels;
}

/** A label as the parser compares them: white space collapsed, case folded. */
function normalizeLabel(label: string): string {
  return label
    .replace(/[\t\n\r ]+/g, " ")
    .trim()
    .toLowerCase()
    .toUpperCase();
}

interface Shift {
  /** Added to offsets and to lines. */
  readonly offset: number;
  readonly line: number;
  /** Offsets in the parsed text before this are the definitions written before the chunk. */
  readonly from: number;
}

function movePositions(root: Root, shift: Shift): void {
  const stack: Nodes[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const position = node.position;
    if (position) {
      node.position = {
        start: {
          ...position.start,
          line: position.start.line + shift.line,
          offset: position.start.offset! + shift.offset,
        },
        end: {
          ...position.end,
          line: position.end.line + shift.line,
          offset: position.end.offset! + shift.offset,
        },
      };
    }
    if ("children" in node) for (const child of node.children) stack.push(child);
  }
}

/** An extension whose handlers see tokens at the page's offsets, and never the written definitions. */
function shifted(extension: MdastExtension, shift: Shift): MdastExtension {
  const wrap = (handles: Partial<Record<string, Handle>> | null | undefined) => {
    if (!handles) return undefined;
    const wrapped: Record<string, Handle> = {};
    for (const [type, handle] of Object.entries(handles)) {
      if (!handle) continue;
      wrapped[type] = function (this, token: Token) {
        if (token.start.offset < shift.from) return;
        const move = (point: Token["start"]) => ({
          ...point,
          line: point.line + shift.line,
          offset: point.offset + shift.offset,
        });
        return handle.call(this, { ...token, start: move(token.start), end: move(token.end) });
      };
    }
    return wrapped;
  };
  if (shift.offset === 0 && shift.line === 0 && shift.from === 0) return extension;
  return { ...extension, enter: wrap(extension.enter), exit: wrap(extension.exit) };
}

function lineCount(text: string): number {
  let count = 0;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) count++;
  return count;
}

/** Whether `text[start, end)` holds only spaces, tabs and carriage returns (a blank line). */
export function isBlank(text: string, start: number, end: number): boolean {
  for (let index = start; index < end; index++) {
    const char = text[index];
    if (char !== " " && char !== "\t" && char !== "\r") return false;
  }
  return true;
}

function isSpace(char: string | undefined): boolean {
  return char === " " || char === "\t";
}

function isDigit(char: string | undefined): boolean {
  return char !== undefined && char >= "0" && char <= "9";
}
