import { z } from "zod";
import { defineOperation } from "../registry.js";
import { memberKey, requireCaller } from "../shared/access.js";
import type { ReadTransaction } from "../storage/port.js";
import { conflict, forbidden, notFound } from "../shared/errors.js";
import { pathParam } from "../shared/schema.js";
import { tables, type MemberRecord, type UserRecord } from "../tables.js";
import { userSchema, toUser } from "./schemas.js";
import { newToken, storeToken } from "./tokens.js";

const tag = "users";

export const getAuthenticatedUser = defineOperation({
  id: "getAuthenticatedUser",
  method: "get",
  path: "/user",
  tag,
  summary: "Get the profile of the authenticated user",
  response: userSchema,
  async run(context) {
    const caller = requireCaller(context);
    const user = await context.storage.read((tx) => tx.get<UserRecord>(tables.users.name, caller.userId));
    if (!user) throw notFound("User not found");
    return toUser(context, user);
  },
});

export const getUserById = defineOperation({
  id: "getUserById",
  method: "get",
  path: "/users/{userId}",
  tag,
  summary: "Get a user: yourself, or someone who shares an organization with you",
  params: z.object({ userId: pathParam() }),
  response: userSchema,
  async run(context, { params }) {
    const caller = requireCaller(context);
    return context.storage.read(async (tx) => {
      const user = await tx.get<UserRecord>(tables.users.name, params.userId);
      const visible =
        user &&
        (caller.operator ||
          caller.userId === user.id ||
          (await shareOrganization(tx, caller.userId, user.id)));
      if (!user || !visible) throw notFound(`User "${params.userId}" not found`);
      return toUser(context, user);
    });
  },
});

export const createUser = defineOperation({
  id: "createUser",
  method: "post",
  path: "/users",
  tag,
  summary: "Create a user (operator only)",
  body: z.object({
    displayName: z.string().trim().min(1).max(100),
    email: z.email().max(320),
    photoURL: z.url().max(2048).optional(),
  }),
  response: userSchema,
  status: 201,
  async run(context, { body }) {
    if (!requireCaller(context).operator) throw forbidden("Only the operator can create users");
    return context.storage.write(async (tx) => {
      const emailKey = body.email.toLowerCase();
      const [existing] = await tx.list(tables.users.name, { index: "byEmail", where: [emailKey], limit: 1 });
      if (existing) throw conflict(`body.email: a user with email "${body.email}" already exists`);
      const user: UserRecord = {
        id: context.ids(),
        displayName: body.displayName,
        email: body.email,
        emailKey,
        ...(body.photoURL ? { photoURL: body.photoURL } : {}),
        kind: "user",
        createdAt: context.clock().toISOString(),
      };
      await tx.put(tables.users.name, user);
      return toUser(context, user);
    });
  },
});

export const createUserToken = defineOperation({
  id: "createUserToken",
  method: "post",
  path: "/users/{userId}/tokens",
  tag,
  summary: "Create an API token for a user (the operator, or that user). The token is shown once.",
  params: z.object({ userId: pathParam() }),
  response: z.object({ object: z.literal("api-token"), id: z.string(), token: z.string() }),
  status: 201,
  async run(context, { params }) {
    const caller = requireCaller(context);
    return context.storage.write(async (tx) => {
      const user = await tx.get<UserRecord>(tables.users.name, params.userId);
      if (!user) throw notFound(`User "${params.userId}" not found`);
      if (!caller.operator && caller.userId !== user.id) {
        throw forbidden("Only the operator or the user themself can create a token");
      }
      const token = newToken();
      const record = await storeToken(tx, context, user.id, token);
      return { object: "api-token" as const, id: record.id, token };
    });
  },
});

async function shareOrganization(tx: ReadTransaction, a: string, b: string): Promise<boolean> {
  const memberships = await tx.list<MemberRecord>(tables.members.name, { index: "byUser", where: [a] });
  for (const { organization } of memberships) {
    if (await tx.get(tables.members.name, memberKey(organization, b))) return true;
  }
  return false;
}

export const userOperations = { getAuthenticatedUser, getUserById, createUser, createUserToken };
