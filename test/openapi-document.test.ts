import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { operations } from "../src/core/operations.js";
import { REFERENCE_OPERATIONS } from "../src/http/reference-operations.js";
import { createTestDocsbase } from "../src/testing/double.js";

/** `GET /v1/openapi.json` is a valid OpenAPI 3.1 document, as an independent validator reads it. */
describe("generated OpenAPI document", () => {
  it("validates against the OpenAPI 3.1 schema", async () => {
    const t = await createTestDocsbase();
    const document = await (await t.fetch("http://docsbase.test/v1/openapi.json")).json();
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("marks x-docsbase-extension: true on exactly the operations the reference does not have", async () => {
    const t = await createTestDocsbase();
    const document = (await (await t.fetch("http://docsbase.test/v1/openapi.json")).json()) as {
      paths: Record<string, Record<string, { operationId: string; "x-docsbase-extension"?: unknown }>>;
    };
    const all = Object.values(document.paths).flatMap((item) => Object.values(item));
    const marked = all.filter((operation) => operation["x-docsbase-extension"] === true);
    const reference = new Set(REFERENCE_OPERATIONS.map((operation) => operation.operationId));
    const extensions = Object.keys(operations).filter((id) => !reference.has(id));
    expect(extensions.length).toBeGreaterThan(0);
    expect(marked.map((operation) => operation.operationId).sort()).toEqual(extensions.sort());
    // The reference's operations carry no mark at all, not `false`.
    expect(all.filter((operation) => "x-docsbase-extension" in operation)).toHaveLength(extensions.length);
    expect(marked.map((operation) => operation.operationId)).toContain("createUser");
  });
});
