// The client's types by path: under the root tsconfig (NodeNext) the package entry's extensionless
// `export * from './client'` does not resolve, and the package exports no subpath for them.
import type {
  Document as ReferenceDocument,
  JSONDocument as ReferenceJSONDocument,
} from "../../../node_modules/@gitbook/api/dist/client.js";
import { describe, expect, it } from "vitest";
import { referenceAjv, referenceSchema } from "../../../test/support/reference.js";
import { markdownToDocument } from "./from-markdown.js";
import type { JSONDocument } from "./types.js";

/**
 * Converted documents validate against the reference schemas (`JSONDocument` and `Document` of
 * `@gitbook/api/spec/openapi.json`), and their types are assignable to the official client's.
 */

const validateJSONDocument = referenceSchema("JSONDocument");
const validateDocument = referenceSchema("Document");

const RICH_SAMPLE = `# Docsbase {{ space.vars.product }}

Intro with **bold**, *italic*, ***both***, ~~struck~~, \`code\`, **\`bold code\`** and a
soft break, a hard\\
break, [a **link**](https://example.com "title"), [![badge](https://img/b.svg)](https://ci),
![inline](https://img/i.png) in text, a [reference][ref], an autolink https://docsbase.dev,
<kbd>raw html</kbd> and a footnote[^1].

## Lists

- plain
- nested
  - deeper
    1. ordered inside
- with code

  \`\`\`sh
  npm install docsbase
  \`\`\`
- with a table

  | a | b |
  | - | - |
  | 1 | 2 |
- > a quote in an item

3. starts at three
4. then four

- [ ] todo
- [x] done
- not a task

### Blocks

> A quote with **marks**
>
> > a nested quote
>
> \`\`\`js
> code in a quote
> \`\`\`
>
> | table | in quote |
> | ----- | -------- |
> | x     | y        |

> [!TIP]
> A hint with a list:
>
> - item
>
> > a quote in a hint

> [!CAUTION]

\`\`\`ts title="example.ts"
const answer = 42;

console.log(answer);
\`\`\`

\`\`\`
no language
\`\`\`

---

![A standalone image](https://img/a.png)

![one](https://img/1.png)
![two](https://img/2.png)

| Left | Center | Right | Plain |
| :--- | :----: | ----: | ----- |
| *a*  | [b](https://b) | \`c\` | {{ page.vars.x }} |
| short row |

#### Deep heading

###### Deeper heading

<div>html block</div>

[ref]: https://example.com/ref
[^1]: The footnote.
`;

describe("markdownToDocument against the reference schema", () => {
  const document = markdownToDocument(RICH_SAMPLE);

  it("validates as a JSONDocument", () => {
    expect(validateJSONDocument(document), referenceAjv.errorsText(validateJSONDocument.errors)).toBe(true);
  });

  it("validates as a Document ({ document })", () => {
    expect(validateDocument({ document }), referenceAjv.errorsText(validateDocument.errors)).toBe(true);
  });

  it("produces every block kind of the sample", () => {
    const types = new Set<string>();
    const visit = (nodes: readonly { type?: string; nodes?: unknown; fragments?: unknown }[]) => {
      for (const node of nodes) {
        if (node.type) types.add(node.type);
        if (Array.isArray(node.nodes)) visit(node.nodes);
        if (Array.isArray(node.fragments)) {
          for (const fragment of node.fragments as { nodes: never[] }[]) visit(fragment.nodes);
        }
      }
    };
    visit(document.nodes);
    expect([...types].sort()).toEqual(
      [
        "blockquote", "code", "code-line", "divider", "expression", "heading-1", "heading-2", "heading-3",
        "hint", "image", "images", "inline-image", "link", "list-item", "list-ordered", "list-tasks",
        "list-unordered", "paragraph", "table",
      ].sort(),
    ); // prettier-ignore
  });

  it("validates every sample of the round-trip corpus and edge cases", () => {
    for (const markdown of ["", "\n", "text", "- ", "1.", "> ", "| a |\n| - |", "![](x)", "[](x)", "`a`"]) {
      const converted = markdownToDocument(markdown);
      expect(
        validateJSONDocument(converted),
        `${JSON.stringify(markdown)}: ${referenceAjv.errorsText(validateJSONDocument.errors)}`,
      ).toBe(true);
    }
  });

  it("the schema check fails on a broken document (control)", () => {
    const broken = structuredClone(document) as unknown as { nodes: { type: string }[] };
    broken.nodes[0]!.type = "heading-4";
    expect(validateJSONDocument(broken)).toBe(false);
  });

  it("has types assignable to the official client's", () => {
    // Compile-time checks: these assignments fail `tsc` if the types drift from the reference.
    const asReference: ReferenceJSONDocument = document;
    const wrapped: ReferenceDocument = { document: asReference };
    const typed: JSONDocument = document;
    expect(wrapped).toEqual({ document: typed });
  });
});
