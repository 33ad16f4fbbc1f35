import type { Blockquote, Code, Heading, Html, Paragraph } from "mdast";
import type { Decoration, Frame, Layout } from "./cursor.js";
import { inlineFragments } from "./inline.js";
import { BODY, CODE, COLORS, GAP, QUOTE, headingStyle } from "./theme.js";
import { toWinAnsi } from "./win-ansi.js";
import { wrapMonospace } from "./wrap.js";

/** Markdown headings, bold and sized by level, kept on the page of the two lines that follow. */
export function heading({ cursor }: Layout, node: Heading, frame: Frame): void {
  const style = headingStyle(node.depth);
  cursor.gap(GAP.heading);
  cursor.keep(style.lineHeight + 2 * BODY.lineHeight);
  cursor.write(inlineFragments(node.children, { font: "bold" }), frame, style);
}

export function paragraph({ cursor }: Layout, node: Paragraph, frame: Frame): void {
  cursor.write(inlineFragments(node.children), frame, BODY);
}

/** Plain text as a paragraph: raw HTML and nodes without a layout of their own. */
export function textBlock({ cursor }: Layout, text: string, frame: Frame): void {
  cursor.write([{ text: toWinAnsi(text), style: { font: "regular" } }], frame, BODY);
}

/**
 * Code in Courier on a light background. Lines are never reflowed, only cut when wider than the
 * frame; tabs become spaces up to the next multiple of four columns.
 */
export function codeBlock({ cursor }: Layout, node: Code, frame: Frame): void {
  const charWidth = cursor.fonts.mono.widthOfTextAtSize("M", CODE.size);
  const maxChars = Math.max(8, Math.floor((frame.width - 2 * CODE.padding) / charWidth));
  const lines = node.value
    .split(/\r?\n/)
    .flatMap((line) => wrapMonospace(toWinAnsi(expandTabs(line)), maxChars));
  const background: Decoration = (band) =>
    band.page.drawRectangle({
      x: frame.x,
      y: band.top - band.height,
      width: frame.width,
      height: band.height,
      color: COLORS.codeBackground,
    });

  cursor.keep(2 * CODE.padding + Math.min(lines.length, 3) * CODE.lineHeight);
  cursor.decorate(background, () => {
    cursor.take(CODE.padding);
    for (const line of lines) {
      const band = cursor.take(CODE.lineHeight);
      cursor.drawLine([{ text: line, style: { font: "mono" } }], frame.x + CODE.padding, band, CODE);
    }
    cursor.take(CODE.padding);
  });
}

/** Quoted blocks, indented, with a bar down their left side. */
export function blockquote(layout: Layout, node: Blockquote, frame: Frame): void {
  const bar: Decoration = (band) =>
    band.page.drawRectangle({
      x: frame.x,
      y: band.top - band.height,
      width: QUOTE.barWidth,
      height: band.height,
      color: COLORS.quoteBar,
    });
  const inner = { ...frame, x: frame.x + QUOTE.indent, width: frame.width - QUOTE.indent };
  layout.cursor.decorate(bar, () => layout.blocks(node.children, inner));
}

export function thematicBreak({ cursor }: Layout, frame: Frame): void {
  cursor.rule(frame, 12);
}

/** Raw HTML blocks keep their text; the tags are dropped. */
export function htmlBlock(layout: Layout, node: Html, frame: Frame): void {
  const text = stripTags(node.value);
  if (text !== "") textBlock(layout, text, frame);
}

export function stripTags(html: string): string {
  return html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<[^>]*>/g, "")
    .trim();
}

function expandTabs(line: string): string {
  let out = "";
  for (const char of line) out += char === "\t" ? " ".repeat(4 - (out.length % 4)) : char;
  return out;
}
