import type { WriteTransaction } from "../storage/port.js";
import { badRequest, conflict } from "../shared/errors.js";
import type { World } from "../shared/world.js";
import { tokensTable, usersTable } from "./tables.js";
import { hashToken, storeToken } from "./tokens.js";

/**
 * A token with a value given by its holder rather than drawn at random: 16 to 256 printable ASCII
 * characters without spaces, so that it fits an `Authorization` header as it is. Only the test
 * double stores such tokens (a fixture's `token`, which tests hard-code); no operation does, so
 * nothing over HTTP chooses a token's value.
 */
const GIVEN_TOKEN = /^[\x21-\x7e]{16,256}$/;

/** Why `token` cannot be a given token, or undefined when it can. */
export function givenTokenProblem(token: string): string | undefined {
  return GIVEN_TOKEN.test(token)
    ? undefined
    : "a token is 16 to 256 printable ASCII characters without spaces";
}

/**
 * Stores `token` as an API token of `user`, hashed like every token; idempotent for a token the
 * user already holds. Refuses a malformed token (`bad_request`), an unknown user (`bad_request`)
 * and a token another user holds (`conflict`).
 *
 * @example
 * ```ts
 * await storage.write((tx) => storeGivenToken(tx, world, "u-ada", "tok-ada-0123456789abcdef"));
 * ```
 */
export async function storeGivenToken(
  tx: WriteTransaction,
  world: Pick<World, "ids" | "clock">,
  user: string,
  token: string,
): Promise<void> {
  const problem = givenTokenProblem(token);
  if (problem) throw badRequest(problem);
  if (!(await tx.get(usersTable, user))) throw badRequest(`No user "${user}"`);
  const held = await tx.get(tokensTable, hashToken(token));
  if (held && held.user !== user) throw conflict("This token is another user's");
  await storeToken(tx, world, user, token);
}
