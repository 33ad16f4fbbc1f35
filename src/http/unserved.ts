import { REFERENCE_OPERATIONS, type ReferenceOperation } from "./reference-operations.js";
import { RouteTable } from "./routes.js";
import { errorAnswer } from "./status.js";
import type { PlainAnswer } from "./plain.js";

/**
 * The operations of the reference document that a handler does not serve, matched by method and
 * path so that a client calling one hears why (501, naming it) instead of a bare 404. An operation
 * counts as served when the registry has its `operationId`; the reference's `{param}` segments
 * match one segment each. Consulted only for a request no route matched, and built on the first
 * such request, so served requests pay nothing for it.
 *
 * @example
 * const unserved = new UnservedOperations(new Set(["getAuthenticatedUser"]));
 * unserved.match("POST", "/v1/orgs/acme/ask"); // { operationId: "askInOrganization", ... }
 * unserved.match("GET", "/v1/user"); // undefined: served
 */
export class UnservedOperations {
  #table: RouteTable<ReferenceOperation> | undefined;

  /** `served`: the registry's operation ids; `reference`: the operations to match, by default the reference's. */
  constructor(
    private readonly served: ReadonlySet<string>,
    private readonly reference: readonly ReferenceOperation[] = REFERENCE_OPERATIONS,
  ) {}

  /** The unserved reference operation `method` (upper case) on `pathname` (`/v1/...`) is, if any. */
  match(method: string, pathname: string): ReferenceOperation | undefined {
    return (this.#table ??= this.#build()).match(method, pathname)?.value;
  }

  #build(): RouteTable<ReferenceOperation> {
    const table = new RouteTable<ReferenceOperation>();
    // The first added of several matching routes wins: literal segments before parameters, so that
    // `.../versions/latest` is not read as a version whose id is "latest".
    const unserved = this.reference
      .filter(({ operationId }) => !this.served.has(operationId))
      .sort((a, b) => specificity(a.path, b.path));
    // The reference's root is `/` under `/v1`; the table ignores trailing slashes.
    for (const operation of unserved)
      table.add(operation.method, `/v1${operation.path.replace(/\/$/, "")}`, operation);
    return table;
  }
}

/** The answer to a call of an operation docsbase does not serve. */
export function unservedAnswer(operation: ReferenceOperation): PlainAnswer {
  return errorAnswer(501, unservedMessage(operation));
}

/**
 * The message of that answer, the same in every error docsbase raises for it.
 *
 * @example
 * unservedMessage({ operationId: "askInOrganization", method: "post", path: "/orgs/{organizationId}/ask" });
 * // "docsbase does not implement askInOrganization (POST /orgs/{organizationId}/ask)"
 */
export function unservedMessage(operation: ReferenceOperation): string {
  return `docsbase does not implement ${operation.operationId} (${operation.method.toUpperCase()} ${operation.path})`;
}

/** Orders two path templates: at the first segment where one has a literal and the other a parameter, the literal first. */
function specificity(a: string, b: string): number {
  const left = a.split("/");
  const right = b.split("/");
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const literalLeft = !left[index]!.startsWith("{");
    const literalRight = !right[index]!.startsWith("{");
    if (literalLeft !== literalRight) return literalLeft ? -1 : 1;
  }
  return 0;
}
