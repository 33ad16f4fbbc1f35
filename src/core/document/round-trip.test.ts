import { describe, expect, it } from "vitest";
import { markdownToDocument } from "./from-markdown.js";
import { documentInput } from "./schema.js";
import { documentToMarkdown } from "./to-markdown.js";

/**
 * Markdown in the normalized form (`serializeMarkdown`: `-` bullets, `*`/`**` emphasis, fenced
 * code, `---` rules, ATX headings, tight lists, aligned table pipes, marks spanning a whole link
 * written outside it) comes back unchanged through the document model, and any markdown reaches
 * that form after one pass.
 */

const NORMALIZED: Record<string, string> = {
  headings: "# Heading 1\n\n## Heading *2*\n\n### Heading `3`\n",
  marks: "Some **bold**, *italic*, ~~struck~~ and `code`.\n",
  "nested marks": "**_both_** and **bold *nested* bold** and *a **b** c* and **`bold code`**\n",
  "marks inside a word": "a*b*c and x**y**z\n",
  links: "A [link](https://example.com) and [*a* b](https://x.y/z?q=1#h).\n",
  "marked links": "**[bold link](https://x)** and [![badge](https://img/b.svg)](https://ci)\n",
  "hard break": "Line one\\\nline two\n",
  "nested lists": "- one\n- two\n  - nested\n    - deeper\n      1. ordered\n- three\n",
  "ordered lists": "1. first\n2. second\n   1. nested\n",
  "ordered from three": "3. three\n4. four\n",
  "task lists": "- [ ] todo\n- [x] done\n",
  "list item with code": "- item\n  ```sh\n  npm i\n  ```\n- next\n",
  blockquotes: "> quoted **text**\n>\n> > nested\n>\n> - a list\n",
  hints: "> [!NOTE]\n> A note\n\n> [!WARNING]\n> Careful\n>\n> - list\n",
  "code with language": "```js\nconst a = 1;\n\nconsole.log(a);\n```\n",
  "code without language": "```\nplain\n```\n",
  "code with a title": '```ts title="a.ts"\nx\n```\n',
  divider: "Above\n\n---\n\nBelow\n",
  images: "![alt](https://img/a.png)\n\n![a](https://img/a.png)\n![b](https://img/b.png)\n",
  "inline image": "Inline ![icon](https://img/i.png) image\n",
  tables: "| a | b |\n| - | - |\n| 1 | 2 |\n",
  "aligned table": "| Name | Value |  Right |\n| ---- | :---: | -----: |\n| *x*  |  `y`  | [z](u) |\n",
  expressions: "Version {{ space.vars.version }} of {{ page.vars.product }}\n",
  escapes: "Text with \\*escaped\\* stars, \\[brackets] and a \\_ underscore\n",
  page: "# Title\n\nPara one.\n\nPara two.\n\n- a\n- b\n\n---\n\n> q\n",
};

