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
import { EditMap } from "micromark-util-edit-map";
import {
  blockWork,
  chunked,
  MAX_BLOCK_WORK,
  markdownLimitError,
  parseMarkdown,
  parserRuns,
} from "./markdown.js";

/**
 * Page markdown comes from API callers. Inputs that make a backtracking pattern quadratic (long
 * runs of spaces, `{{` repeated with no closing) must still be handled in linear time. Work is
 * measured in units, never in wall-clock time: the parser's own copying of events (counted on
 * micromark's edit map, where its quadratic cost on lists lies) and the bound `blockWork`.
 * Nesting is bounded, so that no recursive pass can exhaust the stack.
 */
const SIZE = 100_000;
const HOSTILE = {
  spaces: `a${" ".repeat(SIZE)}b\nc`,
  "marked spaces": `**a${" ".repeat(SIZE)}b**`,
  "open braces": `x ${"{{".repeat(SIZE / 2)}`,
  "unclosed expressions": `{{ a ${"x ".repeat(SIZE / 2)}`,
};

describe("hostile input", () => {
  it.each(Object.entries(HOSTILE))("%s: every entry point stays within the work budget", (_, markdown) => {
    expect(blockWork(markdown)).toBeLessThanOrEqual(MAX_BLOCK_WORK);
    const copied = countParserCopies(() => {
      const document = markdownToDocument(markdown);
      documentToMarkdown(document);
      evaluateMarkdown(markdown, { space: { vars: {} } });
      extractHeadings(markdown);
      plainText(markdown);
    });
    expect(copied).toBeLessThanOrEqual(MAX_BLOCK_WORK);
  });
});

/** Events micromark copies while `run` runs: each closed list item copies all events so far. */
function countParserCopies(run: () => void): number {
  let copied = 0;
  const consume = EditMap.prototype.consume;
  EditMap.prototype.consume = function (this: EditMap, events) {
    copied += events.length;
    consume.call(this, events);
  };
  try {
    run();
  } finally {
    EditMap.prototype.consume = consume;
  }
  return copied;
}

/**
 * The shapes of issue 9 that stalled a server. Those inside one block that cannot be cut (one
 * paragraph of openers, one quote of list items, deep nesting) are still refused; long top-level
 * lists are now cut between their items and accepted, at a cost linear in their size.
 */
const REFUSED_SHAPES = {
  "300 KB of *a": "*a".repeat(150_000),
  "300 KB of _a": "_a".repeat(150_000),
  "256 KB of [a](": "[a](".repeat(64_000),
  "a quote of 8,192 list items (48 KB)": "> - x\n".repeat(8_192),
  "65 nested quotes": `${">".repeat(65)} x`,
  "a list nested 40 deep": Array.from({ length: 40 }, (_, depth) => `${"  ".repeat(depth)}- x`).join("\n"),
};

describe("the work budget of one block", () => {
  it.each(Object.entries(REFUSED_SHAPES))("%s: refused at write time, read as text", (_, markdown) => {
    expect(markdownLimitError(markdown)).toMatch(/Markdown (too costly to parse|nests deeper)/);
    // A page stored before the limits existed reads as plain text, with bounded parser work.
    const copied = countParserCopies(() => {
      const document = markdownToDocument(markdown);
      expect(document.nodes.length).toBeGreaterThan(0);
      plainText(markdown);
      extractHeadings(markdown);
    });
    expect(copied).toBeLessThanOrEqual(MAX_BLOCK_WORK);
  });

  it("bounds from above the copying the parser does on lists", () => {
    for (const markdown of ["- item number\n".repeat(600), "- - x\n".repeat(400), "> - x\n".repeat(500)]) {
      expect(markdownLimitError(markdown)).toBeUndefined();
      // The parse itself: `parseMarkdown` answers from the tree the limit check just made.
      const copied = countParserCopies(() => chunked(markdown));
      expect(copied).toBeGreaterThan(0);
      expect(copied).toBeLessThanOrEqual(blockWork(markdown));
    }
  });

  it("accepts ordinary pages: lists, emphasis, many paragraphs, long tables", () => {
    const paragraphs = "Some *emphasis*, **strong** and ~~struck~~ words.\n\n".repeat(1_000);
    const list = "- an item with *emphasis* in it\n  - and a nested one\n".repeat(200);
    const table = `| a | b |\n| - | - |\n${"| *x* [l](u) | `y` ~~z~~ |\n".repeat(1_000)}`;
    const paragraph = `${"A sentence with a [link](https://example.com) and *emphasis*. ".repeat(100)}\n`;
    for (const markdown of [paragraphs, list, table, paragraph])
      expect(markdownLimitError(markdown)).toBeUndefined();
  });

  it("refuses a paragraph of openers without running the parser on its openers", () => {
    const before = parserRuns.count;
    parseMarkdown("*a".repeat(150_000));
    expect(parserRuns.count).toBe(before);
  });
});

