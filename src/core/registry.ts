import { z } from "zod";
import type { Context } from "./shared/world.js";

/**
 * The operation registry's building block. Each operation of the API is declared exactly once
 * with `defineOperation`: the HTTP routes (`src/http`), the OpenAPI document and the typed
 * in-process client are all loops over these declarations (STYLE.md, rule 1).
 */

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

/** A zod object schema of any shape: path parameters and query strings are always objects. */
export type AnyObjectSchema = z.ZodObject<z.ZodRawShape>;
/** The schema of an operation without path parameters or query. */
export type EmptyObject = z.ZodObject<{}>;

/** A response other than "200 with this JSON body": a status, an optional body and headers. */
export class Reply<T = unknown> {
  constructor(
    readonly status: number,
    readonly body?: T,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {}
}

/**
 * The answer of a delete: 205 when something was deleted, 204 when nothing existed
 * (DESIGN.md, "Sources of truth").
 */
export const deleted = (existed: boolean) => new Reply<never>(existed ? 205 : 204);
/** 204 with no body. */
export const noContent = () => new Reply<never>(204);

/** The parsed input an implementation receives. */
export interface OperationInput<P extends AnyObjectSchema, Q extends AnyObjectSchema, B extends z.ZodType> {
  readonly params: z.output<P>;
  readonly query: z.output<Q>;
  readonly body: z.output<B>;
}

export interface Operation<
  Id extends string = string,
  P extends AnyObjectSchema = AnyObjectSchema,
  Q extends AnyObjectSchema = AnyObjectSchema,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  /** The reference `operationId`, or our own for extensions (DESIGN.md, "Extensions"). */
  readonly id: Id;
  readonly method: HttpMethod;
  /** Path under `/v1`, with `{name}` parameters as in OpenAPI. */
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  /**
   * The last path parameter, when it may span several segments: a page path such as
   * `guides/install` arrives both encoded (`guides%2Finstall`) and plain, as the official client
   * sends it.
   */
  readonly restParam?: string;
  /** `false` for the few operations reachable without a token. */
  readonly authenticated?: boolean;
  readonly params?: P;
  readonly query?: Q;
  /** Request body; omit for operations that take none (a body sent anyway is ignored). */
  readonly body?: B;
  /** Response body of the success status. Omit for operations that answer no content. */
  readonly response?: R;
  /** Success status when `run` returns a plain body: 200 unless stated. */
  readonly status?: 200 | 201;
  /** Statuses answered with no body, for the OpenAPI document (e.g. `[204, 205]` for deletes). */
  readonly emptyStatuses?: readonly number[];
  /** The implementation: a pure async function of the context and the validated input. */
  readonly run: (context: Context, input: OperationInput<P, Q, B>) => Promise<z.input<R> | Reply<z.input<R>>>;
}

/** Declares an operation; the identity function, there for type inference. */
export function defineOperation<
  const Id extends string,
  P extends AnyObjectSchema = EmptyObject,
  Q extends AnyObjectSchema = EmptyObject,
  B extends z.ZodType = z.ZodUndefined,
  R extends z.ZodType = z.ZodVoid,
>(operation: Operation<Id, P, Q, B, R>): Operation<Id, P, Q, B, R> {
  return operation;
}

/** Any registered operation, erased for generic loops (HTTP, OpenAPI, client). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation = Operation<string, any, any, any, any>;
