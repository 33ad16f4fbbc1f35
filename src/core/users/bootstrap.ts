import { newUserRecord, tokensTable, usersTable, type UserRecord } from "./tables.js";
import type { World } from "../shared/world.js";
import type { WriteTransaction } from "../storage/port.js";
import { hashToken, newToken, storeToken } from "./tokens.js";
import { badRequest } from "../shared/errors.js";

export interface BootstrapResult {
  /** The operator user's id. */
  readonly userId: string;
  /** A token created now and shown this once; absent when no new token was made. */
  readonly token?: string;
}

/** The label of the token `bootstrap` registers, as token lists show it. */
export const BOOTSTRAP_TOKEN_LABEL = "Operator token (bootstrap)";

/**
 * The shortest operator token `bootstrap` accepts, as `docsbase serve` requires of
 * `DOCSBASE_ADMIN_TOKEN`: the operator token opens every user's data, so it must not be guessable.
 */
export const MIN_OPERATOR_TOKEN_LENGTH = 16;

/**
 * Makes sure the operator exists: the one user who creates users and their tokens. With `token` (for example from
 * `DOCSBASE_ADMIN_TOKEN`) that token becomes the operator's bootstrap token, idempotently across
 * restarts, and a previous bootstrap token (another `DOCSBASE_ADMIN_TOKEN`, or the one printed on
 * the first start) is revoked: the operator token follows the environment. Without it, a token is
 * generated only when the operator is created, i.e. on an empty database, and nothing is revoked.
 * A `token` that is not a string of {@link MIN_OPERATOR_TOKEN_LENGTH} characters or more is
 * refused (a `bad_request` `DocsbaseError` naming `token`) before anything is stored.
 *
 * @example
 * ```ts
 * await docsbase.bootstrap({ token: "dbt_first_operator_token" });
 * await docsbase.bootstrap({ token: "dbt_second_operator_token" }); // the first one now answers 401
 * ```
 */
export async function bootstrapOperator(world: World, token?: string): Promise<BootstrapResult> {
  checkOperatorToken(token);
  const hash = token === undefined ? undefined : hashToken(token);
  return world.storage.write(async (tx) => {
    let [operator] = await tx.list(usersTable, {
      index: "byKind",
      where: ["operator"],
      limit: 1,
    });
    let created = false;
    if (!operator) {
      operator = newUserRecord(
        { id: world.ids(), displayName: "Operator", email: "operator@docsbase.invalid", kind: "operator" },
        world.clock().toISOString(),
      );
      await tx.put(usersTable, operator);
      created = true;
    }
    if (hash !== undefined) {
      await replaceBootstrapToken(tx, world, operator, hash);
      return { userId: operator.id };
    }
    if (!created) return { userId: operator.id };
    const fresh = newToken();
    await storeToken(tx, world, operator.id, fresh, { bootstrap: true, label: BOOTSTRAP_TOKEN_LABEL });
    return { userId: operator.id, token: fresh };
  });
}

/** Refuses, as the CLI does, an operator token a caller could guess or that is not text. */
function checkOperatorToken(token: unknown): asserts token is string | undefined {
  if (token === undefined) return;
  if (typeof token !== "string") {
    throw badRequest(`token: must be a string or left out, got ${token === null ? "null" : typeof token}`);
  }
  if (token.length < MIN_OPERATOR_TOKEN_LENGTH) {
    throw badRequest(
      `token: the operator token must be at least ${MIN_OPERATOR_TOKEN_LENGTH} characters long, got ${token.length}`,
    );
  }
}

/**
 * Makes the token of `hash` the operator's only bootstrap token. A token of the operator's that
 * carries no mark (stored by docsbase 0.1.0, which registered `DOCSBASE_ADMIN_TOKEN` unmarked) is
 * marked when it is the one given, so the next change of the variable revokes it.
 */
async function replaceBootstrapToken(tx: WriteTransaction, world: World, operator: UserRecord, hash: string) {
  const existing = await tx.get(tokensTable, hash);
  if (existing && existing.user !== operator.id) {
    // Taking it over would make whoever holds that user's token the operator.
    throw new Error("The operator token given to bootstrap is already another user's token");
  }
  for (const token of await tx.list(tokensTable, { index: "byUser", where: [operator.id] })) {
    if (token.bootstrap && token.hash !== hash) await tx.delete(tokensTable, token.hash);
  }
  if (existing) {
    if (existing.bootstrap && existing.expiresAt === undefined) return;
    // The operator's bootstrap token does not expire, whatever the record it reuses said.
    const { expiresAt: _expiresAt, ...kept } = existing;
    await tx.put(tokensTable, { label: BOOTSTRAP_TOKEN_LABEL, ...kept, bootstrap: true });
    return;
  }
  await tx.put(tokensTable, {
    hash,
    id: world.ids(),
    user: operator.id,
    createdAt: world.clock().toISOString(),
    label: BOOTSTRAP_TOKEN_LABEL,
    bootstrap: true,
  });
}
