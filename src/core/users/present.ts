import { isHttpUrl } from "../shared/schema.js";
import type { World } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import type { ApiToken, User } from "./schemas.js";
import { type TokenRecord, type UserRecord, usersTable } from "./tables.js";

export function presentUser(world: World, record: UserRecord): User {
  return {
    object: "user",
    id: record.id,
    displayName: record.displayName,
    email: record.email,
    // A URL stored before schemes were checked is left out rather than served.
    ...(record.photoURL && isHttpUrl(record.photoURL) ? { photoURL: record.photoURL } : {}),
    urls: { location: `${world.baseUrl}/v1/users/${record.id}` },
  };
}

/**
 * A user whose record is gone, shown by id: what a comment or a change request shows of an author
 * no longer stored.
 */
export function presentUnknownUser(world: World, id: string): User {
  return {
    object: "user",
    id,
    displayName: "Unknown user",
    urls: { location: `${world.baseUrl}/v1/users/${id}` },
  };
}

/**
 * Presents users by id, loading each once per request: the authors of a page of comments or
 * change requests are read once however many times they appear. A user whose record is gone is
 * shown by id ({@link presentUnknownUser}).
 */
export class UserPresenter {
  private readonly users = new Map<string, Promise<User>>();

  constructor(
    private readonly tx: ReadTransaction,
    private readonly world: World,
  ) {}

  presentUser(id: string): Promise<User> {
    let user = this.users.get(id);
    if (!user) {
      user = this.tx
        .get(usersTable, id)
        .then((record) => (record ? presentUser(this.world, record) : presentUnknownUser(this.world, id)));
      this.users.set(id, user);
    }
    return user;
  }
}

/** A token without its secret: only its creation answers the token, and nothing answers its hash. */
export function presentApiToken(record: TokenRecord): ApiToken {
  return {
    object: "api-token",
    id: record.id,
    createdAt: record.createdAt,
    ...(record.expiresAt !== undefined ? { expiresAt: record.expiresAt } : {}),
    ...(record.lastUsedAt !== undefined ? { lastUsedAt: record.lastUsedAt } : {}),
    ...(record.label !== undefined ? { label: record.label } : {}),
  };
}
