import type { FootnoteDefinition, List, ListItem, RootContent } from "mdast";
import type { Frame, Layout } from "./cursor.js";
import { BODY, GAP, LIST } from "./theme.js";
import { toWinAnsi } from "./win-ansi.js";

/**
 * Bullet, numbered and task lists. Items are indented by a marker column wide enough for the
 * widest marker (`10.` is wider than `9.`); bullets change with nesting depth.
 */
export function list(layout: Layout, node: List, frame: Frame): void {
  const depth = frame.listDepth ?? 0;
  const markers = node.children.map((item, index) => marker(node, item, index, depth));
  const widest = Math.max(...markers.map((text) => layout.cursor.measure(text, REGULAR, BODY.size)));
  const column = Math.max(LIST.indent, widest + 2 * LIST.markerGap);
  const gap = node.spread ? GAP.block : GAP.tight;
  node.children.forEach((item, index) => {
    if (index > 0) layout.cursor.gap(gap);
    const text = markers[index] ?? "";
    const itemGap = item.spread ? GAP.block : GAP.tight;
    markedBlock(layout, text, item.children, frame, column, depth + 1, itemGap);
  });
}

/** Footnotes (`[^1]: ...`) read like a list item whose marker is their label. */
export function footnoteDefinition(layout: Layout, node: FootnoteDefinition, frame: Frame): void {
  const text = toWinAnsi(`[${node.label ?? node.identifier}]`);
  const column = Math.max(LIST.indent, layout.cursor.measure(text, REGULAR, BODY.size) + LIST.markerGap);
  markedBlock(layout, text, node.children, frame, column, frame.listDepth ?? 0, GAP.tight);
}

const REGULAR = { font: "regular" } as const;

function marker(node: List, item: ListItem, index: number, depth: number): string {
  if (typeof item.checked === "boolean") return item.checked ? "[x]" : "[ ]";
  if (node.ordered) return `${(node.start ?? 1) + index}.`;
  return LIST.bullets[depth % LIST.bullets.length] ?? "•";
}

/** Lays out `children` right of a marker column, with `text` right-aligned beside the first line. */
function markedBlock(
  layout: Layout,
  text: string,
  children: readonly RootContent[],
  frame: Frame,
  column: number,
  listDepth: number,
  gap: number,
): void {
  const { cursor } = layout;
  const width = cursor.measure(text, REGULAR, BODY.size);
  const x = frame.x + column - LIST.markerGap - width;
  cursor.decorateNext((band) =>
    cursor.drawLine(
      [{ text, style: REGULAR }],
      x,
      { ...band, height: Math.min(band.height, BODY.lineHeight) },
      BODY,
    ),
  );
  const inner = { x: frame.x + column, width: frame.width - column, listDepth };
  if (children.length === 0) cursor.take(BODY.lineHeight);
  else layout.blocks(children, inner, gap);
}
