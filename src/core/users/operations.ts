import { MENTIONED_USER_IN_PATH, readableWithReaderToken } from "../permissions/reader-token.js";
import * as z from "zod";
import { defineOperation } from "../registry.js";
import { httpUrl, pathParam } from "../shared/schema.js";
import { anyCaller, operatorOnly } from "../permissions/rules.js";
import { conflict, notFound } from "../shared/errors.js";
import { type UserRecord, usersTable } from "./tables.js";
import { visibleUser } from "./access.js";
import { presentUser } from "./present.js";
import { singleLine, USER_LIMITS, userSchema } from "./schemas.js";

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
    return presentUser(scope, user);
  },
});

export const getUserById = defineOperation({
  id: "getUserById",
  method: "get",
  path: "/users/{userId}",
  tag,
  summary: "Get a user: yourself, or someone who shares an organization with you",
  params: z.object({ userId: pathParam() }),
  access: readableWithReaderToken(visibleUser, MENTIONED_USER_IN_PATH),
  response: userSchema,
  async run(scope) {
    const user = presentUser(scope, scope.user);
    if (!scope.caller.scope) return user;
    // A mention shows a name and a photo; the address stays with those who share an organization.
    const { email: _email, ...shown } = user;
    return shown;
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
    displayName: singleLine(USER_LIMITS.displayName),
    email: z.email().max(USER_LIMITS.email),
    photoURL: httpUrl().optional(),
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
    return presentUser(scope, user);
  },
});

export const userOperations = { getAuthenticatedUser, getUserById, createUser };
