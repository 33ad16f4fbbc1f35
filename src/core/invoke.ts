import { z } from "zod";
import { Reply, type AnyOperation } from "./registry.js";
import { badRequest, unauthorized } from "./shared/errors.js";
import { describeIssues } from "./shared/schema.js";
import type { Context } from "./shared/world.js";

/** Unvalidated input, as it arrives from HTTP or from the in-process client. */
export interface RawInput {
  readonly params: Record<string, unknown>;
  readonly query: Record<string, unknown>;
  readonly body: unknown;
}

/** What an operation answered, before it is rendered as HTTP or returned in process. */
export interface Outcome {
  readonly status: number;
  readonly body?: unknown;
  readonly headers: Readonly<Record<string, string>>;
}

const EMPTY = z.object({});

/**
 * Validates raw input against an operation's schemas and runs it. HTTP and the in-process client
 * both come through here, so they accept and refuse exactly the same input.
 */
export async function invoke(operation: AnyOperation, context: Context, raw: RawInput): Promise<Outcome> {
  if (operation.authenticated !== false && !context.caller) throw unauthorized();
  const params = parse("path", operation.params ?? EMPTY, raw.params);
  const query = parse("query", operation.query ?? EMPTY, raw.query);
  const body = operation.body ? parse("body", operation.body, raw.body) : undefined;
  const result = await operation.run(context, { params, query, body });
  if (result instanceof Reply) return { status: result.status, body: result.body, headers: result.headers };
  return { status: operation.status ?? 200, body: result, headers: {} };
}

function parse(where: string, schema: z.ZodType, value: unknown): unknown {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw badRequest(describeIssues(where, parsed.error));
  return parsed.data;
}
