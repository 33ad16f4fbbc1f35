import type { RootContent } from "mdast";
import {
  blockquote,
  codeBlock,
  heading,
  htmlBlock,
  paragraph,
  stripTags,
  textBlock,
  thematicBreak,
} from "./blocks.js";
import type { Frame, Layout, LayoutCursor } from "./cursor.js";
import { plainText } from "./inline.js";
import { footnoteDefinition, list } from "./lists.js";
import { table } from "./table.js";
import { GAP } from "./theme.js";

export function createLayout(cursor: LayoutCursor): Layout {
  const layout: Layout = {
    cursor,
    blocks: (nodes, frame, gap = GAP.block) => {
      nodes.filter(isVisible).forEach((node, index) => {
        if (index > 0) cursor.gap(gap);
        block(layout, node, frame);
      });
    },
  };
  return layout;
}

function block(layout: Layout, node: RootContent, frame: Frame): void {
  switch (node.type) {
    case "heading":
      return heading(layout, node, frame);
    case "paragraph":
      return paragraph(layout, node, frame);
    case "code":
      return codeBlock(layout, node, frame);
    case "blockquote":
      return blockquote(layout, node, frame);
    case "list":
      return list(layout, node, frame);
    case "table":
      return table(layout, node, frame);
    case "thematicBreak":
      return thematicBreak(layout, frame);
    case "html":
      return htmlBlock(layout, node, frame);
    case "footnoteDefinition":
      return footnoteDefinition(layout, node, frame);
    default:
      // Inline nodes at block level and unknown extensions: keep their words.
      return textBlock(layout, plainText(node), frame);
  }
}

/** Link definitions and comments draw nothing, so they must not add a gap either. */
function isVisible(node: RootContent): boolean {
  if (node.type === "definition" || node.type === "yaml") return false;
  return node.type !== "html" || stripTags(node.value) !== "";
}
