import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { format, resolveConfig } from "prettier";
import { operations } from "../src/core/operations.js";
import type { AnyOperation } from "../src/core/registry.js";
import { openApiDocument } from "../src/http/openapi.js";

/**
 * Writes docs/client.md: every method of the typed in-process client (`docsbase.as(...)`, and
 * `test.as(...)` in tests), with its HTTP method and path, what it takes and what it returns. The
 * client's type is mapped from the registry, so TypeDoc cannot list its methods; this page is
 * derived from the same registry, through the OpenAPI document the handler serves (whose schemas
 * are the operations' own), and TypeDoc includes it as a project document. Run it after adding or
 * changing an operation:
 *
 *     npm run client-reference
 *
 * test/client-reference.test.ts regenerates the file in memory and fails when it differs.
 */

const root = join(import.meta.dirname, "..");

/** The generated file, relative to the repository. */
export const CLIENT_REFERENCE_FILE = "docs/client.md";

/** The command that rewrites it. */
export const CLIENT_REFERENCE_COMMAND = "npm run client-reference";

/** How deep types are spelled out; deeper objects show as `{…}` (the OpenAPI document has them whole). */
const DEPTH = 2;

/** Enums with more values than this show as their base type. */
const MAX_LITERALS = 8;

type JsonSchema = Readonly<Record<string, unknown>>;

interface Parameter {
  readonly name: string;
  readonly in: "path" | "query";
  readonly required: boolean;
  readonly schema: JsonSchema;
}

interface DocumentOperation {
  readonly parameters?: readonly Parameter[];
  readonly requestBody?: { required: boolean; content: { "application/json": { schema: JsonSchema } } };
  readonly responses: Record<string, { content?: { "application/json": { schema: JsonSchema } } }>;
}

/** One client method: its name and HTTP route, and its input and result as TypeScript types. */
export interface ClientMethod {
  readonly name: string;
  readonly tag: string;
  readonly summary: string;
  readonly method: string;
  readonly path: string;
  /** The input object's type; `undefined` when the method takes none. */
  readonly input: string | undefined;
  /** Whether the input may be left out (nothing in it is required). */
  readonly inputOptional: boolean;
  /** The success status and the resolved value's type (`undefined` for answers with no content). */
  readonly status: string;
  readonly output: string;
}

/**
 * Spells JSON Schemas as TypeScript types. An object the API names by its `object` field
 * (`"space"`, `"change-request"`) is spelled by that name (`Space`, `ChangeRequest`), as the
 * reference API names it, and kept in `named` to be spelled once in the page's "Objects" section.
 * Other objects deeper than {@link DEPTH} levels show as `{…}`.
 */
export class TypeSpeller {
  /** The named objects met so far: each variant's schema, by name. */
  readonly named = new Map<string, JsonSchema[]>();
  readonly #components: Readonly<Record<string, JsonSchema>>;

  constructor(components: Readonly<Record<string, JsonSchema>>) {
    this.#components = components;
  }

  /** `schema` as a type; a named object as its name unless `expand`, then its fields. */
  spell(schema: JsonSchema, level = 0, expand = false): string {
    const node = this.#resolve(schema);
    if ("const" in node) return JSON.stringify(node["const"]);
    const union = (node["anyOf"] ?? node["oneOf"]) as JsonSchema[] | undefined;
    if (union) return [...new Set(union.map((member) => this.spell(member, level, expand)))].join(" | ");
    if (Array.isArray(node["allOf"]))
      return (node["allOf"] as JsonSchema[]).map((member) => this.spell(member, level, expand)).join(" & ");
    if (Array.isArray(node["enum"])) {
      const values = node["enum"] as unknown[];
      if (values.length <= MAX_LITERALS) return values.map((value) => JSON.stringify(value)).join(" | ");
    }
    const type = node["type"];
    if (Array.isArray(type)) return type.map((one) => this.spell({ ...node, type: one }, level)).join(" | ");
    switch (type) {
      case "string":
        return "string";
      case "number":
      case "integer":
        return "number";
      case "boolean":
        return "boolean";
      case "null":
        return "null";
      case "array": {
        const items = node["items"] as JsonSchema | undefined;
        const item = items ? this.spell(items, level) : "unknown";
        return /[|&]/.test(item) && !item.startsWith("{") ? `(${item})[]` : `${item}[]`;
      }
      case "object":
        return this.#object(node, level, expand);
      default:
        return "unknown";
    }
  }

  #object(node: JsonSchema, level: number, expand: boolean): string {
    const properties = Object.entries((node["properties"] ?? {}) as Record<string, JsonSchema>);
    const name = nameOf(this.#resolve(properties.find(([key]) => key === "object")?.[1] ?? {}));
    if (name && !expand) {
      const variants = this.named.get(name) ?? [];
      const key = JSON.stringify(node);
      if (!variants.some((variant) => JSON.stringify(variant) === key))
        this.named.set(name, [...variants, node]);
      return name;
    }
    const extra = node["additionalProperties"];
    if (properties.length === 0)
      return extra && typeof extra === "object"
        ? `Record<string, ${this.spell(extra as JsonSchema, level)}>`
        : "{}";
    if (level >= DEPTH) return "{…}";
    const required = new Set((node["required"] ?? []) as string[]);
    const fields = properties.map(
      ([field, schema]) => `${field}${required.has(field) ? "" : "?"}: ${this.spell(schema, level + 1)}`,
    );
    return `{ ${fields.join("; ")} }`;
  }

  #resolve(schema: JsonSchema): JsonSchema {
    const ref = schema["$ref"];
    if (typeof ref !== "string") return schema;
    return this.#components[ref.replace("#/components/schemas/", "")] ?? {};
  }
}

