import { contentRole, type Membership } from "../permissions/membership.js";
import { requirePermission } from "../permissions/refuse.js";
import { badRequest } from "../shared/errors.js";
import { atLeast, type Role } from "../shared/roles.js";
import type { ReadTransaction } from "../storage/port.js";
import { type CollectionRecord, collectionsTable } from "./tables.js";
import type { CollectionPermissions } from "./schemas.js";

/**
 * What a caller may do on a collection, from their role on it (`contentRole`). The operations
 * refuse through these same flags (`onCollection`, `requirePermission`), so a flag is false
 * exactly where the call answers 403 (or 404, for `view`).
 *
 * `create` also governs the organization root: there the role is the organization role
 * ({@link roleAt}), which is what the organization's `createContent` flag reports.
 */
export function collectionPermissions(role: Role | null): CollectionPermissions {
  return {
    view: atLeast(role, "read"),
    admin: atLeast(role, "admin"),
    viewInviteLinks: atLeast(role, "admin"),
    create: atLeast(role, "create"),
  };
}

/** The caller's role at a place: on collection `parent`, or the organization role at the root (""). */
export async function roleAt(
  tx: ReadTransaction,
  membership: Membership,
  parent: string,
): Promise<Role | null> {
  if (!parent) return membership.role;
  const collection = await tx.get(collectionsTable, parent);
  return collection ? contentRole(tx, membership, collection) : null;
}

/** Fails with 403 unless the caller may create content at `parent` ("" for the root). */
export async function requireCreateAt(
  tx: ReadTransaction,
  membership: Membership,
  parent: string,
  action: string,
): Promise<void> {
  const where = parent ? `collection "${parent}"` : `organization "${membership.organization.id}"`;
  requirePermission(
    collectionPermissions(await roleAt(tx, membership, parent)),
    "create",
    `${action} in ${where}`,
  );
}

/**
 * The collection named by a body field as a parent (create, move), or a 400 naming the field when
 * it does not exist, belongs to another organization or is hidden from the caller.
 */
export async function requireParentCollection(
  tx: ReadTransaction,
  membership: Membership,
  id: string,
  field: string,
): Promise<CollectionRecord> {
  const collection = await tx.get(collectionsTable, id);
  const visible =
    collection?.organization === membership.organization.id &&
    collectionPermissions(await contentRole(tx, membership, collection)).view;
  if (!collection || !visible) {
    throw badRequest(`${field}: no collection "${id}" in organization "${membership.organization.id}"`);
  }
  return collection;
}
