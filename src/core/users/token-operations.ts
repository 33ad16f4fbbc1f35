import * as z from "zod";
import { created, deleted, defineOperation } from "../registry.js";
import { badRequest, conflict } from "../shared/errors.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import { pathParam } from "../shared/schema.js";
import { themselfOrOperator, tokenRevoker } from "./access.js";
import { presentApiToken } from "./present.js";
import { apiTokenSchema, createTokenBody, USER_LIMITS } from "./schemas.js";
import { tokensTable } from "./tables.js";
import { newToken, storeToken } from "./tokens.js";

/**
 * A user's API tokens: created (shown once), listed without their secret, revoked. Only that user
 * and the operator reach them; anyone else gets 404 (see `themselfOrOperator`), except that a user
 * who shares an organization with them gets 403 on a revocation (see `tokenRevoker`).
 */

const tag = "users";
const userParams = z.object({ userId: pathParam() });

/** Most tokens one user may hold, expired ones included until they are revoked. */
export const MAX_TOKENS_PER_USER = 100;

export const createUserToken = defineOperation({
  id: "createUserToken",
  method: "post",
  path: "/users/{userId}/tokens",
  tag,
  summary:
    "Create an API token for a user (the operator, or that user), optionally labelled and expiring. " +
    "The token is shown once.",
  params: userParams,
  access: themselfOrOperator,
  body: createTokenBody,
  response: apiTokenSchema.extend({ token: z.string() }),
  status: 201,
  async run(scope, { body }) {
    const { tx, user } = scope;
    const held = await tx.count(tokensTable, { index: "byUser", where: [user.id] });
    if (held >= MAX_TOKENS_PER_USER) {
      throw conflict(`A user holds at most ${MAX_TOKENS_PER_USER} tokens: revoke one first`);
    }
    const expiresAt = expiryOf(scope.clock(), body);
    const token = newToken();
    const record = await storeToken(tx, scope, user.id, token, {
      ...(expiresAt ? { expiresAt } : {}),
      ...(body?.label ? { label: body.label } : {}),
    });
    return created(scope, { ...presentApiToken(record), token }, "/users/{userId}/tokens/{tokenId}", {
      userId: user.id,
      tokenId: record.id,
    });
  },
});

export const listUserTokens = defineOperation({
  id: "listUserTokens",
  method: "get",
  path: "/users/{userId}/tokens",
  tag,
  summary: "List a user's API tokens, oldest first (the operator, or that user); never the token itself",
  params: userParams,
  query: z.object(pageQuery),
  access: themselfOrOperator,
  response: listOf(apiTokenSchema),
  async run({ tx, user }, { query }) {
    return paginate(tx, query, {
      table: tokensTable,
      index: "byUser",
      where: [user.id],
      map: presentApiToken,
    });
  },
});

export const deleteUserToken = defineOperation({
  id: "deleteUserToken",
  method: "delete",
  path: "/users/{userId}/tokens/{tokenId}",
  tag,
  summary:
    "Revoke one of a user's API tokens (the operator, or that user); it fails from the next request on",
  params: userParams.extend({ tokenId: pathParam() }),
  access: tokenRevoker,
  emptyStatuses: [204, 205],
  async run({ tx, user }, { params }) {
    const [token] = await tx.list(tokensTable, { index: "byId", where: [params.tokenId], limit: 1 });
    if (!token || token.user !== user.id) return deleted(false);
    await tx.delete(tokensTable, token.hash);
    return deleted(true);
  },
});

/** The expiry a creation asks for, as an ISO date-time, within the lifetime bounds. */
function expiryOf(now: Date, body: z.output<typeof createTokenBody>): string | undefined {
  if (body?.expiresIn !== undefined) return new Date(now.getTime() + body.expiresIn * 1000).toISOString();
  if (body?.expiresAt === undefined) return undefined;
  const lifetime = (Date.parse(body.expiresAt) - now.getTime()) / 1000;
  if (lifetime < USER_LIMITS.minTokenLifetime || lifetime > USER_LIMITS.maxTokenLifetime) {
    throw badRequest(
      `body.expiresAt: must be from ${USER_LIMITS.minTokenLifetime} seconds to ` +
        `${USER_LIMITS.maxTokenLifetime / 86_400} days from now`,
    );
  }
  return new Date(body.expiresAt).toISOString();
}

export const tokenOperations = { createUserToken, listUserTokens, deleteUserToken };
