import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { createRequire } from "node:module";

/**
 * The reference OpenAPI document of `@gitbook/api@0.146.0` as a JSON Schema source: one ajv
 * instance holding it under the id "reference", so tests compile `{ $ref: "reference#/..." }`.
 */

const require = createRequire(import.meta.url);
export const referenceSpec = require("@gitbook/api/spec/openapi.json") as ReferenceSpec;
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export interface ReferenceOperation {
  operationId: string;
  responses: Record<string, { $ref?: string; content?: Record<string, { schema?: unknown }> }>;
}
export interface ReferenceSpec {
  paths: Record<string, Record<string, ReferenceOperation>>;
  components: { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> };
}

// `discriminator` stays off: ajv requires `type` directly in each oneOf branch, and the reference
// composes branches with allOf. Plain oneOf validation is stricter anyway (exactly one branch).
export const referenceAjv = new Ajv({ strict: false, allErrors: true });
addFormats(referenceAjv);
// Formats the reference uses beyond JSON Schema's: accepted as plain strings or numbers.
for (const format of ["emoji", "icon", "byte", "int32"]) referenceAjv.addFormat(format, () => true);
referenceAjv.addSchema(
  withSatisfiableEditAttributes(nullableToJsonSchema(structuredClone(referenceSpec)) as ReferenceSpec),
  "reference",
);

/** A validator for one schema of the reference's `components.schemas`. */
export const referenceSchema = (name: string) =>
  referenceAjv.compile({ $ref: `reference#/components/schemas/${name}` });

/**
 * The reference is OpenAPI 3.0, whose `nullable: true` JSON Schema lacks: rewrite it as a `null`
 * type (with `type`) or as an `anyOf` with `null` (without), so ajv validates what 3.0 means.
 */
function nullableToJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(nullableToJsonSchema);
  if (!node || typeof node !== "object") return node;
  const object: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) object[key] = nullableToJsonSchema(value);
  if (object["nullable"] !== true) return object;
  delete object["nullable"];
  if (typeof object["type"] === "string") return { ...object, type: [object["type"], "null"] };
  return { anyOf: [object, { type: "null" }] };
}

/**
 * The reference types a `page_edited` change's `attributes` as a `oneOf` of the document, group and
 * link attribute schemas, which all accept any object with one property or more (none of them
 * forbids other properties): every value matches all three, so no answer could pass `oneOf`.
 * Validated as `anyOf`, what the reference means (one of the three, by the kind of page).
 */
function withSatisfiableEditAttributes(spec: ReferenceSpec): ReferenceSpec {
  type Schema = { properties: Record<string, { oneOf?: unknown; anyOf?: unknown }> };
  const { schemas } = spec.components as unknown as { schemas: Record<string, Schema> };
  const attributes = schemas["RevisionSemanticChangePageEdited"]!.properties["attributes"]!;
  attributes.anyOf = attributes.oneOf;
  delete attributes.oneOf;
  return spec;
}
