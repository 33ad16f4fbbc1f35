import { StandardFonts, rgb, type PDFDocument, type PDFFont } from "pdf-lib";
import type { FontKey } from "./wrap.js";

/** Sizes are in PDF points (1/72 inch). The page is A4 portrait. */
export const PAGE = {
  width: 595.28,
  height: 841.89,
  margin: { top: 64, right: 60, bottom: 64, left: 60 },
} as const;

export const COLORS = {
  text: rgb(0.12, 0.12, 0.14),
  muted: rgb(0.45, 0.45, 0.5),
  link: rgb(0.1, 0.35, 0.75),
  rule: rgb(0.82, 0.82, 0.85),
  codeBackground: rgb(0.95, 0.95, 0.96),
  quoteBar: rgb(0.78, 0.78, 0.82),
};

export const BODY = { size: 10.5, lineHeight: 15, color: COLORS.text };
export const DOCUMENT_TITLE = { size: 26, lineHeight: 32, color: COLORS.text };
export const CODE = { size: 9, lineHeight: 12.5, padding: 6, color: COLORS.text };
export const FOOTER = { size: 8.5, color: COLORS.muted };

/** Vertical space between blocks; tight lists keep their items closer. */
export const GAP = { block: 8, tight: 3, heading: 6, page: 22 };

export const LIST = { indent: 18, markerGap: 5, bullets: ["•", "–", "›"] } as const;
export const QUOTE = { indent: 14, barWidth: 2.5 } as const;
export const TABLE = { cellPadding: 4 } as const;

/** Markdown headings, `#` to `######`. */
export function headingStyle(level: number) {
  const size = [15, 13.5, 12, 11.5, 11, 11][level - 1] ?? 11;
  return { size, lineHeight: size * 1.35, color: COLORS.text };
}

/**
 * Page titles shrink with the page's depth in the table of contents, 20pt to 16pt: never below a
 * `#` heading inside the page, which belongs under the title.
 */
export function pageTitleStyle(depth: number) {
  const size = Math.max(16, 20 - 2 * depth);
  return { size, lineHeight: size * 1.3, color: COLORS.text };
}

export type Fonts = Record<FontKey, PDFFont>;

export async function embedFonts(doc: PDFDocument): Promise<Fonts> {
  const [regular, bold, italic, boldItalic, mono] = await Promise.all([
    doc.embedFont(StandardFonts.Helvetica),
    doc.embedFont(StandardFonts.HelveticaBold),
    doc.embedFont(StandardFonts.HelveticaOblique),
    doc.embedFont(StandardFonts.HelveticaBoldOblique),
    doc.embedFont(StandardFonts.Courier),
  ]);
  return { regular, bold, italic, boldItalic, mono };
}
