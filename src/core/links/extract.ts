import type { Nodes } from "mdast";
import { parseMarkdown, textOf } from "../document/markdown.js";
import { mentionedUser } from "../document/mentions.js";

/**
 * The links a page's markdown contains, as written: inline links and images, reference-style links
 * and images (through the page's definitions), `href` / `src` attributes of raw HTML (GitBook writes
 * `<figure><img src="...">` and `<a href="...">`), and the GitBook blocks `{% file src="..." %}`,
 * `{% embed url="..." %}` and `{% content-ref url="..." %}`. Code is not searched: a link inside a
 * code block is text. Same-page anchors (`#...`) and mentions of users (`[@u1](user:u1)`) link to no
 * other content and are left out.
 * Stored references (link-references/references.ts) are extracted as written and resolved by id.
 */

/** `dependsOn` for what the page embeds (images, file blocks), `reference` for what it links to. */
export type LinkRelation = "reference" | "dependsOn";

export interface RawLink {
  readonly href: string;
  readonly relation: LinkRelation;
  /** An autolink: its target is text even in the reserved form of references. */
  readonly literal?: boolean;
}

const BLOCK_TAG = /\{%\s*(file|embed|content-ref)\s+(?:src|url)\s*=\s*"([^"]+)"/g;
const HTML_ATTRIBUTE = /\b(href|src)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;

export function extractLinks(markdown: string): RawLink[] {
  const tree = parseMarkdown(markdown);
  const definitions = new Map<string, string>();
  walk(tree, (node) => {
    if (node.type === "definition" && !definitions.has(node.identifier)) {
      definitions.set(node.identifier, node.url);
    }
  });
  const links: RawLink[] = [];
  const add = (href: string | undefined, relation: LinkRelation, literal = false) => {
    const trimmed = href?.trim();
    if (trimmed && !trimmed.startsWith("#"))
      links.push({ href: trimmed, relation, ...(literal ? { literal } : {}) });
  };
  walk(tree, (node) => {
    switch (node.type) {
      case "link":
        // A mention of a user (document/mentions.ts) links to no content.
        if (mentionedUser(node.url) !== undefined) return;
        return add(node.url, "reference", markdown[node.position?.start.offset ?? -1] === "<");
      case "image":
        return add(node.url, "dependsOn");
      case "linkReference":
        return add(definitions.get(node.identifier), "reference");
      case "imageReference":
        return add(definitions.get(node.identifier), "dependsOn");
      case "html":
        for (const match of node.value.matchAll(HTML_ATTRIBUTE)) {
          add(match[2] ?? match[3], match[1]!.toLowerCase() === "src" ? "dependsOn" : "reference");
        }
        return;
      case "paragraph":
        for (const match of textOf(node).matchAll(BLOCK_TAG)) {
          add(match[2], match[1] === "file" ? "dependsOn" : "reference");
        }
        return;
      default:
        return;
    }
  });
  return links;
}

/** Visits every node of the tree, parents before children. */
function walk(node: Nodes, visit: (node: Nodes) => void): void {
  visit(node);
  if ("children" in node) for (const child of node.children) walk(child, visit);
}
