import * as z from "zod";
import { documentReaderTokenAccess } from "../core/permissions/reader-token.js";
import type { AnyOperation } from "../core/registry.js";
import { REFERENCE_OPERATIONS } from "./reference-operations.js";

/**
 * The OpenAPI 3.1 document of the registry, served at `GET /v1/openapi.json`. Every path, method,
 * parameter and schema comes from the operation declarations; nothing here is per operation. An
 * operation the reference document does not have (a docsbase extension, which the official client
 * cannot call) carries `x-docsbase-extension: true`.
 */
export function openApiDocument(
  operations: Readonly<Record<string, AnyOperation>>,
  info: { title: string; version: string; serverUrl: string },
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas = new SharedSchemas();
  const reference = new Set(REFERENCE_OPERATIONS.map((operation) => operation.operationId));
  const jsonSchema = (schema: z.ZodType, io: "input" | "output") => schemas.convert(schema, io);
  const parametersOf = (schema: z.ZodObject<z.ZodRawShape> | undefined, where: "path" | "query") =>
    Object.entries(schema?.shape ?? {}).map(([name, field]) => ({
      name,
      in: where,
      required: where === "path" || !(field as z.ZodType).safeParse(undefined).success,
      schema: jsonSchema(field as z.ZodType, "input"),
    }));
  for (const operation of Object.values(operations)) {
    const parameters = [...parametersOf(operation.params, "path"), ...parametersOf(operation.query, "query")];
    // Operations open to reader tokens say so, and which path parameters hold the token to its space.
    const readerToken =
      operation.access.readerToken && documentReaderTokenAccess(operation.access.readerToken, operation.path);
    const responses: Record<string, unknown> = {};
    if (operation.response) {
      responses[String(operation.status ?? 200)] = {
        description: "Success",
        content: { "application/json": { schema: jsonSchema(operation.response, "output") } },
      };
    }
    for (const status of operation.emptyStatuses ?? []) {
      responses[String(status)] = { description: status === 205 ? "Deleted" : "No content" };
    }
    responses["default"] = { $ref: "#/components/responses/Error" };
    (paths[operation.path] ??= {})[operation.method] = {
      operationId: operation.id,
      summary: operation.summary,
      description:
        `Access: ${operation.access.summary}.` + (readerToken ? ` Also ${readerToken.sentence}.` : ""),
      "x-docsbase-access": operation.access.summary,
      ...(readerToken ? { "x-docsbase-reader-token": readerToken.params } : {}),
      // Operations open to integration tokens name the path parameter holding the integration.
      ...(operation.access.integrationToken
        ? { "x-docsbase-integration-token": { integration: operation.access.integrationToken } }
        : {}),
      ...(reference.has(operation.id) ? {} : { "x-docsbase-extension": true }),
      tags: [operation.tag],
      ...(operation.access.authenticated ? {} : { security: [] }),
      ...(parameters.length ? { parameters } : {}),
      ...(operation.body
        ? {
            requestBody: {
              required: !operation.body.safeParse(undefined).success,
              content: { "application/json": { schema: jsonSchema(operation.body, "input") } },
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: info.title, version: info.version },
    servers: [{ url: info.serverUrl }],
    security: [{ bearer: [] }],
    paths,
    components: {
      schemas: schemas.components,
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      responses: {
        Error: {
          description: "Error",
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["error"],
                properties: {
                  error: {
                    type: "object",
                    required: ["code", "message"],
                    properties: { code: { type: "integer" }, message: { type: "string" } },
                  },
                },
              },
            },
          },
        },
      },
    },
  };
}

/**
 * Converts zod schemas to JSON Schema for the document. zod puts the definitions a schema needs
 * (recursive ones, such as a page's child pages) in a local `$defs` with `#/$defs/...` references;
 * inlined into the document those would resolve against its root, so each definition moves to
 * `components.schemas` (one entry per distinct definition) and its references follow it.
 */
class SharedSchemas {
  readonly components: Record<string, unknown> = {};
  readonly #names = new Map<string, string>();

  convert(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
    const {
      $schema: _,
      $defs,
      ...rest
    } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<string, unknown>;
    const renamed = new Map<string, string>();
    const definitions = Object.entries(($defs ?? {}) as Record<string, unknown>);
    // Names first, so that definitions referring to each other are rewritten consistently.
    for (const [local, definition] of definitions)
      renamed.set(local, this.#nameFor(JSON.stringify(definition)));
    const rewrite = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(rewrite);
      if (!node || typeof node !== "object") return node;
      const copy: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(node)) {
        const target =
          key === "$ref" && typeof value === "string" ? /^#\/\$defs\/(.+)$/.exec(value)?.[1] : undefined;
        copy[key] =
          target && renamed.has(target) ? `#/components/schemas/${renamed.get(target)}` : rewrite(value);
      }
      return copy;
    };
    for (const [local, definition] of definitions) this.components[renamed.get(local)!] = rewrite(definition);
    return rewrite(rest) as Record<string, unknown>;
  }

  #nameFor(key: string): string {
    let name = this.#names.get(key);
    if (!name) {
      name = `Schema${this.#names.size + 1}`;
      this.#names.set(key, name);
    }
    return name;
  }
}
