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
