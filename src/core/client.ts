import type { z } from "zod";
import { invoke } from "./invoke.js";
import type { AnyOperation } from "./registry.js";
import type { Context } from "./shared/world.js";

/** The input type of an object schema; no keys for an empty one (zod types it `Record<string, never>`). */
export type ObjectInput<S> =
  S extends z.ZodObject<infer Shape>
    ? keyof Shape extends never
      ? Record<never, never>
      : z.input<S>
    : Record<never, never>;

/** The input of an in-process call: path and query parameters side by side, and `body`. */
export type ClientInput<O extends AnyOperation> = ObjectInput<NonNullable<O["params"]>> &
  ObjectInput<NonNullable<O["query"]>> &
  BodyInput<NonNullable<O["body"]>>;

/** `body`, required unless its schema accepts `undefined`; absent for operations without one. */
export type BodyInput<B> = [B] extends [z.ZodUndefined]
  ? Record<never, never>
  : B extends z.ZodType
    ? undefined extends z.input<B>
      ? { body?: z.input<B> }
      : { body: z.input<B> }
    : Record<never, never>;

/** The result of an in-process call: the response body (`undefined` for no-content answers). */
export type ClientOutput<O extends AnyOperation> =
  NonNullable<O["response"]> extends z.ZodType ? z.output<NonNullable<O["response"]>> : undefined;

/**
 * A typed in-process client: one async method per operation of the registry. The methods, with
 * their routes, inputs and results, are listed in [Client methods](../../docs/client.md), which
 * `npm run client-reference` generates from the registry.
 */
export type Client<Ops extends Record<string, AnyOperation>> = {
  [K in keyof Ops]: Record<never, never> extends ClientInput<Ops[K]>
    ? (input?: ClientInput<Ops[K]>) => Promise<ClientOutput<Ops[K]>>
    : (input: ClientInput<Ops[K]>) => Promise<ClientOutput<Ops[K]>>;
};

/**
 * Builds a client whose methods validate their input exactly as HTTP does and throw the same
 * `DocsbaseError`s. `context` is resolved once per call (it carries the caller).
 */
export function createClient<Ops extends Record<string, AnyOperation>>(
  operations: Ops,
  context: () => Promise<Context>,
): Client<Ops> {
  const client: Record<string, (input?: Record<string, unknown>) => Promise<unknown>> = {};
  for (const [name, operation] of Object.entries(operations)) {
    const paramNames = new Set(Object.keys(operation.params?.shape ?? {}));
    client[name] = async (input = {}) => {
      const params: Record<string, unknown> = {};
      const query: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(input)) {
        if (key === "body") continue;
        (paramNames.has(key) ? params : query)[key] = value;
      }
      const outcome = await invoke(operation, await context(), { params, query, body: input.body });
      return outcome.body;
    };
  }
  return client as Client<Ops>;
}
