import * as z from "zod";
import { badRequest } from "../shared/errors.js";

/**
 * The adaptive schema of a site: the JSON Schema of the claims its visitor tokens carry, as the
 * reference's `SiteAdaptiveJSONSchema` allows it (`@gitbook/api` spec, with
 * `SiteAdaptiveJSONSchemaClaimsProperties` and `SiteAdaptiveJSONSchemaPrimitives`):
 * - the schema: `type: "object"`, `properties`, `additionalProperties: false`, optionally
 *   `$schema` (the draft-07 URL), nothing else;
 * - `properties.unsigned`, optional: `type: "object"`, the fixed description, `properties` (its
 *   claims) and `additionalProperties: false`;
 * - every other property is a claim: `boolean`, `number`, `string` (with an optional `enum` of
 *   strings), `array` whose `items` is one of those three, or `object` with `properties` (claims)
 *   and `additionalProperties: false`; each claim, array items included, has a `description`
 *   and no other member.
 *
 * A few rules are stricter than the reference, so that nothing accepted here is refused there
 * and every claim can be named in a condition: `unsigned` takes no extra member, an `enum` lists
 * at least one value, and a claim is never named `constructor`, `__proto__` or `prototype`
 * (conditions refuse those keys). Caps keep a schema small enough to store with a site and
 * every template condition within the 1024 characters of a condition: at most
 * `ADAPTIVE_LIMITS.claims` claims in all, claim paths at most `depth` names long (not counting
 * `unsigned`), names of 1 to `name` characters, descriptions of at most `description`
 * characters, `enum` of at most `enumValues` values of at most `enumValue` characters each.
 */

export const ADAPTIVE_LIMITS = {
  claims: 256,
  depth: 4,
  name: 64,
  description: 1024,
  enumValues: 100,
  enumValue: 128,
} as const;

export const DRAFT_07 = "http://json-schema.org/draft-07/schema#";
export const UNSIGNED_DESCRIPTION = "Unsigned claims of the site visitor.";

const DESCRIPTION_RULE = `must be a string of at most ${ADAPTIVE_LIMITS.description} characters`;
const ENUM_RULE = `must be an array of 1 to ${ADAPTIVE_LIMITS.enumValues} strings`;
const ENUM_VALUE_RULE = `must be a string of at most ${ADAPTIVE_LIMITS.enumValue} characters`;
const FORBIDDEN_NAMES = new Set(["constructor", "__proto__", "prototype"]);

/**
 * Zod's `error` option for a member's own rule. An absent member gets no message here, so that
 * {@link wording} calls it "required", as every other absent member.
 */
const rule = (message: string) => ({
  error: (issue: z.core.$ZodRawIssue) => (issue.input === undefined ? undefined : message),
});

const description = z.string(rule(DESCRIPTION_RULE)).max(ADAPTIVE_LIMITS.description, DESCRIPTION_RULE);

const primitiveClaims = [
  z.strictObject({ type: z.literal("boolean"), description }),
  z.strictObject({ type: z.literal("number"), description }),
  z.strictObject({
    type: z.literal("string"),
    description,
    enum: z
      .array(z.string(ENUM_VALUE_RULE).max(ADAPTIVE_LIMITS.enumValue, ENUM_VALUE_RULE), rule(ENUM_RULE))
      .min(1, ENUM_RULE)
      .max(ADAPTIVE_LIMITS.enumValues, ENUM_RULE)
      .optional(),
  }),
] as const;

const primitiveClaim = z.discriminatedUnion("type", [...primitiveClaims]);

const objectClaim = z.strictObject({
  type: z.literal("object"),
  description,
  // A getter, so that the claim types can refer to each other (zod's recursive objects).
  get properties(): z.ZodRecord<z.ZodString, typeof claim> {
    return claims;
  },
  additionalProperties: z.literal(false),
});

const claim = z.discriminatedUnion("type", [
  ...primitiveClaims,
  z.strictObject({ type: z.literal("array"), description, items: primitiveClaim }),
  objectClaim,
]);

/** Claims by name. Names, nesting and the number of claims are checked by {@link claimTree}. */
const claims = z.record(z.string(), claim);

const unsignedClaims = z.strictObject({
  type: z.literal("object"),
  description: z.literal(UNSIGNED_DESCRIPTION),
  properties: claims,
  additionalProperties: z.literal(false),
});

