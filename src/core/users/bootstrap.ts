import { usersTable } from "./tables.js";
import type { World } from "../shared/world.js";
import { newToken, storeToken } from "./tokens.js";

export interface BootstrapResult {
  /** The operator user's id. */
  readonly userId: string;
  /** A token created now and shown this once; absent when no new token was made. */
  readonly token?: string;
}

/**
 * Makes sure the operator exists (DESIGN.md, "Public surface"). With `token` (for example from
 * `DOCSBASE_ADMIN_TOKEN`) that token is registered for the operator, idempotently across restarts.
 * Without it, a token is generated only when the operator is created, i.e. on an empty database.
 */
export async function bootstrapOperator(world: World, token?: string): Promise<BootstrapResult> {
  return world.storage.write(async (tx) => {
    let [operator] = await tx.list(usersTable, {
      index: "byKind",
      where: ["operator"],
      limit: 1,
    });
    let created = false;
    if (!operator) {
      operator = {
        id: world.ids(),
        displayName: "Operator",
        email: "operator@docsbase.invalid",
        emailKey: "operator@docsbase.invalid",
        kind: "operator",
        createdAt: world.clock().toISOString(),
      };
      await tx.put(usersTable, operator);
      created = true;
    }
    if (token) {
      await storeToken(tx, world, operator.id, token);
      return { userId: operator.id };
    }
    if (!created) return { userId: operator.id };
    const fresh = newToken();
    await storeToken(tx, world, operator.id, fresh);
    return { userId: operator.id, token: fresh };
  });
}
