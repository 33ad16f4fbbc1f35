import type { RootContent } from "mdast";
import type { Color, PDFDocument, PDFPage } from "pdf-lib";
import { COLORS, PAGE, type Fonts } from "./theme.js";
import { wrapFragments, type Fragment, type TextStyle } from "./wrap.js";

/** The horizontal slice of the page a block is laid out in. */
export interface Frame {
  x: number;
  width: number;
  /** How many lists enclose the block: picks the bullet of a nested list. */
  listDepth?: number;
}

/**
 * What every block function receives: the cursor to draw with, and `blocks` to lay out nested
 * content (list items, quotes) without the block modules importing one another. It is declared
 * here rather than in layout.ts, which imports every block module, so that no block module has to
 * import layout.ts back.
 */
export interface Layout {
  cursor: LayoutCursor;
  blocks(nodes: readonly RootContent[], frame: Frame, gap?: number): void;
}

/** A strip reserved on a page, from `top` down `height` points (PDF y grows upwards). */
export interface Band {
  page: PDFPage;
  top: number;
  height: number;
}

/** Drawn on bands as they are reserved: blockquote bars, code backgrounds, list markers. */
export type Decoration = (band: Band) => void;

export interface LineStyle {
  size: number;
  lineHeight: number;
  color: Color;
}

const TOP = PAGE.height - PAGE.margin.top;
const BOTTOM = PAGE.margin.bottom;

/**
 * Lays content out top to bottom, one band at a time, and starts a new page when a band does not
 * fit. Decorations drawn per band (rather than once per block) are what let a code background or
 * a quote bar continue across a page break.
 */
export class LayoutCursor {
  private page: PDFPage;
  private y = TOP;
  private readonly decorations: Decoration[] = [];
  private pending: Decoration[] = [];

  constructor(
    private readonly doc: PDFDocument,
    readonly fonts: Fonts,
  ) {
    this.page = doc.addPage([PAGE.width, PAGE.height]);
  }

  /** The whole width between the margins. */
  get frame(): Frame {
    return { x: PAGE.margin.left, width: PAGE.width - PAGE.margin.left - PAGE.margin.right };
  }

  /**
   * Vertical space between blocks; dropped at the top of a page and at a page break. Inside a
   * decorated block (quote, code) the gap is decorated too, so the bar or background has no hole.
   */
  gap(height: number): void {
    if (this.y >= TOP) return;
    if (this.y - height < BOTTOM) this.newPage();
    else this.reserve(height, this.decorations);
  }

  /** Starts a new page unless `height` points fit: keeps a heading with the text that follows. */
  keep(height: number): void {
    if (this.y - height < BOTTOM && this.y < TOP) this.newPage();
  }

  /** Reserves the next `height` points, on a new page if needed, and decorates them. */
  take(height: number): Band {
    this.keep(height);
    const pending = this.pending;
    this.pending = [];
    return this.reserve(height, [...this.decorations, ...pending]);
  }

  /** Decorates every band reserved while `layout` runs. */
  decorate(decoration: Decoration, layout: () => void): void {
    this.decorations.push(decoration);
    try {
      layout();
    } finally {
      this.decorations.pop();
    }
  }

  /** Decorates only the next band reserved: a list marker goes beside the item's first line. */
  decorateNext(decoration: Decoration): void {
    this.pending.push(decoration);
  }

  measure(text: string, style: TextStyle, size: number): number {
    return this.fonts[style.font].widthOfTextAtSize(text, size);
  }

  /** Wraps `fragments` to the frame and draws them, one band per line. */
  write(fragments: readonly Fragment[], frame: Frame, style: LineStyle): void {
    const measure = (text: string, textStyle: TextStyle) => this.measure(text, textStyle, style.size);
    for (const line of wrapFragments(fragments, frame.width, measure)) {
      this.drawLine(line, frame.x, this.take(style.lineHeight), style);
    }
  }

  /** Draws one line of fragments (already WinAnsi) vertically centred in `band`. */
  drawLine(line: readonly Fragment[], x: number, band: Band, style: LineStyle): void {
    const y = baseline(band, style.size);
    for (const { text, style: textStyle } of line) {
      const font = this.fonts[textStyle.font];
      const color = textStyle.link ? COLORS.link : style.color;
      band.page.drawText(text, { x, y, size: style.size, font, color });
      x += font.widthOfTextAtSize(text, style.size);
    }
  }

  /** A horizontal rule across `frame`, in a band of its own. */
  rule(frame: Frame, height = 8): void {
    const band = this.take(height);
    const y = band.top - height / 2;
    band.page.drawLine({
      start: { x: frame.x, y },
      end: { x: frame.x + frame.width, y },
      thickness: 0.75,
      color: COLORS.rule,
    });
  }

  private reserve(height: number, decorations: readonly Decoration[]): Band {
    const band = { page: this.page, top: this.y, height };
    this.y -= height;
    for (const decorate of decorations) decorate(band);
    return band;
  }

  private newPage(): void {
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.y = TOP;
  }
}

/** Centres capital letters (about 0.72 em high in Helvetica) in the band. */
export function baseline(band: Band, size: number): number {
  return band.top - band.height / 2 - size * 0.36;
}