export type AdaptivePrimitiveClaim = z.infer<typeof primitiveClaim>;
export type AdaptiveObjectClaim = z.infer<typeof objectClaim>;
export type AdaptiveClaim = z.infer<typeof claim>;

/**
 * The rules the reference does not have, about the claims as a tree: names, nesting depth and
 * count. They are checked before the shape, on the raw value, so that zod's recursive descent
 * never goes deeper than `ADAPTIVE_LIMITS.depth` into what a caller sent. It follows only
 * `properties` members; whatever else is wrong with a node is the shape's to say.
 */
function claimTree(schema: unknown, context: z.RefinementCtx) {
  let count = 0;
  const refuse = (path: PropertyKey[], message: string) => {
    context.addIssue({ code: "custom", path, message });
    return false;
  };
  const visit = (properties: unknown, path: PropertyKey[], depth: number, top = false): boolean => {
    if (!isObject(properties)) return true;
    for (const [name, value] of Object.entries(properties)) {
      const at = [...path, name];
      const inner = [...at, "properties"];
      const members = isObject(value) ? value["properties"] : undefined;
      if (top && name === "unsigned") {
        if (!visit(members, inner, depth)) return false;
        continue;
      }
      if (name === "" || name.length > ADAPTIVE_LIMITS.name) {
        return refuse(at, `a claim name has 1 to ${ADAPTIVE_LIMITS.name} characters`);
      }
      if (FORBIDDEN_NAMES.has(name)) return refuse(at, `"${name}" is not allowed as a claim name`);
      if (depth > ADAPTIVE_LIMITS.depth) {
        return refuse(at, `claims nest at most ${ADAPTIVE_LIMITS.depth} levels deep`);
      }
      count += 1;
      if (count > ADAPTIVE_LIMITS.claims) {
        return refuse(at, `a schema has at most ${ADAPTIVE_LIMITS.claims} claims`);
      }
      if (!visit(members, inner, depth + 1)) return false;
    }
    return true;
  };
  if (isObject(schema)) visit(schema["properties"], ["properties"], 1, true);
}

const adaptiveJsonSchema = z
  .unknown()
  .superRefine(claimTree)
  .pipe(
    z.strictObject({
      $schema: z.literal(DRAFT_07).optional(),
      type: z.literal("object"),
      /** Claims by name; `unsigned`, when present, is the object of unsigned claims. */
      properties: z.object({ unsigned: unsignedClaims.optional() }).catchall(claim),
      additionalProperties: z.literal(false),
    }),
  );

export type AdaptiveJsonSchema = z.infer<typeof adaptiveJsonSchema>;

/** The schema of a site that never set one: no claims, and an empty `unsigned` object. */
export const DEFAULT_ADAPTIVE_SCHEMA: AdaptiveJsonSchema = deepFreeze({
  type: "object",
  properties: {
    unsigned: {
      type: "object",
      description: UNSIGNED_DESCRIPTION,
      properties: {},
      additionalProperties: false,
    },
  },
  additionalProperties: false,
});

/**
 * Checks a `jsonSchema` against the rules above and returns a fresh copy of it; `field` names
 * the request field in error messages, which name the offending path.
 *
 * @example
 * ```ts
 * validateAdaptiveSchema({
 *   type: "object",
 *   properties: { plan: { type: "string", enum: ["free", "pro"], description: "Plan" } },
 *   additionalProperties: false,
 * });
 * validateAdaptiveSchema({ type: "object", properties: { plan: { type: "string" } }, additionalProperties: false });
 * // throws badRequest("body.jsonSchema.properties.plan.description: required")
 * ```
 */
export function validateAdaptiveSchema(jsonSchema: unknown, field = "body.jsonSchema"): AdaptiveJsonSchema {
  const parsed = adaptiveJsonSchema.safeParse(jsonSchema, { error: wording });
  if (!parsed.success) throw badRequest(describe(field, parsed.error.issues));
  // The shape declares `unsigned`, so zod puts it first; claims keep the order they were written
  // in, which template conditions follow.
  const written = Object.keys((jsonSchema as { properties: object }).properties);
  const properties = Object.fromEntries(written.map((name) => [name, parsed.data.properties[name]]));
  return { ...parsed.data, properties } as AdaptiveJsonSchema;
}

