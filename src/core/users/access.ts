import { memberKey, requireCaller } from "../permissions/membership.js";
import { defineAccess, type AccessRule } from "../permissions/rule.js";
import { forbidden, notFound } from "../shared/errors.js";
import type { Caller } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import { membersTable } from "../members/tables.js";
import { type UserRecord, usersTable } from "./tables.js";

/** What a user rule hands `run`: the caller and the user in the path. */
export interface UserAccess {
  readonly caller: Caller;
  readonly user: UserRecord;
}

/** The user in `params.userId`, answering 404 when there is none. */
async function requireUser(tx: ReadTransaction, params: Record<string, unknown>): Promise<UserRecord> {
  const id = String(params.userId);
  const user = await tx.get(usersTable, id);
  if (!user) throw notFound(`User "${id}" not found`);
  return user;
}

/**
 * The user in `params.userId`, visible to the caller: themself, someone who shares an
 * organization with them, anyone for the operator, and for a reader token a user its revision
 * mentions (checked by `requireReaderTokenAccess` before this rule runs). Others answer 404, as for
 * a user who does not exist.
 */
export const visibleUser: AccessRule<UserAccess> = defineAccess({
  summary: "the user in path.userId: yourself, or someone who shares an organization with you",
  authenticated: true,
  async resolve(tx, context, params) {
    const caller = requireCaller(context);
    const id = String(params.userId);
    const user = await tx.get(usersTable, id);
    const visible =
      user &&
      (caller.operator ||
        caller.userId === user.id ||
        // A reader token: `invoke` let it through only for a user its revision mentions.
        caller.scope !== undefined ||
        (await shareOrganization(tx, caller.userId, user.id)));
    if (!user || !visible) throw notFound(`User "${id}" not found`);
    return { caller, user };
  },
});

/**
 * The user in `params.userId` when the caller is that user or the operator. Anyone else gets the
 * 404 of a user who does not exist: a user's tokens are nobody else's business, not even whether
 * the user exists.
 */
export const themselfOrOperator: AccessRule<UserAccess> = defineAccess({
  summary: "the user in path.userId themself, or the operator",
  authenticated: true,
  async resolve(tx, context, params) {
    const caller = requireCaller(context);
    const id = String(params.userId);
    if (!caller.operator && caller.userId !== id) throw notFound(`User "${id}" not found`);
    return { caller, user: await requireUser(tx, params) };
  },
});

/**
 * The user in `params.userId`, for revoking one of their tokens: that user or the operator. A
 * caller who can see the user (`visibleUser`) but is neither gets 403, as a member without the
 * role does on every delete (docs/api.md, "Deletes"), whether or not the token exists; anyone
 * else gets the 404 of a user who does not exist.
 */
export const tokenRevoker: AccessRule<UserAccess> = defineAccess({
  summary:
    "the user in path.userId themself, or the operator (403 to a user who shares an organization with them)",
  authenticated: true,
  async resolve(tx, context, params) {
    const loaded = await visibleUser.resolve(tx, context, params);
    const { caller, user } = loaded;
    if (!caller.operator && caller.userId !== user.id) {
      throw forbidden("Revoking a token needs being its user or the operator");
    }
    return loaded;
  },
});

/** Whether two users are members (active or disabled) of one organization. */
async function shareOrganization(tx: ReadTransaction, a: string, b: string): Promise<boolean> {
  const memberships = await tx.list(membersTable, { index: "byUser", where: [a] });
  for (const { organization } of memberships) {
    if (await tx.get(membersTable, memberKey(organization, b))) return true;
  }
  return false;
}
