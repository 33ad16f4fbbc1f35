import { contentStanding, type ContentStanding } from "../permissions/membership.js";
import { ownedObjectRules, type OnObject } from "../permissions/owned.js";
import type { PermissionFlag } from "../permissions/refuse.js";
import type { AccessRule } from "../permissions/rule.js";
import { collectionPermissions } from "./permissions.js";
import type { CollectionPermissions } from "./schemas.js";
import { type CollectionRecord, collectionsTable } from "./tables.js";

/**
 * What a collection rule hands `run`: the collection, the caller's membership and role on it, and
 * their permissions on it, as `collection.permissions` reports them.
 */
export type CollectionScope = OnObject<
  "collection",
  CollectionRecord,
  ContentStanding,
  CollectionPermissions
>;

const collectionRules = ownedObjectRules<
  "collection",
  CollectionRecord,
  ContentStanding,
  CollectionPermissions
>({
  key: "collection",
  table: collectionsTable,
  organizationIn: "object",
  standing: contentStanding,
  permissions: ({ role }) => collectionPermissions(role),
  actions: {
    admin: "Managing the collection",
    create: "Creating content in the collection",
  },
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
 * does not exist reaches `run` as `collection: undefined`, once the caller holds `flag` as the
 * organization role alone grants it in one of their organizations (403 otherwise). A collection
 * hidden from the caller answers 404.
 */
export function onCollectionIfPresent(
  flag: PermissionFlag<CollectionPermissions>,
  param = "collectionId",
): AccessRule<Omit<CollectionScope, "collection"> & { readonly collection: CollectionRecord | undefined }> {
  return collectionRules.ifPresent(flag, { param });
}