/** Shapes that were refused before pages were parsed in chunks, now accepted. */
const LONG_LISTS = {
  "lines of - - - x": (items: number) => "- - - x\n".repeat(items),
  "short items": (items: number) => Array.from({ length: items }, (_, index) => `- item ${index}\n`).join(""),
  "ordered items with emphasis": (items: number) =>
    Array.from({ length: items }, (_, index) => `${index + 1}. *${index}* [a](u)\n`).join(""),
  "loose items": (items: number) => "- item\n\n".repeat(items),
};

describe("long lists, cut between their items", () => {
  it.each(Object.entries(LONG_LISTS))(
    "%s: accepted, the parser's copying linear in the items",
    (_, write) => {
      const copies = (items: number) => {
        expect(markdownLimitError(write(items))).toBeUndefined();
        return countParserCopies(() => parseMarkdown(write(items)));
      };
      const small = copies(1_000);
      const large = copies(8_000);
      // Eight times the items: eight times the copying, give or take a chunk; quadratic would be 64.
      expect(large).toBeLessThanOrEqual(small * 10);
      expect(large).toBeLessThanOrEqual(MAX_BLOCK_WORK);
    },
  );
});

describe("deep nesting", () => {
  const deep = (levels: number) => `${">".repeat(levels)} x`;

  it(`converts markdown nested up to ${MAX_DOCUMENT_DEPTH} levels, within what documentInput accepts`, () => {
    // The root, 62 quotes, a paragraph and its text: 64 levels below the root.
    const document = markdownToDocument(deep(62));
    expect(documentInput.safeParse(document).success).toBe(true);
    expect(documentToMarkdown(document)).toContain("> x");
  });

  it.each([63, 5_000, 200_000])("refuses %i levels at write time and reads them as text", (levels) => {
    expect(markdownLimitError(deep(levels))).toBe(`Markdown nests deeper than ${MAX_DOCUMENT_DEPTH} levels`);
    const document = markdownToDocument(deep(levels));
    expect(documentInput.safeParse(document).success).toBe(true);
    expect(plainText(deep(levels))).toBe(deep(levels));
    expect(extractHeadings(deep(levels))).toEqual([]);
    expect(evaluateMarkdown(`${deep(levels)} {{ page.vars.a }}`, { page: { vars: { a: "1" } } })).toBe(
      `${deep(levels)} 1`,
    );
  });

  it("refuses a document nested too deeply for documentToMarkdown", () => {
    let node: DocumentInputNode = { object: "text", leaves: [] };
    for (let depth = 0; depth < 10_000; depth++)
      node = { object: "block", type: "blockquote", nodes: [node] };
    const document = { object: "document" as const, data: {}, nodes: [node as DocumentInputBlock] };
    expect(() => documentToMarkdown(document)).toThrow(expect.objectContaining({ code: "bad_request" }));
  });
});
