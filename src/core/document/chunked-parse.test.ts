import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Root } from "mdast";
import type { Extension, Token } from "mdast-util-from-markdown";
import { describe, expect, it } from "vitest";
import { randomMarkdown } from "../../../test/support/random-markdown.js";
import { chunked, parseWhole } from "./markdown.js";

/**
 * Differential test of the chunked parse: on every fixture of this folder's tests, every page of
 * the documentation and seeded random documents, the tree (positions included) and the tokens an
 * extension observes are those of the whole-input parse, with chunks as small as one line.
 */

const ROOT = join(import.meta.dirname, "../../..");
const CHUNK_SIZES = [1, 40, 400];

/** The string literals of this folder's tests: their markdown fixtures. */
function fixtureStrings(): string[] {
  const strings: string[] = [];
  for (const file of readdirSync(import.meta.dirname).filter((name) => name.endsWith(".test.ts"))) {
    const source = readFileSync(join(import.meta.dirname, file), "utf8");
    for (const match of source.matchAll(/"((?:[^"\\\n]|\\.)*)"/g)) {
      try {
        strings.push(JSON.parse(`"${match[1]}"`) as string);
      } catch {
        // Not a JSON string (a regular expression's quote, say): not a fixture.
      }
    }
    for (const match of source.matchAll(/`([^`$\\]*)`/g)) strings.push(match[1]!);
  }
  return strings.filter((text) => text.length > 2 && text.length < 20_000);
}

function documentationPages(): [string, string][] {
  const docs = readdirSync(join(ROOT, "docs")).filter((name) => name.endsWith(".md"));
  return [
    ["README.md", readFileSync(join(ROOT, "README.md"), "utf8")],
    ...docs.map((name): [string, string] => [name, readFileSync(join(ROOT, "docs", name), "utf8")]),
  ];
}

/** The tree and the destination tokens an extension sees, by either parse. */
function observe(parse: (extensions: Extension[]) => Root | string | undefined) {
  const seen: [string, number, number][] = [];
  const record = function (this: unknown, token: Token) {
    seen.push([token.type, token.start.offset, token.end.offset]);
  };
  const extension: Extension = { exit: { resourceDestination: record, definitionDestination: record } };
  return { tree: parse([extension]), seen };
}

function expectSameParse(markdown: string): void {
  const whole = observe((extensions) => parseWhole(markdown, extensions));
  for (const chunkChars of CHUNK_SIZES) {
    const parts = observe((extensions) => chunked(markdown, extensions, chunkChars));
    expect(parts.tree, `chunks of ${chunkChars}`).toEqual(whole.tree);
    expect(parts.seen, `chunks of ${chunkChars}`).toEqual(whole.seen);
  }
}

describe("the chunked parse gives the whole parse's tree", () => {
  it("on the fixtures of the document tests", () => {
    const fixtures = fixtureStrings();
    expect(fixtures.length).toBeGreaterThan(100);
    for (const markdown of fixtures) expectSameParse(markdown);
  });

  it.each(documentationPages())("on %s", (_, markdown) => expectSameParse(markdown));

  it.each(Array.from({ length: 40 }, (_, seed) => seed))("on generated document %i", (seed) => {
    expectSameParse(randomMarkdown(seed, 60));
  });

  it("on long lists cut between items: tight, loose, ordered, with nested content", () => {
    const items = (count: number, write: (index: number) => string) =>
      Array.from({ length: count }, (_, index) => write(index)).join("");
    expectSameParse(items(300, (index) => `- item ${index} with *emphasis*\n`));
    expectSameParse(items(300, (index) => `- item ${index}\n\n`));
    expectSameParse(items(300, (index) => `${index + 1}. item\n   - nested ${index}\n`));
    expectSameParse(items(300, (index) => `${index + 1}) item\n${index % 7 === 0 ? "\n" : ""}`));
    expectSameParse(items(200, (index) => `- a\n  \`\`\`\n  code ${index}\n${index % 5 ? "  ```\n" : ""}`));
    expectSameParse(items(200, (index) => `${index % 3 ? "-" : "*"} item ${index}\n`));
  });

  it("shares link and footnote definitions across chunks", () => {
    const markdown = `See [a], [b][], [text][C d] and a note[^n].\n\n${"Paragraph.\n\n".repeat(50)}[a]: /a\n[b]: /b\n\n- [C  D]: /c\n\n[^n]: The note.\n`;
    expectSameParse(markdown);
    expectSameParse(`${markdown}\n[later] and [^n]\n`);
  });
});
