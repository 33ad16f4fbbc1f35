import type { OrganizationPermissions } from "../organizations/schemas.js";
import { findMembership, type Membership } from "../permissions/membership.js";
import { permissionsOf } from "../permissions/organization.js";
import { organizationRules } from "../permissions/owned.js";
import type { PermissionFlag } from "../permissions/refuse.js";
import type { AccessRule } from "../permissions/rule.js";
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

/** What the rule hands `run`. */
export interface ConversationAccess {
  readonly membership: Membership;
  /** The caller's organization permissions, from which {@link ConversationPermissions} follow. */
  readonly organization: OrganizationPermissions;
  readonly permissions: ConversationPermissions;
}

const conversationRules = organizationRules({
  plural: "conversations",
  async standing(tx, context, organization) {
    const membership = await findMembership(tx, context, organization);
    return membership && { membership, organization: await permissionsOf(tx, membership) };
  },
  permissions: ({ membership, organization }): ConversationPermissions => ({
    view: atLeast(membership.role, "read"),
    ingest: organization.ingestConversations,
    manage: organization.admin,
  }),
  actions: {
    view: "Reading conversations",
    ingest: "Ingesting conversations",
    manage: "Muting issue clusters",
  },
});

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
  const rule = conversationRules.all(flag);
  // Ingesting is the organization's own permission: the summary names it as the organization does.
  return flag === "ingest"
    ? { ...rule, summary: `the "ingestConversations" permission on the organization in path.organizationId` }
    : rule;
}
