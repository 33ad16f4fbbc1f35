import { requireMembership, type Membership } from "../permissions/membership.js";
import { permissionsOf } from "../permissions/organization.js";
import { requirePermission, type PermissionFlag } from "../permissions/refuse.js";
import { defineAccess, type AccessRule } from "../permissions/rule.js";
import { notFound } from "../shared/errors.js";
import { atLeast } from "../shared/roles.js";

/**
 * Who may do what with an organization's conversations (docs/conversations.md, "Who does what"):
 * members with at least the `read` role read conversations, issues and clusters (`view`); the
 * organization permission `ingestConversations` (admins) ingests (`ingest`); admins mute
 * clusters (`manage`). Guests and non-members get 404.
 */
export interface ConversationPermissions {
  readonly view: boolean;
  readonly ingest: boolean;
  readonly manage: boolean;
}

const ACTIONS: Record<PermissionFlag<ConversationPermissions>, string> = {
  view: "Reading conversations",
  ingest: "Ingesting conversations",
  manage: "Muting issue clusters",
};

/** What the rule hands `run`. */
export interface ConversationAccess {
  readonly membership: Membership;
  readonly permissions: ConversationPermissions;
}

/**
 * `flag` on the conversations of the organization in `params.organizationId`.
 *
 * @example
 * ```ts
 * access: inConversations("ingest"), // run({ tx, membership })
 * ```
 */
export function inConversations(
  flag: PermissionFlag<ConversationPermissions>,
): AccessRule<ConversationAccess> {
  return defineAccess({
    summary:
      flag === "ingest"
        ? `the "ingestConversations" permission on the organization in path.organizationId`
        : `the "${flag}" permission on the conversations of the organization in path.organizationId`,
    authenticated: true,
    async resolve(tx, context, params) {
      const membership = await requireMembership(tx, context, String(params.organizationId));
      const organization = await permissionsOf(tx, membership);
      const permissions: ConversationPermissions = {
        view: atLeast(membership.role, "read"),
        ingest: organization.ingestConversations,
        manage: organization.admin,
      };
      if (!permissions.view) throw notFound(`Organization "${String(params.organizationId)}" not found`);
      requirePermission(permissions, flag, ACTIONS[flag]);
      return { membership, permissions };
    },
  });
}
