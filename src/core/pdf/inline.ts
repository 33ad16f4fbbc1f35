import type { Nodes, PhrasingContent } from "mdast";
import { toWinAnsi } from "./win-ansi.js";
import type { FontKey, Fragment, TextStyle } from "./wrap.js";

const REGULAR: TextStyle = { font: "regular" };

/**
 * Flattens markdown inline content into styled fragments: strong and emphasis pick the font,
 * inline code is monospace, links keep their text (in the link colour) and drop their target,
 * images show their alt text. Text is WinAnsi-safe; soft line breaks become spaces and hard
 * breaks `"\n"`.
 */
export function inlineFragments(nodes: readonly PhrasingContent[], style: TextStyle = REGULAR): Fragment[] {
  return nodes.flatMap((node) => inlineFragment(node, style));
}

function inlineFragment(node: PhrasingContent, style: TextStyle): Fragment[] {
  switch (node.type) {
    case "text":
      return [text(node.value.replace(/\s*\n\s*/g, " "), style)];
    case "strong":
      return inlineFragments(node.children, { ...style, font: strong(style.font) });
    case "emphasis":
      return inlineFragments(node.children, { ...style, font: emphasis(style.font) });
    case "delete":
      return inlineFragments(node.children, style);
    case "inlineCode":
      return [text(node.value, { ...style, font: "mono" })];
    case "link":
    case "linkReference":
      return inlineFragments(node.children, { ...style, link: true });
    case "image":
    case "imageReference":
      return node.alt ? [text(node.alt, { ...style, font: emphasis(style.font) })] : [];
    case "break":
      return [{ text: "\n", style }];
    case "footnoteReference":
      return [text(`[${node.label ?? node.identifier}]`, style)];
    case "html":
      return /^<br\s*\/?>$/i.test(node.value) ? [{ text: "\n", style }] : [];
    default:
      return [text(plainText(node), style)];
  }
}

/** The text of any node, for block types the renderer has no layout for. */
export function plainText(node: Nodes): string {
  if ("value" in node && typeof node.value === "string") return node.value;
  if ("children" in node) return node.children.map((child: Nodes) => plainText(child)).join("");
  if ("alt" in node && typeof node.alt === "string") return node.alt;
  return "";
}

function text(value: string, style: TextStyle): Fragment {
  return { text: toWinAnsi(value), style };
}

function strong(font: FontKey): FontKey {
  if (font === "italic") return "boldItalic";
  return font === "regular" ? "bold" : font;
}

function emphasis(font: FontKey): FontKey {
  if (font === "bold") return "boldItalic";
  return font === "regular" ? "italic" : font;
}
