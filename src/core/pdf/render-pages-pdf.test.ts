import { describe, expect, it } from "vitest";
import { readPdf as read } from "../../../test/support/read-pdf.js";
import { renderPagesPdf, type PdfPageInput } from "./render-pages-pdf.js";
import { PAGE } from "./theme.js";

const GUIDE = `# Installation

Install the package with **npm**, then read the [configuration guide](https://example.com/config).

## Requirements

- Node 20 or later
- A storage adapter
  - Memory for tests
  - SQLite for servers
- [x] Checked task

1. Create a space
2. Invite your team
   1. Editors first

\`\`\`ts
const docsbase = createDocsbase({ storage });
await docsbase.runJobs();
\`\`\`

> Quoted advice stays readable.

| Option | Default |
| ------ | ------- |
| limit  | 100     |
`;

describe("renderPagesPdf", () => {
  it("renders a short document on exactly one page with its metadata", async () => {
    const bytes = await renderPagesPdf({
      title: "Handbook",
      pages: [{ title: "Welcome", markdown: "Hello **world**.", depth: 0 }],
    });
    expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe("%PDF-");

    const pdf = await read(bytes);
    expect(pdf.totalPages).toBe(1);
    expect(pdf.text).toContain("Handbook");
    expect(pdf.text).toContain("Welcome");
    expect(pdf.text).toMatch(/Hello\s*world\./);
    expect(pdf.info).toMatchObject({ Title: "Handbook", Producer: "docsbase" });
  });

  it("renders headings, nested lists, code, quotes, tables and link text", async () => {
    const pdf = await read(
      await renderPagesPdf({
        title: "Docs",
        pages: [{ title: "Getting started", markdown: GUIDE, depth: 0 }],
      }),
    );
    expect(pdf.totalPages).toBe(1);
    for (const expected of [
      "Getting started",
      "Installation",
      "Requirements",
      "Node 20 or later",
      "Memory for tests",
      "SQLite for servers",
      "Checked task",
      "Create a space",
      "Editors first",
      "const docsbase = createDocsbase({ storage });",
      "await docsbase.runJobs();",
      "Quoted advice stays readable.",
      "configuration guide",
      "Option",
      "limit",
    ]) {
      expect(pdf.text).toContain(expected);
    }
    expect(pdf.text).not.toContain("https://example.com/config");
    expect(pdf.text).not.toContain("**");

    const x = (str: string) => pdf.items.find((item) => item.str.includes(str))?.x ?? NaN;
    expect(x("Memory for tests")).toBeGreaterThan(x("Node 20 or later"));
    expect(x("Editors first")).toBeGreaterThan(x("Invite your team"));
    expect(x("Node 20 or later")).toBeGreaterThan(x("Requirements"));
    // pdf.js joins a marker and its item's text into one line of text.
    expect(pdf.text).toMatch(/^•\s*Node 20 or later$/m);
    expect(pdf.text).toMatch(/^–\s*Memory for tests$/m);
    expect(pdf.text).toMatch(/^\[x\]\s*Checked task$/m);
    expect(pdf.text).toMatch(/^1\.\s*Create a space$/m);
    expect(pdf.text).toMatch(/^2\.\s*Invite your team$/m);
    expect(pdf.text).toMatch(/^1\.\s*Editors first$/m);
  });

  it("breaks long documents across pages and keeps every line inside the margins", async () => {
    const paragraph = "Documentation is a product, and every sentence deserves care. ".repeat(12);
    const longCode = `const url = "${"x".repeat(200)}";`;
    const pages: PdfPageInput[] = Array.from({ length: 12 }, (_, index) => ({
      title: `Chapter ${index + 1}`,
      markdown: `${paragraph}\n\n- item ${index}\n\n\`\`\`\n${longCode}\n\`\`\`\n\n${paragraph}`,
      depth: index % 3,
    }));
    const pdf = await read(await renderPagesPdf({ title: "Long", pages }));

    expect(pdf.totalPages).toBeGreaterThan(3);
    expect(pdf.pages[0]).toContain("Chapter 1");
    expect(pdf.pages.at(-1)).toContain("Chapter 12");
    expect(pdf.pages.at(-1)).toContain(`${pdf.totalPages} / ${pdf.totalPages}`);
    const right = PAGE.width - PAGE.margin.right;
    for (const item of pdf.items) expect(item.x + item.width).toBeLessThanOrEqual(right + 0.5);
    for (const item of pdf.items) expect(item.x).toBeGreaterThanOrEqual(PAGE.margin.left - 0.5);
  });

  it("draws emoji and CJK as question marks instead of failing", async () => {
    const bytes = await renderPagesPdf({
      title: "Guide 🚀 日本語",
      pages: [
        {
          title: "设置 Settings ✅",
          markdown: "# Überblick 👋\n\n- 中文 item\n\n```\nconsole.log('🎉 → done')\n```\n\nCafé → ok",
          depth: 1,
        },
      ],
    });
    const pdf = await read(bytes);
    expect(pdf.totalPages).toBe(1);
    expect(pdf.text).toContain("Guide ? ???");
    expect(pdf.text).toContain("?? Settings ?");
    expect(pdf.text).toContain("Überblick ?");
    expect(pdf.text).toContain("?? item");
    expect(pdf.text).toContain("console.log('? -> done')");
    expect(pdf.text).toContain("Café -> ok");
    expect(pdf.info).toMatchObject({ Title: "Guide 🚀 日本語" });
  });

  it("is deterministic, and dated only when asked", async () => {
    const input = { title: "Same", pages: [{ title: "Page", markdown: GUIDE, depth: 0 }] };
    expect(await renderPagesPdf(input)).toEqual(await renderPagesPdf(input));

    const date = new Date("2024-05-01T12:00:00Z");
    const { info } = await read(await renderPagesPdf({ ...input, date }));
    expect(info["CreationDate"]).toMatch(/^D:20240501120000/);
  });

  it("renders a title page alone, skipping front matter and blank pages", async () => {
    const pdf = await read(
      await renderPagesPdf({
        title: "Empty",
        pages: [
          { title: "Blank", markdown: "", depth: 0 },
          { title: "Front", markdown: "---\ndescription: hidden\n---\nVisible", depth: 0 },
        ],
      }),
    );
    expect(pdf.totalPages).toBe(1);
    expect(pdf.text).toContain("Visible");
    expect(pdf.text).not.toContain("hidden");
  });
});
