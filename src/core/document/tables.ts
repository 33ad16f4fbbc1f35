import { generateNKeysBetween } from "fractional-indexing";
import type { AlignType, PhrasingContent, Table, TableCell, TableRow } from "mdast";
import { phrasingToDocument, type LinkTargets } from "./from-markdown-inlines.js";
import { textOf } from "./markdown.js";
import type { DocumentInputBlock, DocumentInputNode } from "./schema.js";
import { phrasingToMdast, refUrl, type RefResolver } from "./to-markdown-inlines.js";
import type { DocumentBlockTable, DocumentTableCell, DocumentTableDefinitionText } from "./types.js";

/**
 * GFM tables and the reference `table` block, both ways.
 *
 * The reference stores a table as columns (`definition`, here all of type `text`, titled by the
 * header cell's plain text), rows (`records`, ordered by a fractional `orderIndex`) whose values
 * name fragments, and one fragment per cell holding a paragraph. Ids are `c0`, `c1`... for columns
 * and `r0`, `r1`... for rows, and `r0c1` for the fragment of a cell; they only need to be unique
 * within the table. Header formatting is lost (a column title is a plain string), and a column
 * with no alignment reads as `left`, which is written back as no alignment.
 */

const ALIGNMENTS = { left: "left", center: "center", right: "right" } as const;

export function tableToDocument(table: Table, targets: LinkTargets): DocumentBlockTable {
  const [header, ...rows] = table.children;
  const columns = (header?.children ?? []).map((_, index) => `c${index}`);
  const definition: Record<string, DocumentTableDefinitionText> = {};
  columns.forEach((id, index) => {
    const cell = header?.children[index];
    const align = table.align?.[index] ?? null;
    const textAlignment = align ? ALIGNMENTS[align] : "left";
    definition[id] = { id, title: cell ? textOf(cell) : "", type: "text", textAlignment };
  });
  const orderIndexes = generateNKeysBetween(null, null, rows.length);
  const records: DocumentBlockTable["data"]["records"] = {};
  const fragments: DocumentTableCell[] = [];
  rows.forEach((row, rowIndex) => {
    const values: Record<string, string> = {};
    columns.forEach((column, columnIndex) => {
      const cell = row.children[columnIndex];
      if (!cell) return;
      const fragment = `r${rowIndex}${column}`;
      values[column] = fragment;
      const paragraph = {
        object: "block",
        type: "paragraph",
        key: "",
        nodes: phrasingToDocument(cell.children, targets),
      } as const;
      fragments.push({ object: "fragment", key: "", fragment, nodes: [paragraph] });
    });
    records[`r${rowIndex}`] = { orderIndex: orderIndexes[rowIndex]!, values };
  });
  return {
    object: "block",
    type: "table",
    key: "",
    isVoid: true,
    data: { view: { type: "grid", columns, hideHeader: false }, records, definition },
    fragments,
  };
}

export function tableToMdast(block: DocumentInputBlock, resolve: RefResolver): Table {
  const data = block.data ?? {};
  const definition = asRecord(data["definition"]);
  const view = asRecord(data["view"]);
  const columns = Array.isArray(view["columns"]) ? view["columns"].map(String) : Object.keys(definition);
  const fragments = new Map((block.fragments ?? []).map((fragment) => [fragment.fragment, fragment]));
  const records = Object.entries(asRecord(data["records"]))
    .map(([id, record]) => ({ id, orderIndex: String(asRecord(record)["orderIndex"] ?? ""), record }))
    .sort((a, b) => compare(a.orderIndex, b.orderIndex) || compare(a.id, b.id));

  const cellOf = (value: unknown): TableCell => {
    const fragment = typeof value === "string" ? fragments.get(value) : undefined;
    if (fragment) return { type: "tableCell", children: fragmentPhrasing(fragment.nodes, resolve) };
    return { type: "tableCell", children: valuePhrasing(value, resolve) };
  };
  const header: TableRow = {
    type: "tableRow",
    children: columns.map((id) => ({
      type: "tableCell",
      children: text(String(asRecord(definition[id])["title"] ?? "")),
    })),
  };
  const rows: TableRow[] = records.map(({ record }) => {
    const values = asRecord(asRecord(record)["values"]);
    return { type: "tableRow", children: columns.map((id) => cellOf(values[id])) };
  });
  const align = columns.map((id): AlignType => {
    const alignment = asRecord(definition[id])["textAlignment"];
    return alignment === "center" || alignment === "right" ? alignment : null;
  });
  return { type: "table", align, children: [header, ...rows] };
}

/** A cell fragment's paragraphs, on one line (a GFM cell cannot hold more), separated by breaks. */
function fragmentPhrasing(nodes: readonly DocumentInputNode[], resolve: RefResolver): PhrasingContent[] {
  return nodes.flatMap((node, index): PhrasingContent[] => {
    const children = node.object === "block" ? (node.nodes ?? []) : [node];
    const phrasing = phrasingToMdast(children, resolve);
    return index > 0 ? [{ type: "break" }, ...phrasing] : phrasing;
  });
}

/** Values of non-text columns: numbers, booleans, lists of ids, and URL or other references. */
function valuePhrasing(value: unknown, resolve: RefResolver): PhrasingContent[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return text(value.map(String).join(", "));
  if (typeof value !== "object") return text(String(value));
  const url = refUrl(value, resolve);
  return url === undefined ? [] : [{ type: "link", url, children: text(url) }];
}

function text(value: string): PhrasingContent[] {
  return value ? [{ type: "text", value }] : [];
}

function asRecord(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** Code-unit order, as fractional indexes are compared (not locale order). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
