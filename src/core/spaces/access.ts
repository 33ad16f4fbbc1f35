import type { Membership } from "../permissions/membership.js";
import { objectRules } from "../permissions/object.js";
import type { PermissionFlag } from "../permissions/refuse.js";
import type { AccessRule } from "../permissions/rule.js";
import type { Role } from "../shared/roles.js";
import { findSpace, spacePermissions } from "./permissions.js";
import type { SpacePermissions } from "./schemas.js";
import type { SpaceRecord } from "./tables.js";

/** What a space rule hands `run`. */
export interface SpaceScope {
  readonly space: SpaceRecord;
  readonly membership: Membership;
  /** The caller's role on the space. */
  readonly role: Role | null;
  /** The caller's permissions on the space, as `space.permissions` reports them. */
  readonly permissions: SpacePermissions;
}

const spaceRules = objectRules({
  noun: "space",
  param: "spaceId",
  find: findSpace,
  permissions: (found) => spacePermissions(found.role, found.space),
  actions: {
    admin: "Managing the space",
    edit: "Editing the content of the space",
    comment: "Commenting",
    review: "Reviewing",
    merge: "Merging",
  },
  missing: { space: undefined },
});

/**
 * The space in `params[param]`, which the caller can view (404 otherwise, as for a space that does
 * not exist), holding `flag` of its permissions (403 otherwise). A deleted space answers 404,
 * except with `includeDeleted` (restore) while it is still restorable: past its retention window
 * it answers 404 like a space that never existed.
 *
 * @example
 * ```ts
 * access: onSpace("edit"), // run({ tx, space, membership, role, permissions })
 * ```
 */
export function onSpace(
  flag: PermissionFlag<SpacePermissions>,
  options: { readonly param?: string; readonly includeDeleted?: boolean } = {},
): AccessRule<SpaceScope> {
  return spaceRules.required(flag, options);
}

/**
 * Like {@link onSpace}, for deletes that answer 204 when nothing exists: a space that does not
 * exist (or is already deleted) hands `run` `{ space: undefined }` instead of a 404. A space that
 * exists but is hidden from the caller still answers 404.
 */
export function onSpaceIfPresent(
  flag: PermissionFlag<SpacePermissions>,
  param = "spaceId",
): AccessRule<SpaceScope | { readonly space: undefined }> {
  return spaceRules.ifPresent(flag, param);
}
