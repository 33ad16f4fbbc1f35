import fastJson from "fast-json-stringify";
import { z } from "zod";
import type { AnyOperation } from "../core/registry.js";

/** A function writing one operation's JSON answers. */
export type Serialize = (body: unknown) => string;

/**
 * A serializer compiled from an operation's response schema (fast-json-stringify), for
 * `docsbase serve`: `JSON.stringify` walks every answer generically, a compiled serializer writes
 * the keys it knows in a fixed order. Undefined when the operation declares no response.
 *
 * The answer must mean exactly what `JSON.stringify` of it means, whatever the body holds, since
 * nothing parses a body against its schema on the way out. So the schema is first made one that
 * cannot drop or change a value (`openSchema`): every object keeps the keys the schema does not
 * name, no key is required (an absent one is left out, as `JSON.stringify` leaves out
 * `undefined`), and only strings, booleans and nulls are written by type; numbers, unions,
 * references and anything else are written by `JSON.stringify`. Node only: the compiler builds its
 * code with `new Function`, which some runtimes refuse.
 */
export function compiledSerializer(operation: AnyOperation): Serialize | undefined {
  const response = operation.response as z.ZodType | undefined;
  if (!response) return undefined;
  // Compiled on the operation's first answer (compiling all of them would slow every start), once
  // per schema for all the instances of the process.
  let compiled: Serialize | undefined;
  return (body) => (compiled ??= compiledOnce(response))(body);
}

const compiledSchemas = new WeakMap<z.ZodType, Serialize>();

function compiledOnce(response: z.ZodType): Serialize {
  let found = compiledSchemas.get(response);
  if (!found) compiledSchemas.set(response, (found = compile(response)));
  return found;
}

/** The compiled serializer of `response`; `JSON.stringify` for a schema the compiler refuses. */
export function compile(response: z.ZodType): Serialize {
  try {
    // What `run` returns is the schema's input (defaults not applied, transforms not run).
    const schema = z.toJSONSchema(response, {
      io: "input",
      unrepresentable: "any",
      reused: "inline",
      cycles: "ref",
    });
    return fastJson(openSchema(schema) as unknown as Parameters<typeof fastJson>[0]) as Serialize;
  } catch {
    return JSON.stringify;
  }
}

type JsonSchema = { readonly [key: string]: unknown };

/** Any value, written by `JSON.stringify`. */
const ANY: JsonSchema = {};

/** Leaf types a compiled serializer writes exactly as `JSON.stringify` would, given that type. */
const EXACT_LEAVES = new Set(["string", "boolean", "null"]);

/**
 * `schema` as a description that a serializer cannot use to drop or coerce a value; see
 * {@link compiledSerializer}.
 */
export function openSchema(schema: JsonSchema): JsonSchema {
  const type = schema.type;
  if (type === "object") {
    const properties: Record<string, JsonSchema> = {};
    const declared = (schema.properties ?? {}) as Record<string, JsonSchema>;
    for (const name of Object.keys(declared)) properties[name] = openSchema(declared[name]!);
    // Keys the schema does not name are written too, each by JSON.stringify.
    return { type: "object", properties, additionalProperties: true };
  }
  if (type === "array" && schema.items && typeof schema.items === "object" && !Array.isArray(schema.items)) {
    return { type: "array", items: openSchema(schema.items as JsonSchema) };
  }
  if (typeof type === "string" && EXACT_LEAVES.has(type)) return { type };
  return ANY;
}
