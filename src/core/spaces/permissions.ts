import { contentRole, findMembership, memberKey, type Membership } from "../permissions/membership.js";
import { type OrganizationRecord, organizationsTable } from "../organizations/tables.js";
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
  const scope = context.caller?.scope;
  if (scope) {
    // A reader token (see `Caller.scope`) reads its one live space, as a reader without membership.
    const organization =
      scope.space === space.id ? await tx.get(organizationsTable, space.organization) : undefined;
    if (!organization || space.state !== "live") throw notFound(`Space "${id}" not found`);
    return { space, membership: readerMembership(organization, context), role: "read" };
  }
  const membership = await findMembership(tx, context, space.organization);
  const role = membership ? await contentRole(tx, membership, space) : null;
  if (!membership || !spacePermissions(role, space).view) throw notFound(`Space "${id}" not found`);
  return { space, membership, role };
}

/**
 * The stand-in membership of a reader token: a guest of the space's organization (no role of its
 * own) that no member list holds. Only the space rule hands it out, with the `read` role on that
 * space alone.
 */
function readerMembership(organization: OrganizationRecord, context: Context): Membership {
  const user = context.caller?.userId ?? "";
  const at = context.clock().toISOString();
  return {
    organization,
    member: {
      key: memberKey(organization.id, user),
      organization: organization.id,
      user,
      seq: 0,
      role: null,
      joinedAt: at,
      seenAt: at,
      disabled: false,
      sso: false,
    },
    role: null,
  };
}
