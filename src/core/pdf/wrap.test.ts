import { describe, expect, it } from "vitest";
import { wrapFragments, wrapMonospace, type Fragment, type Measure } from "./wrap.js";

/** One point per character: widths are easy to count. */
const measure: Measure = (text) => Array.from(text).length;
const regular = (text: string): Fragment => ({ text, style: { font: "regular" } });
const texts = (lines: Fragment[][]) => lines.map((line) => line.map((f) => f.text).join(""));

describe("wrapFragments", () => {
  it("fills lines greedily without exceeding the width", () => {
    const lines = wrapFragments([regular("the quick brown fox jumps over the lazy dog")], 15, measure);
    expect(texts(lines)).toEqual(["the quick brown", "fox jumps over", "the lazy dog"]);
  });

  it("keeps a word together across styles and merges same-style runs", () => {
    const bold = { text: "bold", style: { font: "bold" as const } };
    const lines = wrapFragments([regular("some "), bold, regular(", then more")], 10, measure);
    expect(texts(lines)).toEqual(["some bold,", "then more"]);
    expect(lines[0]?.map((f) => f.style.font)).toEqual(["regular", "bold", "regular"]);
  });

  it("cuts a word longer than a line between characters", () => {
    const lines = wrapFragments([regular("see https://example.com/a/very/long/path")], 12, measure);
    expect(texts(lines)).toEqual(["see", "https://exam", "ple.com/a/ve", "ry/long/path"]);
  });

  it("breaks lines at hard breaks and drops spaces at line starts", () => {
    const lines = wrapFragments([regular("one  \n  two   three")], 40, measure);
    expect(texts(lines)).toEqual(["one", "two three"]);
  });

  it("returns no lines for blank text", () => {
    expect(wrapFragments([regular("   ")], 10, measure)).toEqual([]);
  });
});

describe("wrapMonospace", () => {
  it("keeps short and empty lines as they are", () => {
    expect(wrapMonospace("  indented", 20)).toEqual(["  indented"]);
    expect(wrapMonospace("", 20)).toEqual([""]);
  });

  it("cuts after a space in the second half of the chunk, else exactly at the width", () => {
    expect(wrapMonospace("const value = compute(a, b)", 16)).toEqual(["const value = ", "compute(a, b)"]);
    expect(wrapMonospace("abcdefghijklmnopqrstuvwxyz", 10)).toEqual(["abcdefghij", "klmnopqrst", "uvwxyz"]);
  });
});