describe("markdown → document → markdown", () => {
  it.each(Object.entries(NORMALIZED))("keeps %s", (_, markdown) => {
    expect(documentToMarkdown(markdownToDocument(markdown))).toBe(markdown);
  });

  it.each(Object.entries(NORMALIZED))("gives the same document back for %s", (_, markdown) => {
    const document = markdownToDocument(markdown);
    expect(markdownToDocument(documentToMarkdown(document))).toEqual(document);
  });

  it.each([
    ["* star bullets\n* two", "- star bullets\n- two\n"],
    ["Setext\n======", "# Setext\n"],
    ["_under_ and __strong__", "*under* and **strong**\n"],
    ["***both***", "**_both_**\n"],
    ["[**bold link**](u)", "**[bold link](u)**\n"],
    ["soft\nwrap", "soft wrap\n"],
    ["two spaces  \nbreak", "two spaces\\\nbreak\n"],
    ["#### four\n\n###### six", "### four\n\n### six\n"],
    ["[x][ref]\n\n[ref]: https://r", "[x](https://r)\n"],
    ["1) paren", "1. paren\n"],
    ["{{a}}", "{{ a }}\n"],
    ["- [x] a\n- b", "- [x] a\n- [ ] b\n"],
    ["| a |\n|:-|\n| 1 |", "| a |\n| - |\n| 1 |\n"],
    ["> [!IMPORTANT]\n> Read", "> [!NOTE]\n> Read\n"],
    ["> ```\n> code in a quote\n> ```", "> `code in a quote`\n"],
  ])("normalizes %j", (input, normalized) => {
    expect(documentToMarkdown(markdownToDocument(input))).toBe(normalized);
  });

  it.each([
    "- a\n\n- b (loose)",
    "x <span>html</span> y\n\n<div>block</div>",
    "Footnote[^n].\n\n[^n]: The note.",
    "[a](<u v> 'title') <https://auto.link> www.example.com",
    "**a **b and _a_b",
    "| a |\n|---|\n| `x\\|y` | extra |\n| short",
    "> [!TIP]\n> > nested quote in a hint\n>\n> | table | in hint |\n> | - | - |",
    "`{{ in code }}` and **{{ marked }}** and [{{ linked }}](u)",
  ])("reaches the normalized form in one pass: %j", (input) => {
    const once = documentToMarkdown(markdownToDocument(input));
    expect(documentToMarkdown(markdownToDocument(once))).toBe(once);
  });

  it("gives the same document, keys included, for the same markdown", () => {
    const markdown = NORMALIZED["page"]!;
    expect(markdownToDocument(markdown)).toEqual(markdownToDocument(markdown));
    const keys = JSON.stringify(markdownToDocument(markdown)).match(/"key":"[^"]*"/g) ?? [];
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.slice(0, 3)).toEqual(['"key":"0"', '"key":"0.0"', '"key":"1"']);
  });
});

describe("documentToMarkdown on documents written elsewhere", () => {
  const text = (value: string, marks: string[] = []) => ({
    object: "text",
    leaves: [
      {
        object: "leaf",
        text: value,
        marks: marks.map((type) => ({ object: "mark", type })),
      },
    ],
  });
  const paragraph = (...nodes: object[]) => ({ object: "block", type: "paragraph", nodes });

  it("writes blocks with a markdown form and the content of the others", () => {
    // Parsed as a request body would be, which also checks the fixture's structure.
    const document = documentInput.parse({
      object: "document",
      data: {},
      nodes: [
        { object: "block", type: "math", isVoid: true, data: { formula: "e = mc^2" } },
        {
          object: "block",
          type: "expandable",
          isVoid: true,
          data: {},
          fragments: [
            { object: "fragment", fragment: "expandable-title", nodes: [paragraph(text("More"))] },
            { object: "fragment", fragment: "expandable-body", nodes: [paragraph(text("Hidden"))] },
          ],
        },
        {
          object: "block",
          type: "tabs",
          nodes: [{ object: "block", type: "tabs-item", nodes: [paragraph(text("In a tab"))] }],
        },
        { object: "block", type: "file", isVoid: true, data: { ref: { kind: "file", file: "f1" } } },
        { object: "block", type: "embed", isVoid: true, data: { url: "https://video" } },
        paragraph(
          text("key ", ["keyboard"]),
          { object: "inline", type: "emoji", isVoid: true, data: { code: "1f600" } },
          {
            object: "inline",
            type: "link",
            data: { ref: { kind: "anchor", anchor: "setup" } },
            nodes: [text("anchor")],
          },
          text(" "),
          {
            object: "inline",
            type: "link",
            data: { ref: { kind: "page", page: "p1" } },
            nodes: [text("page")],
          },
        ),
      ],
    });
    expect(documentToMarkdown(document)).toBe(
      "$$\ne = mc^2\n$$\n\n<details>\n<summary>More</summary>\n\nHidden\n\n</details>\n\nIn a tab\n\n<https://video>\n\nkey 😀[anchor](#setup) page\n",
    );
    const resolveRef = (ref: Readonly<Record<string, unknown>>) =>
      ref["kind"] === "page" ? `/pages/${String(ref["page"])}` : undefined;
    expect(documentToMarkdown(document, { resolveRef })).toContain("[page](/pages/p1)");
  });
});
