import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
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
});
