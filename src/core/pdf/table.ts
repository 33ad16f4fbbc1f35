import type { Table } from "mdast";
import type { Frame, Layout } from "./cursor.js";
import { inlineFragments } from "./inline.js";
import { BODY, TABLE } from "./theme.js";
import { wrapFragments, type TextStyle } from "./wrap.js";

/**
 * GFM tables as equal-width columns; each cell wraps inside its column, the header row is bold
 * and kept with the first body row, and a rule separates rows. A row taller than the space left
 * continues on the next page line by line.
 */
export function table({ cursor }: Layout, node: Table, frame: Frame): void {
  const columns = Math.max(1, ...node.children.map((row) => row.children.length));
  const columnWidth = frame.width / columns;
  const cellWidth = columnWidth - 2 * TABLE.cellPadding;

  node.children.forEach((row, rowIndex) => {
    const style: TextStyle = { font: rowIndex === 0 ? "bold" : "regular" };
    const measure = (text: string, textStyle: TextStyle) => cursor.measure(text, textStyle, BODY.size);
    const cells = row.children.map((cell) =>
      wrapFragments(inlineFragments(cell.children, style), cellWidth, measure),
    );
    const height = Math.max(1, ...cells.map((lines) => lines.length));
    if (rowIndex === 0) cursor.keep((height + 1) * BODY.lineHeight + 8);
    for (let line = 0; line < height; line++) {
      const band = cursor.take(BODY.lineHeight);
      cells.forEach((lines, column) => {
        const fragments = lines[line];
        const x = frame.x + column * columnWidth + TABLE.cellPadding;
        if (fragments) cursor.drawLine(fragments, x, band, BODY);
      });
    }
    cursor.rule(frame, 6);
  });
}
