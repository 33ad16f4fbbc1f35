import { describe, expect, it } from "vitest";
import { referenceSchema } from "../../../test/support/reference.js";
import { isDocsbaseError } from "../shared/errors.js";
import {
  ADAPTIVE_LIMITS,
  DEFAULT_ADAPTIVE_SCHEMA,
  DRAFT_07,
  UNSIGNED_DESCRIPTION,
  templateConditions,
  validateAdaptiveSchema,
  type AdaptiveJsonSchema,
} from "./adaptive.js";
import { evaluateCondition, parseCondition } from "./conditions.js";

/** The reference's own check: nothing accepted here may be refused by it. */
const referenceValid = referenceSchema("SiteAdaptiveJSONSchema");

const unsignedOf = (properties: Record<string, unknown>) => ({
  type: "object",
  description: UNSIGNED_DESCRIPTION,
  properties,
  additionalProperties: false,
});
const schemaOf = (properties: Record<string, unknown>) => ({
  type: "object",
  properties,
  additionalProperties: false,
});

function refusal(jsonSchema: unknown): string {
  try {
    validateAdaptiveSchema(jsonSchema);
  } catch (error) {
    if (!isDocsbaseError(error) || error.code !== "bad_request") throw error;
    return error.message;
  }
  throw new Error(`accepted: ${JSON.stringify(jsonSchema)}`);
}