/** The messages of the issues zod words itself, as the rest of this file words its rules. */
function wording(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code === "invalid_union" && issue.discriminator !== undefined) {
    // A claim's `type` matches none of the union's: the issue lists the types it has.
    const { input, discriminator, options } = issue as {
      input: object;
      discriminator: string;
      options: string[];
    };
    if ((input as Record<string, unknown>)[discriminator] === undefined) return "required";
    return `must be one of ${options.join(", ")}`;
  }
  if (issue.input === undefined) return "required";
  // Strings and arrays carry their own rule; every other type a schema here expects is an object.
  if (issue.code === "invalid_type") return "must be an object";
  if (issue.code === "invalid_value")
    return `must be ${issue.values.map((value) => JSON.stringify(value)).join(" or ")}`;
  return undefined;
}

/** Up to five issues, each as `path: rule`, a member not allowed named by its own path. */
function describe(field: string, issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .flatMap((issue) =>
      issue.code === "unrecognized_keys"
        ? issue.keys.map((key) => `${pathOf(field, [...issue.path, key])}: not allowed`)
        : [`${pathOf(field, issue.path)}: ${issue.message}`],
    )
    .slice(0, 5)
    .join("; ");
}

function pathOf(field: string, path: readonly PropertyKey[]): string {
  return field + path.map((key) => (typeof key === "number" ? `[${key}]` : segment(String(key)))).join("");
}

/** A key in a path: `.name` when it reads as an identifier, `["odd name"]` otherwise. */
function segment(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const entry of Object.values(value)) deepFreeze(entry);
    Object.freeze(value);
  }
  return value;
}

/**
 * Template conditions (`GET .../adaptive-schema/template-conditions`): one per leaf claim, in
 * schema order, each a condition that `parseCondition` accepts. Nested claims are named by
 * their path (`visitor.claims.org.tier`), unsigned ones under `visitor.claims.unsigned.`, and a
 * name that is not an identifier in brackets (`visitor.claims["https://x.dev/roles"]`). The
 * suggested test depends on the claim's type:
 * - boolean: the claim itself (`visitor.claims.beta`), true when it is true;
 * - string with `enum`: equal to the first value (`visitor.claims.plan == "free"`);
 * - string: present (`visitor.claims.name != null`; `!=` also covers a missing claim);
 * - number: positive (`visitor.claims.seats > 0`);
 * - array: not empty (`visitor.claims.roles.length > 0`; conditions have no calls, so no
 *   `includes`, but `length` is an array's own property).
 * An object claim has no condition of its own: its leaves have.
 *
 * @example
 * ```ts
 * templateConditions({
 *   type: "object",
 *   properties: { seats: { type: "number", description: "Seats" } },
 *   additionalProperties: false,
 * });
 * // [{ description: "seats is greater than 0", condition: "visitor.claims.seats > 0" }]
 * ```
 */
export function templateConditions(
  jsonSchema: AdaptiveJsonSchema,
): { description: string; condition: string }[] {
  const templates: { description: string; condition: string }[] = [];
  const visit = (claims: Readonly<Record<string, AdaptiveClaim>>, names: readonly string[]) => {
    for (const [name, claim] of Object.entries(claims)) {
      const path = [...names, name];
      if (claim.type === "object") {
        visit(claim.properties, path);
        continue;
      }
      const reference = `visitor.claims${path.map(conditionKey).join("")}`;
      const label = path.join(".");
      templates.push(template(claim, reference, label));
    }
  };
  visit(jsonSchema.properties, []);
  return templates;
}

function template(claim: Exclude<AdaptiveClaim, AdaptiveObjectClaim>, reference: string, label: string) {
  switch (claim.type) {
    case "boolean":
      return { description: `${label} is true`, condition: reference };
    case "number":
      return { description: `${label} is greater than 0`, condition: `${reference} > 0` };
    case "array":
      return { description: `${label} has at least one value`, condition: `${reference}.length > 0` };
    case "string": {
      const first = claim.enum?.[0];
      if (first === undefined) return { description: `${label} is set`, condition: `${reference} != null` };
      return {
        description: `${label} is ${JSON.stringify(first)}`,
        condition: `${reference} == ${quote(first)}`,
      };
    }
  }
}

function conditionKey(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? `.${name}` : `[${quote(name)}]`;
}

/** A string literal as jsep reads it: its escapes are `\\`, `\"` and the one-letter controls. */
function quote(text: string): string {
  const escapes: Record<string, string> = {
    "\\": "\\\\",
    '"': '\\"',
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\b": "\\b",
    "\f": "\\f",
    "\v": "\\v",
  };
  return `"${text.replace(/[\\"\n\r\t\b\f\v]/g, (character) => escapes[character] ?? character)}"`;
}
