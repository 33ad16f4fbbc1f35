/**
 * The PDF standard fonts (Helvetica, Courier...) only carry the WinAnsi glyphs: printable ASCII,
 * Latin-1 and 27 typographic characters. pdf-lib throws on anything else, so every string is passed
 * through {@link toWinAnsi} before it is measured or drawn.
 */
const WIN_ANSI_EXTRAS = "€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ";
const ENCODABLE = new RegExp(`^[\\x20-\\x7e\\xa0-\\xac\\xae-\\xff${WIN_ANSI_EXTRAS}]*$`, "u");

/** Readable stand-ins for common characters that neither WinAnsi nor NFKD decomposition covers. */
const FALLBACKS: Record<string, string> = {
  "→": "->",
  "←": "<-",
  "↔": "<->",
  "⇒": "=>",
  "⇐": "<=",
  "≤": "<=",
  "≥": ">=",
  "≠": "!=",
  "≈": "~",
  "−": "-",
  "‐": "-",
  "‑": "-",
  "‒": "-",
  "―": "—",
  "′": "'",
  "″": '"',
  "✓": "v",
  "✔": "v",
  "✗": "x",
  "✘": "x",
  ı: "i",
  ł: "l",
  Ł: "L",
  đ: "d",
  Đ: "D",
  ħ: "h",
  ŋ: "n",
};

/** Marks, format characters (zero-width joiners, variation selectors) and controls: invisible. */
const INVISIBLE = /[\p{M}\p{Cf}\p{Cc}\u00ad]/gu;

const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

/** Whether `text` can be drawn as is with the standard fonts. */
export function isWinAnsi(text: string): boolean {
  return ENCODABLE.test(text);
}

/**
 * Rewrites `text` so that the standard fonts can encode it, one user-perceived character at a
 * time: kept if encodable, otherwise its compatibility decomposition without accents (`ő` → `o`,
 * `ﬁ` → `fi`, full-width `Ａ` → `A`), an ASCII stand-in (`→` → `->`), or `?` (emoji, CJK). Other
 * whitespace becomes a space; invisible characters and soft hyphens are dropped.
 *
 * @example
 * toWinAnsi("Café → 日本 👍🏽"); // "Café -> ?? ?"
 */
export function toWinAnsi(text: string): string {
  if (isWinAnsi(text)) return text;
  let out = "";
  for (const { segment } of graphemes.segment(text)) out += transliterate(segment);
  return out;
}

function transliterate(grapheme: string): string {
  const composed = grapheme.normalize("NFC");
  if (isWinAnsi(composed)) return composed;
  if (/^\s+$/u.test(grapheme)) return " ";
  const stripped = grapheme.normalize("NFKD").replace(INVISIBLE, "");
  let out = "";
  for (const char of stripped) {
    const replacement = isWinAnsi(char) ? char : FALLBACKS[char];
    if (replacement === undefined) return "?";
    out += replacement;
  }
  return out;
}