const VALID: [string, unknown][] = [
  ["the default", DEFAULT_ADAPTIVE_SCHEMA],
  ["no claims at all", schemaOf({})],
  [
    "with $schema",
    { $schema: DRAFT_07, ...schemaOf({ beta: { type: "boolean", description: "Beta tester" } }) },
  ],
  ["an empty description", schemaOf({ beta: { type: "boolean", description: "" } })],
  [
    "every primitive",
    schemaOf({
      beta: { type: "boolean", description: "Beta tester" },
      name: { type: "string", description: "Name" },
      plan: { type: "string", enum: ["free", "pro"], description: "Plan" },
      seats: { type: "number", description: "Seats" },
    }),
  ],
  [
    "arrays of each primitive",
    schemaOf({
      flags: { type: "array", description: "Flags", items: { type: "boolean", description: "A flag" } },
      roles: { type: "array", description: "Roles", items: { type: "string", description: "A role" } },
      tiers: {
        type: "array",
        description: "Tiers",
        items: { type: "string", enum: ["a", "b"], description: "A tier" },
      },
      scores: { type: "array", description: "Scores", items: { type: "number", description: "A score" } },
    }),
  ],
  [
    "nested objects",
    schemaOf({
      org: {
        type: "object",
        description: "Organization",
        properties: {
          tier: { type: "string", enum: ["gold"], description: "Tier" },
          billing: {
            type: "object",
            description: "Billing",
            properties: { active: { type: "boolean", description: "Active" } },
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      },
      empty: { type: "object", description: "Empty", properties: {}, additionalProperties: false },
    }),
  ],
  [
    "unsigned claims of every kind",
    schemaOf({
      unsigned: unsignedOf({
        beta: { type: "boolean", description: "Beta" },
        langs: {
          type: "array",
          description: "Languages",
          items: { type: "string", description: "A language" },
        },
        prefs: {
          type: "object",
          description: "Preferences",
          properties: { dark: { type: "boolean", description: "Dark mode" } },
          additionalProperties: false,
        },
      }),
      plan: { type: "string", description: "Plan" },
    }),
  ],
  [
    "names that are not identifiers",
    schemaOf({
      "https://example.com/roles": {
        type: "array",
        description: "Roles",
        items: { type: "string", description: "" },
      },
      'a "quoted" \\ name\n': { type: "string", enum: ['say "hi"\t\\'], description: "Odd" },
    }),
  ],
];

const INVALID: [string, unknown, string][] = [
  ["null", null, "body.jsonSchema: must be an object"],
  ["an array", [], "body.jsonSchema: must be an object"],
  ["a string", "object", "body.jsonSchema: must be an object"],
  ["no type", { properties: {}, additionalProperties: false }, "body.jsonSchema.type: required"],
  ["another type", { ...schemaOf({}), type: "array" }, 'body.jsonSchema.type: must be "object"'],
  ["no properties", { type: "object", additionalProperties: false }, "body.jsonSchema.properties: required"],
  [
    "properties an array",
    { ...schemaOf({}), properties: [] },
    "body.jsonSchema.properties: must be an object",
  ],
  [
    "no additionalProperties",
    { type: "object", properties: {} },
    "body.jsonSchema.additionalProperties: required",
  ],
  [
    "additionalProperties true",
    { ...schemaOf({}), additionalProperties: true },
    "body.jsonSchema.additionalProperties: must be false",
  ],
  ["a top-level title", { ...schemaOf({}), title: "Claims" }, "body.jsonSchema.title: not allowed"],
  ["required", { ...schemaOf({}), required: ["plan"] }, "body.jsonSchema.required: not allowed"],
  [
    "another $schema",
    { ...schemaOf({}), $schema: "https://json-schema.org/draft/2020-12/schema" },
    "body.jsonSchema.$schema: must be",
  ],
  [
    "a claim without description",
    schemaOf({ plan: { type: "string" } }),
    "body.jsonSchema.properties.plan.description: required",
  ],
  [
    "a description that is not a string",
    schemaOf({ plan: { type: "string", description: 3 } }),
    "body.jsonSchema.properties.plan.description: must be a string",
  ],
  [
    "a claim without type",
    schemaOf({ plan: { description: "Plan" } }),
    "body.jsonSchema.properties.plan.type: required",
  ],
  [
    "an integer claim",
    schemaOf({ seats: { type: "integer", description: "Seats" } }),
    "body.jsonSchema.properties.seats.type: must be one of boolean, number, string, array, object",
  ],
  [
    "a null claim",
    schemaOf({ gone: { type: "null", description: "Nothing" } }),
    "body.jsonSchema.properties.gone.type: must be one of",
  ],
  [
    "a claim that is not an object",
    schemaOf({ plan: "string" }),
    "body.jsonSchema.properties.plan: must be an object",
  ],
  [
    "a claim with a pattern",
    schemaOf({ plan: { type: "string", description: "Plan", pattern: "^p" } }),
    "body.jsonSchema.properties.plan.pattern: not allowed",
  ],
  [
    "an enum on a number",
    schemaOf({ seats: { type: "number", description: "Seats", enum: [1] } }),
    "body.jsonSchema.properties.seats.enum: not allowed",
  ],
  [
    "an enum that is not an array",
    schemaOf({ plan: { type: "string", description: "Plan", enum: "pro" } }),
    "body.jsonSchema.properties.plan.enum: must be an array",
  ],
  [
    "an enum of numbers",
    schemaOf({ plan: { type: "string", description: "Plan", enum: ["a", 2] } }),
    "body.jsonSchema.properties.plan.enum[1]: must be a string",
  ],
  [
    "an array without items",
    schemaOf({ roles: { type: "array", description: "Roles" } }),
    "body.jsonSchema.properties.roles.items: required",
  ],
  [
    "array items without description",
    schemaOf({ roles: { type: "array", description: "Roles", items: { type: "string" } } }),
    "body.jsonSchema.properties.roles.items.description: required",
  ],
  [
    "an array of arrays",
    schemaOf({
      grid: {
        type: "array",
        description: "Grid",
        items: { type: "array", description: "Row", items: { type: "number", description: "Cell" } },
      },
    }),
    "body.jsonSchema.properties.grid.items.type: must be one of boolean, number, string",
  ],
  [
    "an array of objects",
    schemaOf({
      orgs: {
        type: "array",
        description: "Orgs",
        items: { type: "object", description: "Org", properties: {}, additionalProperties: false },
      },
    }),
    "body.jsonSchema.properties.orgs.items.type: must be one of boolean, number, string",
  ],
  [
    "an array with minItems",
    schemaOf({
      roles: { type: "array", description: "Roles", items: { type: "string", description: "" }, minItems: 1 },
    }),
    "body.jsonSchema.properties.roles.minItems: not allowed",
  ],
  [
    "an object claim without additionalProperties",
    schemaOf({ org: { type: "object", description: "Org", properties: {} } }),
    "body.jsonSchema.properties.org.additionalProperties: required",
  ],
  [
    "an object claim open to more",
    schemaOf({ org: { type: "object", description: "Org", properties: {}, additionalProperties: true } }),
    "body.jsonSchema.properties.org.additionalProperties: must be false",
  ],
  [
    "an object claim without properties",
    schemaOf({ org: { type: "object", description: "Org", additionalProperties: false } }),
    "body.jsonSchema.properties.org.properties: required",
  ],
  [
    "a nested claim without description",
    schemaOf({
      org: {
        type: "object",
        description: "Org",
        properties: { tier: { type: "string" } },
        additionalProperties: false,
      },
    }),
    "body.jsonSchema.properties.org.properties.tier.description: required",
  ],
  [
    "a wrong unsigned description",
    schemaOf({ unsigned: { ...unsignedOf({}), description: "Mine" } }),
    `body.jsonSchema.properties.unsigned.description: must be "${UNSIGNED_DESCRIPTION}"`,
  ],
  [
    "unsigned without additionalProperties",
    schemaOf({ unsigned: { type: "object", description: UNSIGNED_DESCRIPTION, properties: {} } }),
    "body.jsonSchema.properties.unsigned.additionalProperties: required",
  ],
  [
    "unsigned as a boolean claim",
    schemaOf({ unsigned: { type: "boolean", description: "Unsigned" } }),
    'body.jsonSchema.properties.unsigned.type: must be "object"',
  ],
  [
    "an unsigned claim without description",
    schemaOf({ unsigned: unsignedOf({ beta: { type: "boolean" } }) }),
    "body.jsonSchema.properties.unsigned.properties.beta.description: required",
  ],
  [
    "a name that is not an identifier, without description",
    schemaOf({ "my-plan": { type: "string" } }),
    'body.jsonSchema.properties["my-plan"].description: required',
  ],
];

/** Refused here although the reference accepts them: the stricter rules of adaptive.ts. */
const STRICTER: [string, unknown, string][] = [
  [
    "an extra member on unsigned",
    schemaOf({ unsigned: { ...unsignedOf({}), title: "Unsigned" } }),
    "body.jsonSchema.properties.unsigned.title: not allowed",
  ],
  [
    "an empty enum",
    schemaOf({ plan: { type: "string", description: "Plan", enum: [] } }),
    "body.jsonSchema.properties.plan.enum: must be an array of 1 to",
  ],
  [
    "a claim named constructor",
    schemaOf({ constructor: { type: "boolean", description: "" } }),
    'body.jsonSchema.properties.constructor: "constructor" is not allowed as a claim name',
  ],
  [
    "a claim named __proto__",
    JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"boolean","description":""}},"additionalProperties":false}',
    ),
    'body.jsonSchema.properties.__proto__: "__proto__" is not allowed as a claim name',
  ],
  [
    "a nested claim named prototype",
    schemaOf({
      org: {
        type: "object",
        description: "",
        properties: { prototype: { type: "boolean", description: "" } },
        additionalProperties: false,
      },
    }),
    "body.jsonSchema.properties.org.properties.prototype: ",
  ],
  [
    "an empty claim name",
    schemaOf({ "": { type: "boolean", description: "" } }),
    'body.jsonSchema.properties[""]: a claim name has 1 to',
  ],
  [
    "a long claim name",
    schemaOf({ ["n".repeat(ADAPTIVE_LIMITS.name + 1)]: { type: "boolean", description: "" } }),
    "a claim name has 1 to 64 characters",
  ],
  [
    "a long description",
    schemaOf({ beta: { type: "boolean", description: "d".repeat(ADAPTIVE_LIMITS.description + 1) } }),
    "body.jsonSchema.properties.beta.description: must be a string of at most 1024 characters",
  ],
  ["too many claims", schemaOf(claimsNamed(ADAPTIVE_LIMITS.claims + 1)), "a schema has at most 256 claims"],
  ["too deep", schemaOf(nested(ADAPTIVE_LIMITS.depth + 1)), "claims nest at most 4 levels deep"],
];

