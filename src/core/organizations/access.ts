import { findMembership, requireCaller, type Membership } from "../permissions/membership.js";
import { permissionsOf } from "../permissions/organization.js";
import { defineAccess, type AccessRule } from "../permissions/rule.js";
import { notFound } from "../shared/errors.js";
import type { Caller } from "../shared/world.js";
import type { OrganizationPermissions } from "./schemas.js";
import { type OrganizationRecord, organizationsTable } from "./tables.js";

/** What {@link anyCallerOnOrganization} hands `run`. */
export interface OrganizationForCaller {
  readonly caller: Caller;
  readonly organization: OrganizationRecord;
  /** The caller's active membership, or undefined for a non-member (who may be joining). */
  readonly membership: Membership | undefined;
  /** The caller's organization permissions; undefined for a non-member. */
  readonly permissions: OrganizationPermissions | undefined;
}

/**
 * Any authenticated caller, member or not, of the organization in `params[param]`, which must
 * exist (404 otherwise): for joining an organization (by email domain or through an invite link),
 * where the caller is not a member yet. Use `inOrganization` for everything members do.
 */
export function anyCallerOnOrganization(param = "organizationId"): AccessRule<OrganizationForCaller> {
  return defineAccess({
    summary: `any authenticated caller, member or not, of the organization in path.${param}`,
    authenticated: true,
    async resolve(tx, context, params) {
      const caller = requireCaller(context);
      const id = String(params[param]);
      const membership = await findMembership(tx, context, id);
      const organization = membership?.organization ?? (await tx.get(organizationsTable, id));
      if (!organization) throw notFound(`Organization "${id}" not found`);
      const permissions = membership ? await permissionsOf(tx, membership) : undefined;
      return { caller, organization, membership, permissions };
    },
  });
}
