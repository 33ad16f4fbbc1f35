import { MENTIONED_USER_IN_PATH, readableWithReaderToken } from "../permissions/reader-token.js";
import * as z from "zod";
import { defineOperation } from "../registry.js";
import { httpUrl, pathParam } from "../shared/schema.js";
import { anyCaller, operatorOnly } from "../permissions/rules.js";
import { badRequest, conflict, forbidden, notFound } from "../shared/errors.js";
import { emailKeyOf, newUserRecord, type UserRecord, usersTable } from "./tables.js";
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
    const where = [emailKeyOf(body.email)];
    const [existing] = await tx.list(usersTable, { index: "byEmail", where, limit: 1 });
    if (existing) throw conflict(`body.email: a user with email "${body.email}" already exists`);
    const user = newUserRecord({ id: scope.ids(), ...body }, scope.clock().toISOString());
    await tx.put(usersTable, user);
    return presentUser(scope, user);
  },
});

/** The reference's longest `displayName` in an update (creation, an extension, allows more). */
const UPDATED_DISPLAY_NAME = 64;

export const updateUserById = defineOperation({
  id: "updateUserById",
  method: "patch",
  path: "/users/{userId}",
  tag,
  summary: "Update a user's name or photo: yourself, or anyone as the operator",
  params: z.object({ userId: pathParam() }),
  // Who sees the user (getUserById's rule) learns why they may not change it: 403, not 404.
  access: visibleUser,
  body: z.object({
    displayName: singleLine(UPDATED_DISPLAY_NAME).optional(),
    photoURL: httpUrl().optional(),
  }),
  response: userSchema,
  async run(scope, { body }) {
    const { tx, caller, user } = scope;
    if (!caller.operator && caller.userId !== user.id) {
      throw forbidden("Only the user themself or the operator can update a user");
    }
    if (body.displayName === undefined && body.photoURL === undefined) {
      throw badRequest("body: expected at least one of displayName, photoURL");
    }
    const updated: UserRecord = {
      ...user,
      ...(body.displayName !== undefined ? { displayName: body.displayName } : {}),
      ...(body.photoURL !== undefined ? { photoURL: body.photoURL } : {}),
    };
    await tx.put(usersTable, updated);
    return presentUser(scope, updated);
  },
});

export const userOperations = { getAuthenticatedUser, getUserById, createUser, updateUserById };