function claimsNamed(count: number) {
  return Object.fromEntries(
    Array.from({ length: count }, (_, index) => [`c${index}`, { type: "boolean", description: "" }]),
  );
}

/** `levels` names down to a boolean leaf: a.a.a... */
function nested(levels: number): Record<string, unknown> {
  let claim: unknown = { type: "boolean", description: "" };
  for (let level = 1; level < levels; level++) {
    claim = { type: "object", description: "", properties: { a: claim }, additionalProperties: false };
  }
  return { a: claim };
}

describe("validateAdaptiveSchema", () => {
  it.each(VALID)("accepts %s, as the reference does, and returns it unchanged", (_, jsonSchema) => {
    expect(referenceValid(jsonSchema), JSON.stringify(referenceValid.errors)).toBe(true);
    const accepted = validateAdaptiveSchema(jsonSchema);
    expect(accepted).toEqual(jsonSchema);
    expect(accepted).not.toBe(jsonSchema);
  });

  it.each(INVALID)("refuses %s, as the reference does, naming the path", (_, jsonSchema, message) => {
    expect(referenceValid(jsonSchema)).toBe(false);
    expect(refusal(jsonSchema)).toContain(message);
    expect(refusal(jsonSchema).startsWith("body.jsonSchema")).toBe(true);
  });

  it.each(STRICTER)("refuses %s, which the reference allows", (_, jsonSchema, message) => {
    expect(referenceValid(jsonSchema)).toBe(true);
    expect(refusal(jsonSchema)).toContain(message);
  });

  it("accepts every limit's boundary value", () => {
    const boundary = schemaOf({
      ...claimsNamed(ADAPTIVE_LIMITS.claims - ADAPTIVE_LIMITS.depth - 1),
      ...nested(ADAPTIVE_LIMITS.depth),
      ["n".repeat(ADAPTIVE_LIMITS.name)]: {
        type: "string",
        description: "d".repeat(ADAPTIVE_LIMITS.description),
        enum: Array.from({ length: ADAPTIVE_LIMITS.enumValues }, () => "v".repeat(ADAPTIVE_LIMITS.enumValue)),
      },
    });
    expect(referenceValid(boundary)).toBe(true);
    expect(validateAdaptiveSchema(boundary)).toEqual(boundary);
    const overEnum = schemaOf({
      plan: {
        type: "string",
        description: "",
        enum: Array.from({ length: ADAPTIVE_LIMITS.enumValues + 1 }, () => "v"),
      },
    });
    expect(refusal(overEnum)).toContain(
      "body.jsonSchema.properties.plan.enum: must be an array of 1 to 100 strings",
    );
    const longValue = schemaOf({
      plan: { type: "string", description: "", enum: ["v".repeat(ADAPTIVE_LIMITS.enumValue + 1)] },
    });
    expect(refusal(longValue)).toContain(
      "body.jsonSchema.properties.plan.enum[0]: must be a string of at most 128",
    );
  });

  it("counts the depth of unsigned claims without unsigned itself", () => {
    expect(() =>
      validateAdaptiveSchema(schemaOf({ unsigned: unsignedOf(nested(ADAPTIVE_LIMITS.depth)) })),
    ).not.toThrow();
    expect(refusal(schemaOf({ unsigned: unsignedOf(nested(ADAPTIVE_LIMITS.depth + 1)) }))).toContain(
      "claims nest at most 4 levels deep",
    );
  });

  it("names each fault in one message, up to five", () => {
    const faults = schemaOf({
      a: { description: "A" },
      b: { type: "date", description: "B" },
      c: { type: "string", description: 3 },
      d: { type: "boolean", description: "D", pattern: "x" },
      e: { type: "boolean" },
      f: { type: "boolean" },
    });
    expect(refusal(faults).split("; ")).toEqual([
      "body.jsonSchema.properties.a.type: required",
      "body.jsonSchema.properties.b.type: must be one of boolean, number, string, array, object",
      "body.jsonSchema.properties.c.description: must be a string of at most 1024 characters",
      "body.jsonSchema.properties.d.pattern: not allowed",
      "body.jsonSchema.properties.e.description: required",
    ]);
  });

  it("refuses a schema nested far past the depth limit without descending into it", () => {
    let claim: unknown = { type: "boolean", description: "" };
    for (let level = 0; level < 100_000; level++) {
      claim = { type: "object", description: "", properties: { a: claim }, additionalProperties: false };
    }
    expect(refusal(schemaOf({ a: claim }))).toBe(
      `body.jsonSchema${".properties.a".repeat(ADAPTIVE_LIMITS.depth + 1)}: claims nest at most 4 levels deep`,
    );
  });

  it("keeps claims in the order they were written, unsigned included", () => {
    const written = schemaOf({
      b: { type: "boolean", description: "" },
      unsigned: unsignedOf({}),
      a: { type: "boolean", description: "" },
    });
    expect(Object.keys(validateAdaptiveSchema(written).properties)).toEqual(["b", "unsigned", "a"]);
  });

  it("takes the field name it is given", () => {
    expect(() => validateAdaptiveSchema({}, "jsonSchema")).toThrow("jsonSchema.type: required");
  });

  it("keeps the default frozen and valid", () => {
    expect(Object.isFrozen(DEFAULT_ADAPTIVE_SCHEMA.properties["unsigned"])).toBe(true);
    expect(referenceValid(DEFAULT_ADAPTIVE_SCHEMA)).toBe(true);
    expect(templateConditions(DEFAULT_ADAPTIVE_SCHEMA)).toEqual([]);
  });
});

