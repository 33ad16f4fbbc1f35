import type { Root } from "mdast";
import { parseMarkdown as parseContentMarkdown } from "../document/markdown.js";
import { PDFDocument } from "pdf-lib";
import { LayoutCursor } from "./cursor.js";
import { createLayout } from "./layout.js";
import { BODY, DOCUMENT_TITLE, FOOTER, GAP, PAGE, embedFonts, pageTitleStyle, type Fonts } from "./theme.js";
import { toWinAnsi } from "./win-ansi.js";

export interface PdfPageInput {
  title: string;
  /** GitBook-flavoured markdown (CommonMark + GFM); a leading YAML front matter is skipped. */
  markdown: string;
  /** 0 for a top-level page, 1 for its children, and so on: smaller titles deeper down. */
  depth: number;
}

export interface RenderPagesPdfInput {
  /** Drawn on the first page and stored as the document title. */
  title: string;
  /** In reading order, as in the table of contents. */
  pages: readonly PdfPageInput[];
  /**
   * Stored as the creation and modification dates. Without it the document carries no date, so
   * the same input always renders the same bytes.
   */
  date?: Date;
}

/**
 * Renders documentation pages into one PDF with the standard PDF fonts: the document title, then
 * each page's title and markdown body (headings, paragraphs, lists, code, quotes, tables), with
 * word wrapping, page breaks and page numbers. Runs anywhere pdf-lib runs (browsers, workers,
 * Node). Characters the standard fonts cannot encode (emoji, CJK) are transliterated or shown
 * as `?`; the document title in the metadata keeps them.
 *
 * @example
 * const bytes = await renderPagesPdf({
 *   title: "Handbook",
 *   pages: [{ title: "Welcome", markdown: "Hello **world**", depth: 0 }],
 * });
 * return new Response(bytes, { headers: { "content-type": "application/pdf" } });
 */
export async function renderPagesPdf(input: RenderPagesPdfInput): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(input.title, { showInWindowTitleBar: true });
  doc.setProducer("docsbase");
  doc.setCreator("docsbase");
  if (input.date) {
    doc.setCreationDate(input.date);
    doc.setModificationDate(input.date);
  }

  const fonts = await embedFonts(doc);
  const cursor = new LayoutCursor(doc, fonts);
  const layout = createLayout(cursor);
  const frame = cursor.frame;

  cursor.write([{ text: toWinAnsi(input.title), style: { font: "bold" } }], frame, DOCUMENT_TITLE);
  cursor.rule(frame, 16);
  input.pages.forEach((page, index) => {
    const style = pageTitleStyle(Math.max(0, Math.floor(page.depth)));
    if (index > 0) cursor.gap(GAP.page);
    // A page title is never the last line of a PDF page: two lines of its body come with it.
    cursor.keep(style.lineHeight + GAP.block + 2 * BODY.lineHeight);
    cursor.write([{ text: toWinAnsi(page.title), style: { font: "bold" } }], frame, style);
    cursor.gap(GAP.block);
    layout.blocks(parseMarkdown(page.markdown).children, frame);
  });

  numberPages(doc, fonts);
  return doc.save();
}

export function parseMarkdown(markdown: string): Root {
  const body = markdown.replace(/^---\r?\n[\s\S]*?\r?\n---[ \t]*(\r?\n|$)/, "");
  // The shared parser: bounded work, and plain text for markdown over its limits.
  return parseContentMarkdown(body);
}

/** `n / total`, centred under the text; drawn last, when the total is known. */
function numberPages(doc: PDFDocument, fonts: Fonts): void {
  const pages = doc.getPages();
  pages.forEach((page, index) => {
    const text = `${index + 1} / ${pages.length}`;
    const width = fonts.regular.widthOfTextAtSize(text, FOOTER.size);
    const y = PAGE.margin.bottom / 2;
    page.drawText(text, {
      x: (PAGE.width - width) / 2,
      y,
      size: FOOTER.size,
      font: fonts.regular,
      color: FOOTER.color,
    });
  });
}
