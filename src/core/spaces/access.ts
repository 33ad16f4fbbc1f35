import { contentStanding, type ContentStanding } from "../permissions/membership.js";
import { ownedObjectRules, type OnObject } from "../permissions/owned.js";
import type { PermissionFlag } from "../permissions/refuse.js";
import type { AccessRule } from "../permissions/rule.js";
import { spacePermissions } from "./permissions.js";
import { isRestorable } from "./records.js";
import type { SpacePermissions } from "./schemas.js";
import { type SpaceRecord, spacesTable } from "./tables.js";

/**
 * What a space rule hands `run`: the space, the caller's membership and role on it, and their
 * permissions on it, as `space.permissions` reports them.
 */
export type SpaceScope = OnObject<"space", SpaceRecord, ContentStanding, SpacePermissions>;

const spaceRules = ownedObjectRules<"space", SpaceRecord, ContentStanding, SpacePermissions>({
  key: "space",
  table: spacesTable,
  organizationIn: "object",
  // A deleted space is missing to every rule but restore's, and to restore's too once its
  // retention window is over.
  gone: (space, context, includeDeleted) =>
    space.state === "deleted" && !(includeDeleted && isRestorable(space, context.clock())),
  standing: contentStanding,
  // Without a space, the organization role alone, on a space as editable as any.
  permissions: ({ role }, space) => spacePermissions(role, space ?? { editMode: "live" }),
  actions: {
    admin: "Managing the space",
    edit: "Editing the content of the space",
    comment: "Commenting",
    review: "Reviewing",
    merge: "Merging",
  },
  // A reader token reads the live space it was issued for, as a reader without membership.
  readerToken: (membership) => ({ membership, role: "read" }),
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
 * exist (or is already deleted) reaches `run` as `space: undefined`, once the caller holds `flag`:
 * on the deleted space, or, for a space that never existed, as the organization role alone grants
 * it in one of their organizations (403 otherwise). A space hidden from the caller answers 404.
 */
export function onSpaceIfPresent(
  flag: PermissionFlag<SpacePermissions>,
  param = "spaceId",
): AccessRule<Omit<SpaceScope, "space"> & { readonly space: SpaceRecord | undefined }> {
  return spaceRules.ifPresent(flag, { param });
}
