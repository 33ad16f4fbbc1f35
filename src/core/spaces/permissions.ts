import { contentRole, findMembership, userContentRole, type Membership } from "../permissions/membership.js";
import { notFound } from "../shared/errors.js";
import { atLeast, type Role } from "../shared/roles.js";
import type { Context } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import { isRestorable } from "./records.js";
import { type SpaceRecord, spacesTable } from "./tables.js";
import type { SpacePermissions } from "./schemas.js";

/**
 * What a caller may do on a space, from their role on it (`contentRole`) and its edit mode. The
 * operations refuse through these same flags (`requirePermission`), so a flag is false exactly
 * where the call answers 403 (or 404, for `view`):
 *
 * - `view`, `access`: read; a space the caller cannot view answers 404.
 * - `admin`, `viewInviteLinks`, `installIntegration`: admin. Admin gates delete, restore, move,
 *   transfer and the PATCH of `editMode`, `defaultLevel` and `mergeRules`.
 * - `edit`: edit, on a `live` space only (a `locked` space refuses content edits, whoever asks).
 *   The PATCH of `title`, `emoji` and `language` needs `edit` or `admin`: editors rename live
 *   spaces, admins (who may unlock anyway) manage the space in either mode.
 * - `triggerGitSync`, `merge`: edit; `comment`: comment; `review`: review.
 */
export function spacePermissions(role: Role | null, space: Pick<SpaceRecord, "editMode">): SpacePermissions {
  const admin = atLeast(role, "admin");
  return {
    view: atLeast(role, "read"),
    access: atLeast(role, "read"),
    admin,
    viewInviteLinks: admin,
    edit: atLeast(role, "edit") && space.editMode === "live",
    triggerGitSync: atLeast(role, "edit"),
    comment: atLeast(role, "comment"),
    merge: atLeast(role, "edit"),
    review: atLeast(role, "review"),
    installIntegration: admin,
  };
}

/**
 * The role of user `userId` (not the caller) on `space` (`userContentRole`: the one resolution,
 * grants included); null when they are not an enabled member of its organization. Used to judge who
 * may be asked to review a change request.
 */
export function userSpaceRole(
  tx: ReadTransaction,
  space: Pick<SpaceRecord, "id" | "organization" | "defaultLevel" | "parent">,
  userId: string,
): Promise<Role | null> {
  return userContentRole(tx, space.organization, userId, space);
}

export interface SpaceAccess {
  readonly space: SpaceRecord;
  readonly membership: Membership;
  readonly role: Role | null;
}

/**
 * A space the caller can view, or undefined when it does not exist (or is deleted, unless
 * `includeDeleted` and still restorable); 404 when it is hidden from the caller (not a member of
 * its organization, or no role on it). A deleted space is invisible to every operation but
 * restore, and to restore too once its retention window is over.
 */
export async function findSpace(
  tx: ReadTransaction,
  context: Context,
  id: string,
  options: { includeDeleted?: boolean } = {},
): Promise<SpaceAccess | undefined> {
  const space = await tx.get(spacesTable, id);
  if (!space) return undefined;
  if (space.state === "deleted" && !(options.includeDeleted && isRestorable(space, context.clock()))) {
    return undefined;
  }
  const membership = await findMembership(tx, context, space.organization);
  const role = membership ? await contentRole(tx, membership, space) : null;
  if (!membership || !spacePermissions(role, space).view) throw notFound(`Space "${id}" not found`);
  return { space, membership, role };
}
