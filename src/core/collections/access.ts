import type { Membership } from "../permissions/membership.js";
import { objectRules } from "../permissions/object.js";
import type { PermissionFlag } from "../permissions/refuse.js";
import type { AccessRule } from "../permissions/rule.js";
import type { Role } from "../shared/roles.js";
import { collectionPermissions, findCollection } from "./permissions.js";
import type { CollectionPermissions } from "./schemas.js";
import type { CollectionRecord } from "./tables.js";

/** What a collection rule hands `run`. */
export interface CollectionScope {
  readonly collection: CollectionRecord;
  readonly membership: Membership;
  /** The caller's role on the collection. */
  readonly role: Role | null;
  /** The caller's permissions on the collection, as `collection.permissions` reports them. */
  readonly permissions: CollectionPermissions;
}

const collectionRules = objectRules({
  noun: "collection",
  param: "collectionId",
  find: (tx, context, id) => findCollection(tx, context, id),
  permissions: (found) => collectionPermissions(found.role),
  actions: {
    admin: "Managing the collection",
    create: "Creating content in the collection",
  },
  missing: { collection: undefined },
});

/**
 * The collection in `params[param]`, which the caller can view (404 otherwise, as for a collection
 * that does not exist), holding `flag` of its permissions (403 otherwise).
 *
 * @example
 * ```ts
 * access: onCollection("admin"), // run({ tx, collection, membership, role, permissions })
 * ```
 */
export function onCollection(
  flag: PermissionFlag<CollectionPermissions>,
  param = "collectionId",
): AccessRule<CollectionScope> {
  return collectionRules.required(flag, { param });
}

/**
 * Like {@link onCollection}, for deletes that answer 204 when nothing exists: a collection that
 * does not exist hands `run` `{ collection: undefined }` instead of a 404. A collection that exists
 * but is hidden from the caller still answers 404.
 */
export function onCollectionIfPresent(
  flag: PermissionFlag<CollectionPermissions>,
  param = "collectionId",
): AccessRule<CollectionScope | { readonly collection: undefined }> {
  return collectionRules.ifPresent(flag, param);
}
