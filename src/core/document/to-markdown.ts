import type { BlockContent, ListItem, PhrasingContent, RootContent } from "mdast";
import { serializeMarkdown } from "./markdown.js";
import { badRequest } from "../shared/errors.js";
import {
  depthExceeds,
  MAX_DOCUMENT_DEPTH,
  type DocumentInput,
  type DocumentInputBlock,
  type DocumentInputNode,
} from "./schema.js";
import { INCLUDE_PATTERN } from "./from-markdown.js";
import { tableToMdast } from "./tables.js";
import { phrasingToMdast, refUrl, type RefResolver } from "./to-markdown-inlines.js";
import type { JSONDocument } from "./types.js";

export interface DocumentToMarkdownOptions {
  /**
   * The URL of a reference other than a URL (a page, an anchor, a file...), which only the caller
   * can resolve. Without it, or when it answers `undefined`, anchors become `#anchor` links and
   * other links keep their text without a link.
   */
  readonly resolveRef?: RefResolver;
}

const HINT_ALERTS: Record<string, string> = {
  info: "NOTE",
  success: "TIP",
  warning: "WARNING",
  danger: "CAUTION",
};

/**
 * Writes a document of the reference model as markdown, in the normalized form of
 * `serializeMarkdown`; it is the inverse of `markdownToDocument` on markdown in that form.
 *
 * Blocks with a markdown form are written as such: hints as GitHub alerts, expandables as
 * `<details>`, math as `$$` (GitBook's syntax). Other blocks (tabs, steppers, columns...) give
 * their content, and void blocks with no markdown form (files, drawings, integrations) are left
 * out. A document from outside should go through `documentInput` first; this function only
 * refuses one nested too deeply.
 *
 * @throws DocsbaseError `bad_request` for a document nested deeper than `MAX_DOCUMENT_DEPTH`.
 *
 * @example
 * ```ts
 * documentToMarkdown(markdownToDocument("Some *emphasis*\n")); // "Some *emphasis*\n"
 * ```
 */
export function documentToMarkdown(
  document: JSONDocument | DocumentInput,
  options: DocumentToMarkdownOptions = {},
): string {
  // The passes below recurse: refuse what `documentInput` refuses, for callers that did not parse.
  if (depthExceeds(document, MAX_DOCUMENT_DEPTH)) {
    throw badRequest(`The document nests deeper than ${MAX_DOCUMENT_DEPTH} nodes`);
  }
  const resolve: RefResolver = (ref) =>
    options.resolveRef?.(ref) ??
    (ref["kind"] === "anchor" && typeof ref["anchor"] === "string" ? `#${ref["anchor"]}` : undefined);
  const children = flow(document.nodes, resolve) as RootContent[];
  return serializeMarkdown({ type: "root", children });
}

function flow(nodes: readonly DocumentInputNode[] | undefined, resolve: RefResolver): BlockContent[] {
  const list = nodes ?? [];
  // Inlines or texts where blocks belong (allowed structurally) read as one paragraph.
  if (list.some((node) => node.object !== "block")) {
    return [{ type: "paragraph", children: phrasingToMdast(list, resolve) }];
  }
  return list.flatMap((node) => (node.object === "block" ? block(node, resolve) : []));
}

