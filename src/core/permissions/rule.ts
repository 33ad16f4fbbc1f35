import type { Context } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";

/**
 * What an operation needs before it runs, declared with the operation (STYLE.md, rule 8): "no
 * token", "the caller", "admin of the organization in `params.organizationId`", "edit on the
 * space in `params.spaceId`"... One resolver per kind loads the object and the caller's role in the
 * operation's own transaction, refuses with the standard 404 or 403 before `run`, and hands `run`
 * what it loaded. `summary` feeds the OpenAPI document, so the document and the refusals cannot
 * drift apart.
 *
 * @typeParam Loaded - what `run` receives beside the context, e.g. `{ space, membership, role }`.
 * @typeParam Params - the validated path parameters the rule reads.
 */
export interface AccessRule<Loaded extends object = object, Params = Record<string, unknown>> {
  /** One line naming what the caller needs, e.g. `edit on the space in path.spaceId`. */
  readonly summary: string;
  /** `false` for the few operations reachable without a token. */
  readonly authenticated: boolean;
  /**
   * Set on the rules of the operations that a reader token may call (see `./reader-token.ts`);
   * every other operation refuses such a token with 403.
   */
  readonly readerToken?: ReaderTokenAccess;
  /**
   * Set on the rules of the operations that an integration token may call, for the integration
   * named by this path parameter (see `./integration-token.ts`); every other operation refuses
   * such a token with 403.
   */
  readonly integrationToken?: string;
  /**
   * Set on the rules of the operations that need no token yet hand one out (the published-content
   * lookups): the HTTP handler gives them the client's address, which the token records, and
   * counts them under the `publicWrites` rate limit.
   */
  readonly handsOutToken?: true;
  /**
   * Loads and refuses; throws the standard `DocsbaseError` (401, 403, 404). `query` is the
   * validated query, for the few rules that read one (`shareKey` of published reads).
   */
  resolve(
    tx: ReadTransaction,
    context: Context,
    params: Params,
    query?: Readonly<Record<string, unknown>>,
  ): Promise<Loaded>;
}

/**
 * What a reader token (the `apiToken` of a published-content lookup) may read through an
 * operation: either the space its path names in `space`, and, where the path has one, the revision
 * named in `revision`, each the one the token was issued for; or (`site`) the site whose lookup
 * issued the token, named by that path parameter.
 */
export type ReaderTokenAccess =
  | {
      /** The path parameter naming the space: `spaceId`. */
      readonly space: string;
      /** The path parameter naming a revision, where the operation's path has one: `revisionId`. */
      readonly revision: string;
    }
  | {
      /** The path parameter naming the site: `siteId`. */
      readonly site: string;
    }
  | {
      /** The path parameter naming a user the token's revision mentions: `userId`. */
      readonly user: string;
    };

/** Declares an access rule; the identity function, there for type inference. */
export function defineAccess<Loaded extends object, Params = Record<string, unknown>>(
  rule: AccessRule<Loaded, Params>,
): AccessRule<Loaded, Params> {
  return rule;
}
