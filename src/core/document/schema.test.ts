import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { describeIssues } from "../shared/schema.js";
import { markdownToDocument } from "./from-markdown.js";
import { documentInput, MAX_DOCUMENT_DEPTH } from "./schema.js";

function issues(value: unknown): string {
  const result = documentInput.safeParse(value);
  return result.success ? "ok" : describeIssues("body.description", result.error as z.ZodError);
}

const leaf = (text: unknown) => ({ object: "leaf", text, marks: [] });
const text = (value: unknown) => ({ object: "text", leaves: [leaf(value)] });

describe("documentInput", () => {
  it("accepts what markdownToDocument produces, unchanged", () => {
    const document = markdownToDocument("# T\n\n- [x] a [link](u)\n\n| a |\n| - |\n| *b* |\n");
    expect(documentInput.parse(document)).toEqual(document);
  });

  it("accepts blocks docsbase does not render, and keeps unknown properties", () => {
    const document = {
      object: "document",
      data: { schemaVersion: 2 },
      nodes: [
        {
          object: "block",
          type: "tabs",
          meta: { id: "tabs" },
          nodes: [{ object: "block", type: "tabs-item", data: { title: "One" }, nodes: [text("x")] }],
        },
        { object: "block", type: "file", isVoid: true, data: { ref: { kind: "file", file: "f" } } },
        {
          object: "block",
          type: "paragraph",
          nodes: [
            { object: "inline", type: "mention", isVoid: true, data: { ref: { kind: "user", user: "u" } } },
          ],
        },
      ],
    };
    expect(documentInput.parse(document)).toEqual(document);
  });

  it("defaults a missing data to {}", () => {
    expect(documentInput.parse({ object: "document", nodes: [] })).toEqual({
      object: "document",
      data: {},
      nodes: [],
    });
  });

  it.each([
    ["a string", "x", "body.description: Invalid input: expected object, received string"],
    [
      "another object",
      { object: "page", nodes: [] },
      'body.description.object: Invalid input: expected "document"',
    ],
    [
      "an inline at the top",
      { object: "document", nodes: [{ object: "inline", type: "link" }] },
      'body.description.nodes.0.object: Invalid input: expected "block"',
    ],
    [
      "an unknown node",
      { object: "document", nodes: [{ object: "block", type: "paragraph", nodes: [{ object: "txt" }] }] },
      'body.description.nodes.0.nodes.0.object: Expected a block, an inline or a text (by its "object")',
    ],
    [
      "a block inside an inline",
      {
        object: "document",
        nodes: [
          {
            object: "block",
            type: "paragraph",
            nodes: [{ object: "inline", type: "link", nodes: [{ object: "block", type: "x" }] }],
          },
        ],
      },
      'body.description.nodes.0.nodes.0.nodes.0.object: Expected a text or an inline (by its "object")',
    ],
    [
      "a leaf without text",
      { object: "document", nodes: [{ object: "block", type: "paragraph", nodes: [text(3)] }] },
      "body.description.nodes.0.nodes.0.leaves.0.text: Invalid input: expected string, received number",
    ],
    [
      "an empty type",
      { object: "document", nodes: [{ object: "block", type: "", nodes: [] }] },
      "body.description.nodes.0.type: Too small: expected string to have >=1 characters",
    ],
    [
      "a fragment holding a text",
      {
        object: "document",
        nodes: [{ object: "block", type: "table", fragments: [{ object: "fragment", nodes: [text("x")] }] }],
      },
      'body.description.nodes.0.fragments.0.nodes.0.object: Invalid input: expected "block"; ' +
        "body.description.nodes.0.fragments.0.nodes.0.type: Invalid input: expected string, received undefined",
    ],
  ])("refuses %s, naming the path", (_, value, message) => {
    expect(issues(value)).toBe(message);
  });

  it(`refuses nesting deeper than ${MAX_DOCUMENT_DEPTH} before parsing it`, () => {
    let node: object = text("deep");
    for (let depth = 0; depth < 100_000; depth++) node = { object: "block", type: "x", nodes: [node] };
    expect(issues({ object: "document", nodes: [node] })).toBe(
      `body.description: Nested deeper than ${MAX_DOCUMENT_DEPTH} nodes`,
    );

    let shallow: object = text("ok");
    for (let depth = 0; depth < MAX_DOCUMENT_DEPTH - 1; depth++)
      shallow = { object: "block", type: "x", nodes: [shallow] };
    expect(issues({ object: "document", nodes: [shallow] })).toBe("ok");
  });
});
