import { organizationPermissions, type OrganizationPermissions } from "../organizations/schemas.js";
import type { ReadTransaction } from "../storage/port.js";
import { teamMembersTable } from "../teams/tables.js";
import { requireMembership, type Membership } from "./membership.js";
import { requirePermission, type PermissionFlag } from "./refuse.js";
import { defineAccess, type AccessRule } from "./rule.js";

/** Whether the user owns at least one team of the organization. */
export async function ownsTeam(tx: ReadTransaction, organization: string, user: string): Promise<boolean> {
  const teams = await tx.list(teamMembersTable, { index: "byMember", where: [organization, user] });
  return teams.some((membership) => membership.role === "owner");
}

/** The caller's organization permissions, as `organization.permissions` reports them. */
export async function permissionsOf(
  tx: ReadTransaction,
  membership: Membership,
): Promise<OrganizationPermissions> {
  return organizationPermissions(
    membership,
    await ownsTeam(tx, membership.organization.id, membership.member.user),
  );
}

/** What an organization rule hands `run`. */
export interface OrganizationAccess {
  readonly membership: Membership;
  /** The caller's organization permissions. */
  readonly permissions: OrganizationPermissions;
}

const ACTIONS: Partial<Record<PermissionFlag<OrganizationPermissions>, string>> = {
  listMembers: "Listing and reading members",
  listTeams: "Listing and reading teams",
  listInstallations: "Listing the organization's installations",
  admin: "Managing the organization, its members, invites and teams",
};

/**
 * A member of the organization in `params[param]` (a non-member gets 404: the organization stays
 * hidden), holding `flag` of its organization permissions (403 otherwise); `"member"` asks for
 * membership alone, guests included.
 */
export function inOrganization(
  flag: PermissionFlag<OrganizationPermissions> | "member",
  param = "organizationId",
): AccessRule<OrganizationAccess> {
  return defineAccess({
    summary:
      flag === "member"
        ? `membership of the organization in path.${param}`
        : `the "${flag}" permission on the organization in path.${param}`,
    authenticated: true,
    async resolve(tx, context, params) {
      const membership = await requireMembership(tx, context, String(params[param]));
      const permissions = await permissionsOf(tx, membership);
      if (flag !== "member") requirePermission(permissions, flag, ACTIONS[flag] ?? "This");
      return { membership, permissions };
    },
  });
}