describe("templateConditions", () => {
  const schema = validateAdaptiveSchema(
    VALID.find(([name]) => name === "unsigned claims of every kind")?.[1],
  );
  const everything: AdaptiveJsonSchema = validateAdaptiveSchema(
    schemaOf({
      beta: { type: "boolean", description: "Beta tester" },
      name: { type: "string", description: "Name" },
      plan: { type: "string", enum: ["free", "pro"], description: "Plan" },
      seats: { type: "number", description: "Seats" },
      roles: { type: "array", description: "Roles", items: { type: "string", description: "" } },
      org: {
        type: "object",
        description: "Org",
        properties: { tier: { type: "string", enum: ["gold", "silver"], description: "Tier" } },
        additionalProperties: false,
      },
      unsigned: unsignedOf({ trial: { type: "boolean", description: "On trial" } }),
    }),
  );

  it("gives one condition per leaf claim, in schema order", () => {
    expect(templateConditions(everything)).toEqual([
      { description: "beta is true", condition: "visitor.claims.beta" },
      { description: "name is set", condition: "visitor.claims.name != null" },
      { description: 'plan is "free"', condition: 'visitor.claims.plan == "free"' },
      { description: "seats is greater than 0", condition: "visitor.claims.seats > 0" },
      { description: "roles has at least one value", condition: "visitor.claims.roles.length > 0" },
      { description: 'org.tier is "gold"', condition: 'visitor.claims.org.tier == "gold"' },
      { description: "unsigned.trial is true", condition: "visitor.claims.unsigned.trial" },
    ]);
    expect(templateConditions(schema).map((template) => template.condition)).toEqual([
      "visitor.claims.unsigned.beta",
      "visitor.claims.unsigned.langs.length > 0",
      "visitor.claims.unsigned.prefs.dark",
      "visitor.claims.plan != null",
    ]);
  });

  it("produces conditions that parse and hold for a visitor who has the claims", () => {
    const visitor = {
      beta: true,
      name: "Ada",
      plan: "free",
      seats: 2,
      roles: ["admin"],
      org: { tier: "gold" },
      unsigned: { trial: true },
    };
    for (const { condition } of templateConditions(everything)) {
      expect(evaluateCondition(parseCondition(condition), visitor), condition).toBe(true);
      expect(evaluateCondition(parseCondition(condition), {}), condition).toBe(false);
    }
  });

  it("quotes names and values that are not identifiers so that they read back unchanged", () => {
    const odd = validateAdaptiveSchema(
      VALID.find(([name]) => name === "names that are not identifiers")?.[1],
    );
    const [roles, quoted] = templateConditions(odd);
    expect(roles?.condition).toBe('visitor.claims["https://example.com/roles"].length > 0');
    expect(parseCondition(quoted?.condition ?? "").tree).toEqual({
      kind: "binary",
      operator: "==",
      left: { kind: "read", path: ['a "quoted" \\ name\n'] },
      right: { kind: "literal", value: 'say "hi"\t\\' },
    });
  });

  it("stays within the 1024 characters of a condition at every limit", () => {
    const name = '"'.repeat(ADAPTIVE_LIMITS.name);
    let claim: unknown = {
      type: "string",
      description: "",
      enum: ['"'.repeat(ADAPTIVE_LIMITS.enumValue)],
    };
    for (let level = 1; level < ADAPTIVE_LIMITS.depth; level++) {
      claim = { type: "object", description: "", properties: { [name]: claim }, additionalProperties: false };
    }
    const worst = validateAdaptiveSchema(schemaOf({ unsigned: unsignedOf({ [name]: claim }) }));
    const [only] = templateConditions(worst);
    expect(only?.condition.length).toBeLessThanOrEqual(1024);
    expect(() => parseCondition(only?.condition ?? "")).not.toThrow();
  });
});
