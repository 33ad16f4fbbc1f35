import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

/** A piece of text as pdf.js places it: its string, left edge and width in points. */
export interface PdfTextItem {
  readonly str: string;
  readonly x: number;
  readonly width: number;
}

/** What {@link readPdf} reads back from a PDF. */
export interface PdfContents {
  readonly totalPages: number;
  /** Each page's text, a line break where pdf.js ends a line. */
  readonly pages: readonly string[];
  /** The pages' text joined by line breaks. */
  readonly text: string;
  /** The document information dictionary (`Title`, `Producer`, `CreationDate`...). */
  readonly info: Record<string, unknown>;
  /** Every non-blank text item, page after page. */
  readonly items: readonly PdfTextItem[];
}

/**
 * Reads a PDF back with pdf.js (its legacy build, which runs on every Node version we support):
 * page count, text per page, metadata and positioned text items.
 */
export async function readPdf(bytes: Uint8Array): Promise<PdfContents> {
  // pdf.js takes ownership of the buffer it is given: hand it a copy. Text and widths of the
  // standard fonts come from pdf.js's own metrics; its warning about the missing glyph data (used
  // only to draw) is silenced.
  const pdf = await getDocument({ data: bytes.slice(), isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const pages: string[] = [];
    const items: PdfTextItem[] = [];
    for (let number = 1; number <= pdf.numPages; number++) {
      const content = await (await pdf.getPage(number)).getTextContent();
      let text = "";
      for (const item of content.items) {
        if (!("str" in item)) continue;
        text += item.str + (item.hasEOL ? "\n" : "");
        if (item.str.trim() !== "") {
          items.push({ str: item.str, x: item.transform[4] as number, width: item.width });
        }
      }
      pages.push(text);
    }
    const { info } = await pdf.getMetadata();
    return {
      totalPages: pdf.numPages,
      pages,
      text: pages.join("\n"),
      info: info as Record<string, unknown>,
      items,
    };
  } finally {
    await pdf.destroy();
  }
}
