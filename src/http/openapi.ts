import { z } from "zod";
import type { AnyOperation } from "../core/registry.js";

/**
 * The OpenAPI 3.1 document of the registry, served at `GET /v1/openapi.json`. Every path, method,
 * parameter and schema comes from the operation declarations; nothing here is per operation.
 */
export function openApiDocument(
  operations: Readonly<Record<string, AnyOperation>>,
  info: { title: string; version: string; serverUrl: string },
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of Object.values(operations)) {
    const parameters = [...parametersOf(operation.params, "path"), ...parametersOf(operation.query, "query")];
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
      tags: [operation.tag],
      ...(operation.authenticated === false ? { security: [] } : {}),
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

function jsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  return rest;
}

function parametersOf(schema: z.ZodObject<z.ZodRawShape> | undefined, where: "path" | "query") {
  if (!schema) return [];
  return Object.entries(schema.shape).map(([name, field]) => ({
    name,
    in: where,
    required: where === "path" || !(field as z.ZodType).safeParse(undefined).success,
    schema: jsonSchema(field as z.ZodType, "input"),
  }));
}
