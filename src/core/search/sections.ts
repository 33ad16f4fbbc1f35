import type { Nodes } from "mdast";
import { createSlugger } from "../document/anchors.js";
import { parseMarkdown, textOf } from "../document/markdown.js";

/**
 * A page split into the sections that search finds: a section is a top-level heading with the text
 * that follows it up to the next top-level heading; the text before the first heading is the
 * page's introduction, titled with the page title. Section anchors are the heading anchors of the
 * page (`createSlugger`, as GitHub computes them). Text is what a reader sees: markup, HTML tags
 * and GitBook block tags (`{% hint %}`) removed, code kept.
 */
export interface Section {
  /** The heading anchor; undefined for the introduction. */
  readonly anchor?: string;
  readonly title: string;
  /** Plain text, whitespace collapsed. */
  readonly body: string;
}

export function pageSections(pageTitle: string, markdown: string): Section[] {
  const slugger = createSlugger();
  const sections: { anchor?: string; title: string; parts: string[] }[] = [{ title: pageTitle, parts: [] }];
  for (const block of parseMarkdown(markdown).children) {
    if (block.type === "heading") {
      const title = clean(textOf(block));
      sections.push({ anchor: slugger(title), title, parts: [] });
    } else {
      sections.at(-1)!.parts.push(blockText(block));
    }
  }
  return sections.map(({ anchor, title, parts }) => ({
    ...(anchor !== undefined ? { anchor } : {}),
    title,
    body: clean(parts.join("\n")),
  }));
}

function blockText(node: Nodes): string {
  switch (node.type) {
    case "code":
      return node.value;
    case "html":
      return removeDelimited(node.value, "<", ">");
    case "thematicBreak":
    case "definition":
      return "";
    case "root":
    case "blockquote":
    case "list":
    case "listItem":
    case "footnoteDefinition":
    case "table":
    case "tableRow":
      return node.children.map((child) => blockText(child)).join("\n");
    default:
      return textOf(node);
  }
}

function clean(text: string): string {
  return removeDelimited(text, "{%", "%}").replace(/\s+/g, " ").trim();
}

/**
 * `text` with each `open ... close` replaced by a space, in linear time: a lazy pattern would
 * rescan to the end of the text from every unclosed `open` (quadratic on `{%{%{%...`).
 */
function removeDelimited(text: string, open: string, close: string): string {
  let result = "";
  let from = 0;
  for (;;) {
    const start = text.indexOf(open, from);
    const end = start === -1 ? -1 : text.indexOf(close, start + open.length);
    if (end === -1) return result + text.slice(from);
    result += `${text.slice(from, start)} `;
    from = end + close.length;
  }
}
