export { renderPagesPdf, type PdfPageInput, type RenderPagesPdfInput } from "./render-pages-pdf.js";
export { toWinAnsi } from "./win-ansi.js";
