import * as z from "zod";
import { AfterTransaction, Reply, type AnyOperation } from "./registry.js";
import { requireInstalled } from "./permissions/installation.js";
import { requireIntegrationTokenAccess } from "./permissions/integration-token.js";
import { requireReaderTokenAccess } from "./permissions/reader-token.js";
import { badRequest, unauthorized } from "./shared/errors.js";
import type { InvokeObserver, ObservedCall } from "./shared/observe.js";
import { MAX_BODY_DEPTH, nestingPastLimit } from "./shared/nesting.js";
import { describeIssues } from "./shared/schema.js";
import type { Context } from "./shared/world.js";

/** Unvalidated input, as it arrives from HTTP or from the in-process client. */
export interface RawInput {
  readonly params: Record<string, unknown>;
  readonly query: Record<string, unknown>;
  readonly body: unknown;
  /** The request, when the call came over HTTP (for an observer to tell its calls apart). */
  readonly http?: { request(): Request } | undefined;
}

/** What an operation answered, before it is rendered as HTTP or returned in process. */
export interface Outcome {
  readonly status: number;
  readonly body?: unknown;
  readonly headers: Readonly<Record<string, string>>;
}

const EMPTY = z.object({});

/**
 * Validates raw input against an operation's schemas, resolves its access rule and runs it. HTTP
 * and the in-process client both come through here, so they accept and refuse exactly the same
 * input. The rule resolves in the operation's own transaction, so `run` works on exactly what was
 * checked.
 */
export async function invoke(operation: AnyOperation, context: Context, raw: RawInput): Promise<Outcome> {
  const observer = context.observe;
  if (!observer) return run(operation, context, raw);
  const call: ObservedCall = {
    operationId: operation.id,
    method: operation.method,
    path: operation.path,
    userId: context.caller?.userId,
    raw,
  };
  let outcome: Outcome;
  try {
    outcome = await run(operation, context, raw, observer, call);
  } catch (error) {
    await observer.ended(call, { error });
    throw error;
  }
  await observer.ended(call, { answer: outcome });
  return outcome;
}

async function run(
  operation: AnyOperation,
  context: Context,
  raw: RawInput,
  observer?: InvokeObserver,
  call?: ObservedCall,
): Promise<Outcome> {
  if (operation.access.authenticated && !context.caller) throw unauthorized();
  const params = parse("path", operation.params ?? EMPTY, raw.params);
  // A reader token reaches only the operations whose rule says so (permissions/reader-token.ts).
  if (context.caller?.scope)
    await requireReaderTokenAccess(operation.access, context.caller.scope, params, context);
  // So does an integration token (permissions/integration-token.ts).
  if (context.caller?.integration !== undefined) {
    requireIntegrationTokenAccess(operation.access, context.caller.integration, params);
  }
  const query = parse("query", operation.query ?? EMPTY, raw.query);
  const body = operation.body ? parse("body", operation.body, bounded(raw.body)) : undefined;
  const input = { params, query, body };
  if (observer && call) {
    call.input = input;
    const answer = await observer.admitted(call);
    if (answer) return answer;
  }
  const transaction = operation.transaction === "write" ? context.storage.write : context.storage.read;
  const installation = context.caller?.installation;
  let result: unknown = await transaction.call(context.storage, async (tx) => {
    // An installation token is revoked with its installation (permissions/installation.ts).
    if (installation) await requireInstalled(tx, installation);
    return operation.run(
      // Not an object spread: on Node 20, a spread followed by more properties costs microseconds
      // per call (docs/performance.md, "The request path (issue 29)").
      Object.assign(
        {},
        context,
        await operation.access.resolve(tx, context, params, query as Record<string, unknown>),
        { tx },
      ),
      input,
    );
  });
  if (result instanceof AfterTransaction) result = await result.finish();
  if (result instanceof Reply) return { status: result.status, body: result.body, headers: result.headers };
  return { status: operation.status ?? 200, body: result, headers: {} };
}

/**
 * Refuses a body nested deeper than `MAX_BODY_DEPTH`, before any schema walks it: schemas, copies
 * and storage adapters recurse into free-form values, which only this bound keeps shallow.
 */
function bounded(body: unknown): unknown {
  const path = nestingPastLimit(body, MAX_BODY_DEPTH);
  if (path !== undefined) {
    throw badRequest(`body.${path}: Nested deeper than ${MAX_BODY_DEPTH} levels of objects and arrays`);
  }
  return body;
}

function parse(where: string, schema: z.ZodType, value: unknown): unknown {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw badRequest(describeIssues(where, parsed.error));
  return parsed.data;
}
