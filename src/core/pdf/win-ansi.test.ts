import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { isWinAnsi, toWinAnsi } from "./win-ansi.js";

describe("toWinAnsi", () => {
  it("keeps ASCII, Latin-1 and the WinAnsi typographic characters", () => {
    const text = "Café déjà vu — “quotes” … 50 € ™ • ß æ ø";
    expect(toWinAnsi(text)).toBe(text);
  });

  it("replaces each emoji and CJK character with one question mark", () => {
    expect(toWinAnsi("Ship it 🚀!")).toBe("Ship it ?!");
    expect(toWinAnsi("👍🏽 👨‍👩‍👧 🇫🇷")).toBe("? ? ?");
    expect(toWinAnsi("日本語のドキュメント")).toBe("??????????");
    expect(toWinAnsi("设置 settings")).toBe("?? settings");
  });

  it("transliterates what decomposes or has a readable stand-in", () => {
    expect(toWinAnsi("Łódź → Kraków ≤ 5")).toBe("Lódz -> Kraków <= 5");
    expect(toWinAnsi("ﬁle Ａｐｉ e\u0301")).toBe("file Api é");
    expect(toWinAnsi("Ελληνικά")).toBe("????????");
  });

  it("turns other whitespace into spaces and drops invisible characters", () => {
    expect(toWinAnsi("a\tb\u2003c\u200bd\u00ade\ufe0f")).toBe("a b cde");
  });

  it("produces only text that every font of the renderer can encode", async () => {
    const doc = await PDFDocument.create();
    const names = [
      StandardFonts.Helvetica,
      StandardFonts.HelveticaBold,
      StandardFonts.HelveticaOblique,
      StandardFonts.HelveticaBoldOblique,
      StandardFonts.Courier,
    ];
    const fonts = await Promise.all(names.map((name) => doc.embedFont(name)));
    const allWinAnsi = Array.from({ length: 0x2200 }, (_, code) => String.fromCodePoint(code))
      .filter(isWinAnsi)
      .join("");
    const samples = [allWinAnsi, toWinAnsi("🚀 日本 Ελλ \u0000\u0007 ⚠️ ∑ ½ ★")];
    for (const font of fonts) {
      for (const sample of samples) expect(() => font.encodeText(sample)).not.toThrow();
    }
  });
});
