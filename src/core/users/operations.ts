import { z } from "zod";
import { defineOperation } from "../registry.js";
import { anyCaller, operatorOnly } from "../permissions/rules.js";
import { conflict, notFound } from "../shared/errors.js";
import { pathParam } from "../shared/schema.js";
import { type UserRecord, usersTable } from "./tables.js";
import { userThemselfOrOperator, visibleUser } from "./access.js";
import { userSchema, toUser } from "./schemas.js";
import { newToken, storeToken } from "./tokens.js";

const tag = "users";

export const getAuthenticatedUser = defineOperation({
  id: "getAuthenticatedUser",
  method: "get",
  path: "/user",
  tag,
  summary: "Get the profile of the authenticated user",
  access: anyCaller,
  response: userSchema,
  async run(scope) {
    const user = await scope.tx.get(usersTable, scope.caller.userId);
    if (!user) throw notFound("User not found");
    return toUser(scope, user);
  },
});

export const getUserById = defineOperation({
  id: "getUserById",
  method: "get",
  path: "/users/{userId}",
  tag,
  summary: "Get a user: yourself, or someone who shares an organization with you",
  params: z.object({ userId: pathParam() }),
  access: visibleUser,
  response: userSchema,
  async run(scope) {
    return toUser(scope, scope.user);
  },
});

export const createUser = defineOperation({
  id: "createUser",
  method: "post",
  path: "/users",
  tag,
  summary: "Create a user (operator only)",
  access: operatorOnly("Only the operator can create users"),
  body: z.object({
    displayName: z.string().trim().min(1).max(100),
    email: z.email().max(320),
    photoURL: z.url().max(2048).optional(),
  }),
  response: userSchema,
  status: 201,
  async run(scope, { body }) {
    const { tx } = scope;
    const emailKey = body.email.toLowerCase();
    const [existing] = await tx.list(usersTable, { index: "byEmail", where: [emailKey], limit: 1 });
    if (existing) throw conflict(`body.email: a user with email "${body.email}" already exists`);
    const user: UserRecord = {
      id: scope.ids(),
      displayName: body.displayName,
      email: body.email,
      emailKey,
      ...(body.photoURL ? { photoURL: body.photoURL } : {}),
      kind: "user",
      createdAt: scope.clock().toISOString(),
    };
    await tx.put(usersTable, user);
    return toUser(scope, user);
  },
});

export const createUserToken = defineOperation({
  id: "createUserToken",
  method: "post",
  path: "/users/{userId}/tokens",
  tag,
  summary: "Create an API token for a user (the operator, or that user). The token is shown once.",
  params: z.object({ userId: pathParam() }),
  access: userThemselfOrOperator("Only the operator or the user themself can create a token"),
  response: z.object({ object: z.literal("api-token"), id: z.string(), token: z.string() }),
  status: 201,
  async run(scope) {
    const token = newToken();
    const record = await storeToken(scope.tx, scope, scope.user.id, token);
    return { object: "api-token" as const, id: record.id, token };
  },
});

export const userOperations = { getAuthenticatedUser, getUserById, createUser, createUserToken };
