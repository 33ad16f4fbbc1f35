import type { Nodes } from "mdast";
import { createSlugger } from "./anchors.js";
import { parseMarkdown, textOf } from "./markdown.js";

/** A heading of a page, as search results and PDF outlines list it. */
export interface PageHeading {
  /** The markdown level, 1 to 6 (the document model clamps levels 4 to 6 to `heading-3`; this does not). */
  readonly depth: 1 | 2 | 3 | 4 | 5 | 6;
  /** The heading's text without markup. */
  readonly title: string;
  /** The anchor of the heading, unique in the page; `markdownToDocument` gives headings the same one. */
  readonly anchor: string;
}

/**
 * The headings of page markdown, in document order, including headings inside lists and quotes
 * (each gets an anchor, as on GitHub).
 *
 * @example
 * ```ts
 * extractHeadings("# Setup\n\n## Setup\n");
 * // [{ depth: 1, title: "Setup", anchor: "setup" }, { depth: 2, title: "Setup", anchor: "setup-1" }]
 * ```
 */
export function extractHeadings(markdown: string): PageHeading[] {
  const slug = createSlugger();
  const headings: PageHeading[] = [];
  const visit = (node: Nodes) => {
    if (node.type === "heading") {
      const title = textOf(node).trim();
      headings.push({ depth: node.depth, title, anchor: slug(title) });
    } else if ("children" in node) {
      for (const child of node.children) visit(child);
    }
  };
  visit(parseMarkdown(markdown));
  return headings;
}

/**
 * The text of page markdown without markup, for search indexing and plain renderings: blocks
 * separated by a blank line, list items and table rows by a line break, table cells by a tab.
 * Code (spans and blocks) and image descriptions are kept, since readers search for them; raw
 * HTML, link destinations and definitions are not. Soft line breaks read as spaces.
 *
 * @example
 * ```ts
 * plainText("# Title\n\nSome **bold** [link](https://x).\n"); // "Title\n\nSome bold link."
 * ```
 */
export function plainText(markdown: string): string {
  return blockText(parseMarkdown(markdown));
}

function blockText(node: Nodes): string {
  switch (node.type) {
    case "root":
    case "blockquote":
    case "listItem":
    case "footnoteDefinition":
      return join(
        node.children.map((child) => blockText(child)),
        "\n\n",
      );
    case "list":
      return join(
        node.children.map((child) => blockText(child)),
        "\n",
      );
    case "table":
      return join(
        node.children.map((row) => row.children.map((cell) => textOf(cell).trim()).join("\t")),
        "\n",
      );
    case "code":
      return node.value;
    case "html":
    case "definition":
    case "thematicBreak":
      return "";
    default:
      return textOf(node).trim();
  }
}

function join(parts: readonly string[], separator: string): string {
  return parts.filter((part) => part !== "").join(separator);
}
