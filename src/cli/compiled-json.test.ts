import fc from "fast-check";
import { isDeepStrictEqual } from "node:util";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { operations } from "../core/operations.js";
import { compile, compiledSerializer } from "./compiled-json.js";

/** What `JSON.stringify` wrote and what the compiled serializer wrote mean the same. */
function expectSameMeaning(serialize: (body: unknown) => string, body: unknown) {
  const written = serialize(body);
  expect(JSON.parse(written)).toStrictEqual(JSON.parse(JSON.stringify(body)));
}

const page = z.object({
  id: z.string(),
  title: z.string(),
  hidden: z.boolean(),
  description: z.string().optional(),
  parent: z.string().nullable(),
  position: z.number(),
  depth: z.int(),
  kind: z.enum(["document", "group"]),
  tags: z.array(z.string()),
  meta: z.object({ author: z.string(), reviewed: z.boolean().optional() }),
  extra: z.record(z.string(), z.unknown()),
  either: z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]),
});

/** Strings JSON must escape, unicode outside the BMP, lone surrogates, long and empty strings. */
const text = fc.oneof(
  fc.string({ unit: "binary" }),
  fc.constantFrom(
    '"',
    "\\",
    "\n\t\r\b\f",
    "\u0000\u001f",
    "\u2028\u2029",
    "😀",
    "\ud800",
    "x\udfff",
    "é".repeat(100),
    "",
  ),
);

/** A value that holds to `page`'s input type, with keys the schema does not name, at two depths. */
const pages = fc.record({
  id: text,
  title: text,
  hidden: fc.boolean(),
  description: fc.option(text, { nil: undefined }),
  parent: fc.option(text, { nil: null }),
  position: fc.oneof(fc.double(), fc.integer()),
  depth: fc.integer(),
  kind: fc.constantFrom("document" as const, "group" as const),
  tags: fc.array(text, { maxLength: 4 }),
  meta: fc.record({
    author: text,
    reviewed: fc.option(fc.boolean(), { nil: undefined }),
    unnamed: fc.jsonValue(),
  }),
  extra: fc.dictionary(text, fc.jsonValue(), { maxKeys: 3 }),
  either: fc.oneof(
    fc.record({ a: text }),
    fc.record({ b: fc.integer() }),
    fc.record({ a: text, c: fc.jsonValue() }),
  ),
  notInSchema: fc.option(fc.jsonValue(), { nil: undefined }),
});

describe("compiled serializers", () => {
  it("write what JSON.stringify writes, in meaning, for generated values of a schema", () => {
    const serialize = compile(page);
    fc.assert(
      fc.property(pages, (body) => expectSameMeaning(serialize, body)),
      { numRuns: 500 },
    );
  });

  it("keep keys the schema does not name, at every depth", () => {
    const serialize = compile(page);
    const body = {
      id: "p",
      title: "t",
      hidden: false,
      parent: null,
      position: 1.5,
      depth: 2,
      kind: "group",
      tags: [],
      meta: { author: "a", unnamed: { nested: [1, "two"] } },
      extra: { any: true },
      either: { a: "x" },
      notInSchema: "kept",
    };
    expect(JSON.parse(serialize(body))).toStrictEqual(body);
  });

  it("leave out keys whose value is undefined, and write a number that is not finite as null", () => {
    const serialize = compile(page);
    const written = JSON.parse(
      serialize({ id: "p", description: undefined, position: Number.NaN, depth: 1.5 }),
    );
    expect(written).toStrictEqual({ id: "p", position: null, depth: 1.5 });
  });

  it("compile every operation's response schema, and write an answer of each as JSON.stringify does", () => {
    const refused: string[] = [];
    for (const operation of Object.values(operations)) {
      const serialize = compiledSerializer(operation);
      if (!operation.response) {
        expect(serialize).toBeUndefined();
        continue;
      }
      // An empty object holds to no required key: written as it is, with a key of no schema.
      const body = { unnamed: 'é\n"' };
      if (!isDeepStrictEqual(JSON.parse(serialize!(body)), body)) refused.push(operation.id);
    }
    expect(refused).toStrictEqual([]);
  });
});
