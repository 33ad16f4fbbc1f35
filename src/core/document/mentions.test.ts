import { describe, expect, it } from "vitest";
import { documentToMarkdown, markdownToDocument, mentionsIn } from "./index.js";

const mention = (user: string) => ({
  object: "inline",
  type: "mention",
  key: "",
  data: { ref: { kind: "user", user } },
  isVoid: true,
});

describe("mentions of users", () => {
  it("read from a link to user:<id> as the reference's mention inline", () => {
    const document = markdownToDocument("Ask [@u1](user:u1) or [Ben](user:u2).");
    const paragraph = document.nodes[0] as { nodes: unknown[] };
    expect(paragraph.nodes.filter((node) => (node as { type?: string }).type === "mention")).toEqual([
      { ...mention("u1"), key: expect.any(String) },
      { ...mention("u2"), key: expect.any(String) },
    ]);
  });

  it("write back as that link, so a mention written as a document is kept", () => {
    const document = {
      object: "document",
      data: {},
      nodes: [{ object: "block", type: "paragraph", nodes: [mention("u1")] }],
    };
    const markdown = documentToMarkdown(document as never);
    expect(markdown.trim()).toBe("[@u1](user:u1)");
    expect(mentionsIn(markdown)).toEqual(["u1"]);
  });

  it("are only links the parser sees, once each", () => {
    expect(mentionsIn("[@a](user:a) [@a](user:a) [b](user:b)")).toEqual(["a", "b"]);
    expect(mentionsIn("`[@a](user:a)` and\n\n    [@c](user:c)\n")).toEqual([]);
    expect(mentionsIn("[x](user:a/../b) [y](https://user:pass@example.com)")).toEqual([]);
  });
});
