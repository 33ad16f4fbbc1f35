/** The five standard fonts the renderer embeds (no font file travels with the PDF). */
export type FontKey = "regular" | "bold" | "italic" | "boldItalic" | "mono";

export interface TextStyle {
  font: FontKey;
  /** Links are drawn as their text, in the link colour. */
  link?: boolean;
}

/** A run of text in one style. `"\n"` in a fragment is a hard line break. */
export interface Fragment {
  text: string;
  style: TextStyle;
}

/** Width in points of `text` drawn in `style` (at the size of the block being wrapped). */
export type Measure = (text: string, style: TextStyle) => number;

type Token = { kind: "word"; parts: Fragment[] } | { kind: "space"; style: TextStyle } | { kind: "break" };

/**
 * Greedy word wrapping of styled text into lines no wider than `maxWidth`. A word is what lies
 * between spaces, even across styles (`**bold**,` keeps its comma), and a word wider than a whole
 * line (a long URL) is cut between characters. Spaces at the start of a line are dropped.
 */
export function wrapFragments(
  fragments: readonly Fragment[],
  maxWidth: number,
  measure: Measure,
): Fragment[][] {
  const lines: Fragment[][] = [];
  let line: Fragment[] = [];
  let width = 0;
  let space: TextStyle | null = null;
  const flush = () => {
    lines.push(line);
    line = [];
    width = 0;
    space = null;
  };
  const place = (text: string, style: TextStyle, textWidth: number) => {
    append(line, text, style);
    width += textWidth;
  };

  for (const token of tokenize(fragments)) {
    if (token.kind === "break") flush();
    else if (token.kind === "space") space = line.length > 0 ? (space ?? token.style) : null;
    else {
      const wordWidth = sum(token.parts.map((part) => measure(part.text, part.style)));
      const spaceWidth = space ? measure(" ", space) : 0;
      if (line.length > 0 && width + spaceWidth + wordWidth > maxWidth + 0.01) flush();
      if (space) place(" ", space, spaceWidth);
      space = null;
      if (wordWidth <= maxWidth + 0.01) {
        for (const part of token.parts) place(part.text, part.style, measure(part.text, part.style));
        continue;
      }
      for (const part of token.parts) {
        for (const char of part.text) {
          const charWidth = measure(char, part.style);
          if (line.length > 0 && width + charWidth > maxWidth + 0.01) flush();
          place(char, part.style, charWidth);
        }
      }
    }
  }
  if (line.length > 0) lines.push(line);
  return lines;
}

/**
 * Hard wrapping for monospace code: lines longer than `maxChars` are cut, after the last space of
 * the chunk when it lies in its second half, otherwise exactly at `maxChars`. Empty lines stay.
 */
export function wrapMonospace(line: string, maxChars: number): string[] {
  const chars = Array.from(line);
  const out: string[] = [];
  while (chars.length > maxChars) {
    const chunk = chars.slice(0, maxChars);
    const lastSpace = chunk.lastIndexOf(" ");
    const cut = lastSpace >= maxChars / 2 ? lastSpace + 1 : maxChars;
    out.push(chars.splice(0, cut).join(""));
  }
  out.push(chars.join(""));
  return out;
}

function tokenize(fragments: readonly Fragment[]): Token[] {
  const tokens: Token[] = [];
  for (const { text, style } of fragments) {
    for (const piece of text.split(/(\n|[ \t\r]+)/)) {
      if (piece === "") continue;
      const last = tokens.at(-1);
      if (piece === "\n") tokens.push({ kind: "break" });
      else if (/^[ \t\r]+$/.test(piece)) tokens.push({ kind: "space", style });
      else if (last?.kind === "word") last.parts.push({ text: piece, style });
      else tokens.push({ kind: "word", parts: [{ text: piece, style }] });
    }
  }
  return tokens;
}

/** Appends to the last fragment when the style is the same, so a line draws in few calls. */
function append(line: Fragment[], text: string, style: TextStyle): void {
  const last = line.at(-1);
  if (last && last.style.font === style.font && !!last.style.link === !!style.link) last.text += text;
  else line.push({ text, style });
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
