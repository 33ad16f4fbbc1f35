import { describe, expect, it } from "vitest";
import { textMemo } from "./text-memo.js";

describe("textMemo", () => {
  it("computes a text's result once while it is among the last texts seen", () => {
    const seen: string[] = [];
    const length = textMemo((text) => (seen.push(text), text.length), { entries: 2, maxChars: 10 });
    expect([length("ab"), length("ab"), length("abc"), length("ab")]).toEqual([2, 2, 3, 2]);
    expect(seen).toEqual(["ab", "abc"]);
  });

  it("forgets the least recently used text first", () => {
    const seen: string[] = [];
    const upper = textMemo((text) => (seen.push(text), text.toUpperCase()), { entries: 2, maxChars: 10 });
    upper("a");
    upper("b");
    upper("a"); // "a" is now the most recent: "b" goes when "c" comes
    upper("c");
    upper("a");
    upper("b");
    expect(seen).toEqual(["a", "b", "c", "b"]);
  });

  it("does not keep texts longer than maxChars", () => {
    let calls = 0;
    const memo = textMemo(() => ++calls, { entries: 4, maxChars: 3 });
    memo("long text");
    memo("long text");
    expect(calls).toBe(2);
  });
});
