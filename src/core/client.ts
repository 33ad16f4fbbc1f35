import type { z } from "zod";
import { invoke } from "./invoke.js";
import type { AnyOperation, Operation } from "./registry.js";
import type { Context } from "./shared/world.js";

/** The input of an in-process call: path and query parameters side by side, and `body`. */
export type ClientInput<O> =
  O extends Operation<string, infer P, infer Q, infer B, any>
    ? z.input<P> &
        z.input<Q> &
        ([B] extends [z.ZodUndefined]
          ? {}
          : undefined extends z.input<B>
            ? { body?: z.input<B> }
            : { body: z.input<B> })
    : never;

/** The result of an in-process call: the response body (`undefined` for no-content answers). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ClientOutput<O> = O extends Operation<string, any, any, any, infer R> ? z.output<R> : never;

/** A typed in-process client: one async method per operation of the registry. */
export type Client<Ops extends Record<string, AnyOperation>> = {
  [K in keyof Ops]: {} extends ClientInput<Ops[K]>
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