function block(node: DocumentInputBlock, resolve: RefResolver): BlockContent[] {
  const data = node.data ?? {};
  const phrasing = () => phrasingToMdast(node.nodes ?? [], resolve);
  switch (node.type) {
    case "paragraph":
      return [{ type: "paragraph", children: phrasing() }];
    case "heading-1":
    case "heading-2":
    case "heading-3":
      return [{ type: "heading", depth: Number(node.type.slice(-1)) as 1 | 2 | 3, children: phrasing() }];
    case "divider":
      return [{ type: "thematicBreak" }];
    case "list-ordered":
    case "list-unordered":
    case "list-tasks": {
      const ordered = node.type === "list-ordered";
      const start = ordered ? (typeof data["start"] === "number" ? data["start"] : 1) : null;
      const children = (node.nodes ?? []).map((item) => listItem(item, node.type === "list-tasks", resolve));
      return [{ type: "list", ordered, start, spread: false, children }];
    }
    case "blockquote":
      return [{ type: "blockquote", children: flow(node.nodes, resolve) }];
    case "hint": {
      const marker: PhrasingContent = {
        type: "html",
        value: `[!${HINT_ALERTS[String(data["style"])] ?? "NOTE"}]`,
      };
      const [first, ...rest] = flow(node.nodes, resolve);
      if (first?.type === "paragraph") {
        const opening: PhrasingContent[] = [marker, { type: "text", value: "\n" }];
        return [
          {
            type: "blockquote",
            children: [{ ...first, children: [...opening, ...first.children] }, ...rest],
          },
        ];
      }
      const opening: BlockContent = { type: "paragraph", children: [marker] };
      return [{ type: "blockquote", children: [opening, ...(first ? [first] : []), ...rest] }];
    }
    case "code": {
      const value = (node.nodes ?? []).map((line) => lineText(line)).join("\n");
      const lang = typeof data["syntax"] === "string" && data["syntax"] ? data["syntax"] : null;
      const meta = typeof data["title"] === "string" ? `title="${data["title"].replace(/"/g, "'")}"` : null;
      return [{ type: "code", lang: lang ?? (meta ? "text" : null), meta, value }];
    }
    case "images":
    case "image": {
      const images = node.type === "image" ? [node] : (node.nodes ?? []);
      const children = images.flatMap((image, index): PhrasingContent[] => {
        const converted = image.object === "block" ? imageNode(image.data ?? {}, resolve) : undefined;
        return converted ? [...(index > 0 ? [{ type: "text", value: "\n" } as const] : []), converted] : [];
      });
      return children.length > 0 ? [{ type: "paragraph", children }] : [];
    }
    case "table":
      return [tableToMdast(node, resolve)];
    case "reusable-content": {
      const ref = data["ref"] as Record<string, unknown> | undefined;
      const id = ref?.["reusableContent"];
      const include = `{% include "${String(id)}" %}`;
      return typeof id === "string" && INCLUDE_PATTERN.test(include)
        ? [{ type: "html", value: include }]
        : [];
    }
    case "math":
      return [{ type: "html", value: `$$\n${String(data["formula"] ?? "")}\n$$` }];
    case "expandable": {
      const fragment = (name: string) =>
        node.fragments?.find((entry) => (entry.fragment ?? entry.type) === name);
      const title =
        fragment("expandable-title")
          ?.nodes.map((child) => lineText(child))
          .join(" ") ?? "";
      return [
        { type: "html", value: `<details>\n<summary>${escapeHtml(title)}</summary>` },
        ...flow(fragment("expandable-body")?.nodes, resolve),
        { type: "html", value: "</details>" },
      ];
    }
    default: {
      // Blocks without a markdown form: their content, or a link for embeds.
      const url = typeof data["url"] === "string" ? data["url"] : undefined;
      if (url && !node.nodes?.length)
        return [
          { type: "paragraph", children: [{ type: "link", url, children: [{ type: "text", value: url }] }] },
        ];
      return [
        ...flow(node.nodes, resolve),
        ...(node.fragments ?? []).flatMap((entry) => flow(entry.nodes, resolve)),
      ];
    }
  }
}

function listItem(node: DocumentInputNode, task: boolean, resolve: RefResolver): ListItem {
  const children = node.object === "block" ? flow(node.nodes, resolve) : flow([node], resolve);
  const checked = task ? node.object === "block" && node.data?.["checked"] === true : null;
  return { type: "listItem", spread: false, checked, children };
}

function imageNode(data: Record<string, unknown>, resolve: RefResolver): PhrasingContent | undefined {
  const url = refUrl(data["ref"], resolve);
  return url === undefined
    ? undefined
    : { type: "image", url, alt: typeof data["alt"] === "string" ? data["alt"] : null };
}

/** The text of a code line (or any node): its leaves, and expressions as written. */
function lineText(node: DocumentInputNode): string {
  if (node.object === "text") return node.leaves.map((leaf) => leaf.text).join("");
  if (node.type === "expression") return `{{ ${String(node.data?.["expression"] ?? "")} }}`;
  return (node.nodes ?? []).map((child) => lineText(child)).join("");
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
