import type * as z from "zod";
import type { AccessRule } from "./permissions/rule.js";
import type { Context } from "./shared/world.js";
import type { ReadTransaction, WriteTransaction } from "./storage/port.js";

/**
 * The operation registry's building block. Each operation of the API is declared exactly once
 * with `defineOperation`: the HTTP routes (`src/http`), the OpenAPI document and the typed
 * in-process client are all loops over these declarations (STYLE.md, rule 1).
 */

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

/** A zod object schema of any shape: path parameters and query strings are always objects. */
export type AnyObjectSchema = z.ZodObject<z.ZodRawShape>;
/** The schema of an operation without path parameters or query. */
// zod spells the shape of an object without keys `{}`.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
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
 * (the reference's convention for deletes).
 */
export const deleted = (existed: boolean) => new Reply<never>(existed ? 205 : 204);
/**
 * 201 with `body` and a `Location` header: the API URL of what was created, the path template
 * `path` (as operations declare theirs) filled from `params`. For created objects whose body
 * carries no `urls.location` (from which the handler sets `Location` itself).
 *
 * @example
 * ```ts
 * return created(scope, token, "/users/{userId}/tokens/{tokenId}", { userId, tokenId: token.id });
 * ```
 */
export function created<T>(
  world: { readonly baseUrl: string },
  body: T,
  path: string,
  params: Readonly<Record<string, unknown>>,
): Reply<T> {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])));
  return new Reply(201, body, { location: `${world.baseUrl}/v1${filled}` });
}

/** 204 with no body. */
export const noContent = () => new Reply<never>(204);

/**
 * What `run` returns when the rest of its work must wait until its transaction has ended: network
 * I/O, which a transaction body must not await (IndexedDB commits a transaction left idle; see
 * `Storage`). `invoke` calls `finish` once the transaction is over, and answers what it returns.
 * The access rule has already been checked; `finish` touches no storage, but for a rare write of
 * its own in a transaction it opens (the published lookup's first signing key).
 *
 * @example
 * ```ts
 * async run(scope, { query }) {
 *   return afterTransaction(() => embedOf(scope.fetch, query.url));
 * }
 * ```
 */
export class AfterTransaction<T = unknown> {
  constructor(readonly finish: () => Promise<T | Reply<T>>) {}
}

export const afterTransaction = <T>(finish: () => Promise<T | Reply<T>>) => new AfterTransaction(finish);

/** The parsed input an implementation receives. */
export interface OperationInput<P extends AnyObjectSchema, Q extends AnyObjectSchema, B extends z.ZodType> {
  readonly params: z.output<P>;
  readonly query: z.output<Q>;
  readonly body: z.output<B>;
}

/**
 * The transaction `run` executes in: one storage transaction that the access rule also resolved
 * in, handed to `run` as `tx`. `read` by default for GET, `write` for the other methods.
 */
export type TransactionMode = "read" | "write";

/** The transaction `run` receives for a mode. */
export type TransactionOf<T extends TransactionMode> = T extends "write" ? WriteTransaction : ReadTransaction;

/** What `run` receives: the context, the transaction, and what the access rule loaded. */
export type Scope<L extends object, T extends TransactionMode> = Context &
  L & { readonly tx: TransactionOf<T> };

export interface Operation<
  Id extends string = string,
  P extends AnyObjectSchema = AnyObjectSchema,
  Q extends AnyObjectSchema = AnyObjectSchema,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  L extends object = object,
  T extends TransactionMode = TransactionMode,
> {
  /** The reference `operationId`, or our own for extensions (operations the reference lacks). */
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
  /**
   * What the caller needs (see `src/core/permissions`): resolved before `run`, in its
   * transaction; `run` receives what it loaded. Also named in the OpenAPI document.
   */
  readonly access: AccessRule<L, z.output<P>>;
  /** Where `run` executes; see {@link TransactionMode}. */
  readonly transaction: T;
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
  /**
   * The implementation: a pure async function of its scope (context, transaction, what the access
   * rule loaded) and the validated input.
   */
  readonly run: (
    scope: Scope<L, T>,
    input: OperationInput<P, Q, B>,
  ) => Promise<z.input<R> | Reply<z.input<R>> | AfterTransaction<z.input<R>>>;
}

/** An operation as declared: `transaction` defaults by method (GET reads, the others write). */
export type OperationDeclaration<
  Id extends string,
  M extends HttpMethod,
  P extends AnyObjectSchema,
  Q extends AnyObjectSchema,
  B extends z.ZodType,
  R extends z.ZodType,
  L extends object,
  T extends TransactionMode,
> = Omit<Operation<Id, P, Q, B, R, L, T>, "transaction" | "method"> & {
  readonly method: M;
  readonly transaction?: T;
};

/**
 * Declares an operation. The transaction mode defaults to `read` for GET and `write` otherwise.
 *
 * @example
 * ```ts
 * export const getNote = defineOperation({
 *   id: "getNote",
 *   method: "get",
 *   path: "/spaces/{spaceId}/notes/{noteId}",
 *   tag: "notes",
 *   summary: "Get a note",
 *   access: onSpace("view"),
 *   params: z.object({ spaceId: pathParam(), noteId: pathParam() }),
 *   response: noteSchema,
 *   async run({ tx, space }, { params }) {
 *     return present(await tx.get(notesTable, params.noteId));
 *   },
 * });
 * ```
 */
export function defineOperation<
  const Id extends string,
  const M extends HttpMethod,
  P extends AnyObjectSchema = EmptyObject,
  Q extends AnyObjectSchema = EmptyObject,
  B extends z.ZodType = z.ZodUndefined,
  R extends z.ZodType = z.ZodVoid,
  L extends object = object,
  const T extends TransactionMode = M extends "get" ? "read" : "write",
>(operation: OperationDeclaration<Id, M, P, Q, B, R, L, T>): Operation<Id, P, Q, B, R, L, T> {
  // T's default is the same rule, spelled for the compiler.
  const transaction = (operation.transaction ?? (operation.method === "get" ? "read" : "write")) as T;
  return { ...operation, transaction };
}

/** Any registered operation, erased for generic loops (HTTP, OpenAPI, client). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation = Operation<string, any, any, any, any, any, any>;

/**
 * Operations keyed by their literal ids: `keyed([a, b])` is `{ [a.id]: a, [b.id]: b }` for the
 * compiler too, so families built by a function keep their ids in `Client<Operations>`.
 */
export function keyed<const Ops extends readonly AnyOperation[]>(
  operations: Ops,
): { [O in Ops[number] as O["id"]]: O } {
  return Object.fromEntries(operations.map((operation) => [operation.id, operation])) as {
    [O in Ops[number] as O["id"]]: O;
  };
}