/** `"change-request"` → `ChangeRequest`: the name of an object whose `object` field is a constant. */
function nameOf(field: JsonSchema): string | undefined {
  const value =
    "const" in field
      ? field["const"]
      : (field["enum"] as unknown[] | undefined)?.length === 1
        ? (field["enum"] as unknown[])[0]
        : undefined;
  if (typeof value !== "string") return undefined;
  return value
    .split(/[^A-Za-z0-9]+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");
}

/** The client's methods, in the registry's order, and the named objects they take and return. */
export interface ClientReference {
  readonly methods: readonly ClientMethod[];
  /** Each named object's variants (a resolved comment, an open one...) spelled out, by name. */
  readonly objects: ReadonlyMap<string, readonly string[]>;
}

/** The client reference of `registry`. */
export function clientReference(registry: Readonly<Record<string, AnyOperation>>): ClientReference {
  const document = openApiDocument(registry, { title: "docsbase", version: "0", serverUrl: "/v1" }) as {
    paths: Record<string, Record<string, DocumentOperation>>;
    components: { schemas: Record<string, JsonSchema> };
  };
  const types = new TypeSpeller(document.components.schemas);
  const methods = Object.values(registry).map((operation) => {
    const described = document.paths[operation.path]![operation.method]!;
    const parameters = described.parameters ?? [];
    const fields = parameters.map(
      (parameter) => `${parameter.name}${parameter.required ? "" : "?"}: ${types.spell(parameter.schema, 1)}`,
    );
    const body = described.requestBody;
    if (body)
      fields.push(`body${body.required ? "" : "?"}: ${types.spell(body.content["application/json"].schema)}`);
    const [status, response] = Object.entries(described.responses).find(([code]) => code !== "default")!;
    const schema = response.content?.["application/json"].schema;
    return {
      name: operation.id,
      tag: operation.tag,
      summary: operation.summary,
      method: operation.method.toUpperCase(),
      path: operation.path,
      input: fields.length ? `{ ${fields.join("; ")} }` : undefined,
      inputOptional: parameters.every((parameter) => !parameter.required) && !body?.required,
      status,
      output: schema ? types.spell(schema) : "undefined",
    };
  });
  // Spelling an object's fields may meet further named objects: go on until none is new.
  const objects = new Map<string, string[]>();
  for (
    let pending = [...types.named.keys()];
    pending.length;
    pending = [...types.named.keys()].filter((name) => !objects.has(name))
  )
    for (const name of pending)
      objects.set(
        name,
        types.named.get(name)!.map((variant) => types.spell(variant, 0, true)),
      );
  // Variants registered after their name was spelled.
  for (const [name, variants] of types.named)
    objects.set(name, [...new Set(variants.map((variant) => types.spell(variant, 0, true)))]);
  return { methods, objects: new Map([...objects].sort(([a], [b]) => a.localeCompare(b))) };
}

/** The text of docs/client.md, formatted as the repository's prettier formats it. */
export async function clientReferenceMarkdown({ methods, objects }: ClientReference): Promise<string> {
  const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();
  const tags = [...new Set(methods.map((method) => method.tag))].sort((a, b) => a.localeCompare(b));
  const lines = [
    "---",
    "title: Client methods",
    "---",
    "",
    "# Client methods",
    "",
    `<!-- Generated by \`${CLIENT_REFERENCE_COMMAND}\` from the registry. Do not edit. -->`,
    "",
    `\`docsbase.as({ token })\` (or \`{ userId }\`) returns a typed client with one async method per`,
    `operation of the API: **${methods.length}** methods, listed here by tag. A method takes one object`,
    "holding the path and query parameters side by side and, for operations with a request body,",
    "`body`; it validates it exactly as the HTTP handler does, and resolves with the response body",
    "(`undefined` for operations that answer no content) or rejects with the same `DocsbaseError`.",
    "`test.as(user)` of the test double returns the same client.",
    "",
    "```ts",
    'const space = await docsbase.as({ token }).createSpace({ organizationId: "org_1", body: { title: "Guides" } });',
    "```",
    "",
    "Types are written as TypeScript types. An object the API names by its `object` field",
    '(`"space"`, `"change-request"`) is written by that name (`Space`, `ChangeRequest`, as the reference',
    "API and `@gitbook/api` name it), and its fields are listed once, under [Objects](#objects). Other",
    "objects are spelled out two levels deep; `{…}` stands for a deeper one, which `GET /v1/openapi.json`",
    "describes in full. A `?` marks what may be left out. Paths are under `/v1`.",
  ];
  for (const tag of tags) {
    lines.push("", `## ${tag}`);
    for (const method of methods.filter((one) => one.tag === tag)) {
      const input = method.input ? `input${method.inputOptional ? "?" : ""}` : "";
      lines.push(
        "",
        `### ${method.name}`,
        "",
        `\`${method.method} ${method.path}\`: ${oneLine(method.summary)}`,
        "",
        `- Takes: ${method.input ? `\`${input}: ${method.input}\`` : "nothing"}`,
        `- Returns (${method.status}): \`${method.output}\``,
      );
    }
  }
  lines.push(
    "",
    "## Objects",
    "",
    "The objects named above, with their fields. An object with several forms lists each.",
  );
  for (const [name, variants] of objects) {
    lines.push("", `### ${name}`, "");
    for (const variant of variants) lines.push(`- \`${variant}\``);
  }
  lines.push("");
  const file = join(root, CLIENT_REFERENCE_FILE);
  return format(lines.join("\n"), { ...(await resolveConfig(file)), filepath: file });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(
    join(root, CLIENT_REFERENCE_FILE),
    await clientReferenceMarkdown(clientReference(operations)),
  );
  console.log(`wrote ${CLIENT_REFERENCE_FILE}`);
}
