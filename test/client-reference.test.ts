import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  CLIENT_REFERENCE_COMMAND,
  CLIENT_REFERENCE_FILE,
  clientReference,
  clientReferenceMarkdown,
  TypeSpeller,
} from "../scripts/client-reference.js";
import { operations } from "../src/core/operations.js";
import { createTestDocsbase } from "../src/testing/double.js";

const root = join(import.meta.dirname, "..");
const reference = clientReference(operations);

describe("docs/client.md", () => {
  it("is what the script derives from the registry", async () => {
    const committed = readFileSync(join(root, CLIENT_REFERENCE_FILE), "utf8");
    const derived = await clientReferenceMarkdown(reference);
    expect(
      committed === derived,
      `${CLIENT_REFERENCE_FILE} is out of date: run ${CLIENT_REFERENCE_COMMAND}`,
    ).toBe(true);
  });

  it("lists every method the client has, once, with its route", async () => {
    const t = await createTestDocsbase();
    const client = t.as(t.operatorToken);
    expect(reference.methods.map((method) => method.name).sort()).toEqual(Object.keys(client).sort());
    const createSpace = reference.methods.find((method) => method.name === "createSpace");
    expect(createSpace).toMatchObject({
      method: "POST",
      path: "/orgs/{organizationId}/spaces",
      status: "201",
    });
    expect(createSpace?.input).toMatch(/^\{ organizationId: string; body\?: \{ title\?: string; /);
    expect(createSpace?.output).toBe("Space");
    expect(reference.objects.get("Space")?.[0]).toMatch(/^\{ object: "space"; id: string; title: string; /);
  });
});

describe("TypeSpeller", () => {
  const types = new TypeSpeller({
    Node: {
      type: "object",
      properties: { children: { type: "array", items: { $ref: "#/components/schemas/Node" } } },
    },
  });

  it("names an object by its object field, and spells it once expanded", () => {
    const change = {
      type: "object",
      required: ["object", "id"],
      properties: {
        object: { type: "string", const: "change-request" },
        id: { type: "string" },
        note: { type: "string" },
      },
    };
    expect(types.spell({ type: "array", items: change })).toBe("ChangeRequest[]");
    expect(types.spell(change, 0, true)).toBe('{ object: "change-request"; id: string; note?: string }');
  });

  it("collapses unnamed objects deeper than two levels, recursive ones included", () => {
    expect(types.spell({ $ref: "#/components/schemas/Node" })).toBe("{ children?: { children?: {…}[] }[] }");
  });

  it("spells enums, unions and maps as TypeScript does", () => {
    expect(types.spell({ type: "string", enum: ["a", "b"] })).toBe('"a" | "b"');
    expect(types.spell({ anyOf: [{ type: "string" }, { type: "null" }] })).toBe("string | null");
    expect(types.spell({ type: "object", additionalProperties: { type: "number" } })).toBe(
      "Record<string, number>",
    );
    expect(types.spell({ type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] } })).toBe(
      "(string | number)[]",
    );
  });
});
