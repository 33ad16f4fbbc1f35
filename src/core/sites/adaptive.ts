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

export type AdaptivePrimitiveClaim =
  | { readonly type: "boolean"; readonly description: string }
  | { readonly type: "number"; readonly description: string }
  | { readonly type: "string"; readonly description: string; readonly enum?: readonly string[] };

export interface AdaptiveObjectClaim {
  readonly type: "object";
  readonly description: string;
  readonly properties: Readonly<Record<string, AdaptiveClaim>>;
  readonly additionalProperties: false;
}

export type AdaptiveClaim =
  | AdaptivePrimitiveClaim
  | { readonly type: "array"; readonly description: string; readonly items: AdaptivePrimitiveClaim }
  | AdaptiveObjectClaim;

export interface AdaptiveJsonSchema {
  readonly $schema?: typeof DRAFT_07;
  readonly type: "object";
  /** Claims by name; `unsigned`, when present, is the object of unsigned claims. */
  readonly properties: Readonly<Record<string, AdaptiveClaim>>;
  readonly additionalProperties: false;
}

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

const PRIMITIVE_TYPES = ["boolean", "number", "string"];
const CLAIM_TYPES = [...PRIMITIVE_TYPES, "array", "object"];
const FORBIDDEN_NAMES = new Set(["constructor", "__proto__", "prototype"]);

type Json = Record<string, unknown>;

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
  const counter = { claims: 0 };
  const schema = object(jsonSchema, field);
  allowOnly(schema, field, ["$schema", "type", "properties", "additionalProperties"]);
  if (Object.hasOwn(schema, "$schema") && schema["$schema"] !== DRAFT_07) {
    throw badRequest(`${field}.$schema: must be "${DRAFT_07}"`);
  }
  exactly(schema, field, "type", "object");
  const properties = object(required(schema, field, "properties"), `${field}.properties`);
  exactly(schema, field, "additionalProperties", false);

  const claims: Record<string, AdaptiveClaim> = {};
  for (const [name, value] of Object.entries(properties)) {
    const path = `${field}.properties${segment(name)}`;
    claims[name] =
      name === "unsigned" ? unsigned(value, path, counter) : claim(value, path, name, 1, counter);
  }
  return {
    ...(Object.hasOwn(schema, "$schema") ? { $schema: DRAFT_07 } : {}),
    type: "object",
    properties: claims,
    additionalProperties: false,
  };
}

function unsigned(value: unknown, path: string, counter: { claims: number }): AdaptiveObjectClaim {
  const node = object(value, path);
  allowOnly(node, path, ["type", "description", "properties", "additionalProperties"]);
  exactly(node, path, "type", "object");
  exactly(node, path, "description", UNSIGNED_DESCRIPTION);
  const properties = claimsOf(node, path, 1, counter);
  exactly(node, path, "additionalProperties", false);
  return { type: "object", description: UNSIGNED_DESCRIPTION, properties, additionalProperties: false };
}

function claim(
  value: unknown,
  path: string,
  name: string,
  depth: number,
  counter: { claims: number },
): AdaptiveClaim {
  if (name === "" || name.length > ADAPTIVE_LIMITS.name) {
    throw badRequest(`${path}: a claim name has 1 to ${ADAPTIVE_LIMITS.name} characters`);
  }
  if (FORBIDDEN_NAMES.has(name)) throw badRequest(`${path}: "${name}" is not allowed as a claim name`);
  if (depth > ADAPTIVE_LIMITS.depth) {
    throw badRequest(`${path}: claims nest at most ${ADAPTIVE_LIMITS.depth} levels deep`);
  }
  counter.claims += 1;
  if (counter.claims > ADAPTIVE_LIMITS.claims) {
    throw badRequest(`${path}: a schema has at most ${ADAPTIVE_LIMITS.claims} claims`);
  }
  const node = object(value, path);
  const type = oneOf(node, path, CLAIM_TYPES);
  const description = descriptionOf(node, path);
  if (type === "array") {
    allowOnly(node, path, ["type", "description", "items"]);
    return { type, description, items: primitive(required(node, path, "items"), `${path}.items`) };
  }
  if (type === "object") {
    allowOnly(node, path, ["type", "description", "properties", "additionalProperties"]);
    const properties = claimsOf(node, path, depth + 1, counter);
    exactly(node, path, "additionalProperties", false);
    return { type, description, properties, additionalProperties: false };
  }
  return primitive(node, path);
}

function claimsOf(node: Json, path: string, depth: number, counter: { claims: number }) {
  const properties = object(required(node, path, "properties"), `${path}.properties`);
  const claims: Record<string, AdaptiveClaim> = {};
  for (const [name, value] of Object.entries(properties)) {
    claims[name] = claim(value, `${path}.properties${segment(name)}`, name, depth, counter);
  }
  return claims;
}

function primitive(value: unknown, path: string): AdaptivePrimitiveClaim {
  const node = object(value, path);
  const type = oneOf(node, path, PRIMITIVE_TYPES) as AdaptivePrimitiveClaim["type"];
  const description = descriptionOf(node, path);
  if (type !== "string") {
    allowOnly(node, path, ["type", "description"]);
    return { type, description };
  }
  allowOnly(node, path, ["type", "description", "enum"]);
  if (!Object.hasOwn(node, "enum")) return { type, description };
  const values = node["enum"];
  if (!Array.isArray(values) || values.length === 0 || values.length > ADAPTIVE_LIMITS.enumValues) {
    throw badRequest(`${path}.enum: must be an array of 1 to ${ADAPTIVE_LIMITS.enumValues} strings`);
  }
  values.forEach((entry: unknown, index) => {
    if (typeof entry !== "string" || entry.length > ADAPTIVE_LIMITS.enumValue) {
      throw badRequest(
        `${path}.enum[${index}]: must be a string of at most ${ADAPTIVE_LIMITS.enumValue} characters`,
      );
    }
  });
  return { type, description, enum: [...(values as string[])] };
}

function object(value: unknown, path: string): Json {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw badRequest(`${path}: must be an object`);
  }
  return value as Json;
}

function required(node: Json, path: string, key: string): unknown {
  if (!Object.hasOwn(node, key)) throw badRequest(`${path}${segment(key)}: required`);
  return node[key];
}

function exactly(node: Json, path: string, key: string, expected: string | boolean) {
  if (required(node, path, key) !== expected) {
    throw badRequest(`${path}${segment(key)}: must be ${JSON.stringify(expected)}`);
  }
}

function oneOf(node: Json, path: string, types: readonly string[]): string {
  const type = required(node, path, "type");
  if (typeof type !== "string" || !types.includes(type)) {
    throw badRequest(`${path}.type: must be one of ${types.join(", ")}`);
  }
  return type;
}

function descriptionOf(node: Json, path: string): string {
  const description = required(node, path, "description");
  if (typeof description !== "string" || description.length > ADAPTIVE_LIMITS.description) {
    throw badRequest(
      `${path}.description: must be a string of at most ${ADAPTIVE_LIMITS.description} characters`,
    );
  }
  return description;
}

function allowOnly(node: Json, path: string, keys: readonly string[]) {
  const extra = Object.keys(node).find((key) => !keys.includes(key));
  if (extra !== undefined) throw badRequest(`${path}${segment(extra)}: not allowed`);
}

/** A key in a path: `.name` when it reads as an identifier, `["odd name"]` otherwise. */
function segment(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
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
