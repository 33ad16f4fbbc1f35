import { describe, expect, it } from "vitest";
import { evaluateMarkdown } from "./evaluate.js";
import { markdownToDocument } from "./from-markdown.js";
import { extractHeadings, plainText } from "./outline.js";
import {
  documentInput,
  MAX_DOCUMENT_DEPTH,
  type DocumentInputBlock,
  type DocumentInputNode,
} from "./schema.js";
import { documentToMarkdown } from "./to-markdown.js";

/**
 * Page markdown comes from API callers. Inputs that make a backtracking pattern quadratic (long
 * runs of spaces, `{{` repeated with no closing) must still be handled in linear time: a
 * quadratic pass over these takes minutes, a linear one well under the bound. Nesting is bounded,
 * so that no recursive pass can exhaust the stack.
 */
const SIZE = 100_000;
const HOSTILE = {
  spaces: `a${" ".repeat(SIZE)}b\nc`,
  "marked spaces": `**a${" ".repeat(SIZE)}b**`,
  "open braces": `x ${"{{".repeat(SIZE / 2)}`,
  "unclosed expressions": `{{ a ${"x ".repeat(SIZE / 2)}`,
};

describe("hostile input", () => {
  it.each(Object.entries(HOSTILE))("%s: every entry point is linear", (_, markdown) => {
    const started = performance.now();
    const document = markdownToDocument(markdown);
    documentToMarkdown(document);
    evaluateMarkdown(markdown, { space: { vars: {} } });
    extractHeadings(markdown);
    plainText(markdown);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe("deep nesting", () => {
  const deep = (levels: number) => `${">".repeat(levels)} x`;

  it(`converts markdown nested up to ${MAX_DOCUMENT_DEPTH} levels, within what documentInput accepts`, () => {
    // The root, 62 quotes, a paragraph and its text: 64 levels below the root.
    const document = markdownToDocument(deep(62));
    expect(documentInput.safeParse(document).success).toBe(true);
    expect(documentToMarkdown(document)).toContain("> x");
  });

  it.each([63, 5_000, 200_000])("refuses %i levels with a bad request, not a stack overflow", (levels) => {
    for (const run of [
      () => markdownToDocument(deep(levels)),
      () => plainText(deep(levels)),
      () => extractHeadings(deep(levels)),
      () => evaluateMarkdown(`${deep(levels)} {{ a }}`, {}),
    ]) {
      expect(run).toThrow(expect.objectContaining({ code: "bad_request" }));
    }
  });

  it("refuses a document nested too deeply for documentToMarkdown", () => {
    let node: DocumentInputNode = { object: "text", leaves: [] };
    for (let depth = 0; depth < 10_000; depth++)
      node = { object: "block", type: "blockquote", nodes: [node] };
    const document = { object: "document" as const, data: {}, nodes: [node as DocumentInputBlock] };
    expect(() => documentToMarkdown(document)).toThrow(expect.objectContaining({ code: "bad_request" }));
  });
});
