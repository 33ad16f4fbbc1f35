import { describe, expect, it } from "vitest";
import { markdownToDocument } from "./from-markdown.js";
import { extractHeadings, plainText } from "./outline.js";

describe("extractHeadings", () => {
  it("lists headings in order with their depth, plain title and a unique anchor", () => {
    const markdown = [
      "# Getting *started*",
      "## Install `docsbase`",
      "Setext two\n----------",
      "#### Deep: what's new?",
      "## Install docsbase",
      "- ## In a list",
      "> ###### In a quote",
      "# Ünïcode Überschrift",
      "# !!!",
      "```\n# not a heading\n```",
    ].join("\n\n");
    expect(extractHeadings(markdown)).toEqual([
      { depth: 1, title: "Getting started", anchor: "getting-started" },
      { depth: 2, title: "Install docsbase", anchor: "install-docsbase" },
      { depth: 2, title: "Setext two", anchor: "setext-two" },
      { depth: 4, title: "Deep: what's new?", anchor: "deep-whats-new" },
      { depth: 2, title: "Install docsbase", anchor: "install-docsbase-1" },
      { depth: 2, title: "In a list", anchor: "in-a-list" },
      { depth: 6, title: "In a quote", anchor: "in-a-quote" },
      { depth: 1, title: "Ünïcode Überschrift", anchor: "ünïcode-überschrift" },
      { depth: 1, title: "!!!", anchor: "section" },
    ]);
  });

  it("numbers repeated anchors as GitHub does, past a heading that already ends in -1", () => {
    const anchors = extractHeadings("# a\n\n# a\n\n# a-1\n\n# a").map((heading) => heading.anchor);
    expect(anchors).toEqual(["a", "a-1", "a-1-1", "a-2"]);
  });

  it("agrees with the anchors of the document's headings", () => {
    const markdown = "# Intro\n\n## Intro\n\n#### Deep *dive*\n";
    const fromDocument = markdownToDocument(markdown).nodes.map((node) =>
      "meta" in node ? node.meta.id : "",
    );
    expect(fromDocument).toEqual(extractHeadings(markdown).map((heading) => heading.anchor));
  });
});

describe("plainText", () => {
  it("keeps the text and drops the markup", () => {
    const markdown = [
      "# Title with **bold**",
      "Some *emphasis*, `code`, a [link](https://x) and ![an image](i.png).\nSoft wrapped, hard\\\nbreak.",
      "- one\n- two\n  - nested",
      "> quoted",
      "```js\nconst a = 1;\n```",
      "| a | b |\n| - | - |\n| 1 | *2* |",
      "<div>raw html</div>",
      "---",
      "[def]: https://hidden",
      "Tail <b>inline</b> html.",
    ].join("\n\n");
    expect(plainText(markdown)).toBe(
      [
        "Title with bold",
        "Some emphasis, code, a link and an image. Soft wrapped, hard\nbreak.",
        "one\ntwo\n\nnested",
        "quoted",
        "const a = 1;",
        "a\tb\n1\t2",
        "Tail inline html.",
      ].join("\n\n"),
    );
  });

  it("gives the empty string for empty markdown", () => {
    expect(plainText("")).toBe("");
  });
});
