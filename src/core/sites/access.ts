import { requireMembership, type Membership } from "../permissions/membership.js";
import { requirePermission, type PermissionFlag } from "../permissions/refuse.js";
import { defineAccess, type AccessRule } from "../permissions/rule.js";
import { notFound } from "../shared/errors.js";
import { atLeast } from "../shared/roles.js";
import type { Context } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import { type SiteRecord, sitesTable } from "./tables.js";

/**
 * Who may do what on a site: members of its organization with at least the `read` role see it,
 * its admins (organization role `admin`) change it. Anyone else, guests included, gets 404: a site
 * stays hidden from whoever cannot see it.
 */
export interface SitePermissions {
  readonly view: boolean;
  readonly admin: boolean;
}

export function sitePermissions(membership: Membership): SitePermissions {
  return { view: atLeast(membership.role, "read"), admin: atLeast(membership.role, "admin") };
}

/** What a site rule hands `run`. */
export interface SiteAccess {
  readonly membership: Membership;
  readonly site: SiteRecord;
  readonly permissions: SitePermissions;
}

const ACTIONS: Record<PermissionFlag<SitePermissions>, string> = {
  view: "Reading the site",
  admin: "Managing the site",
};

/** The site of the organization, or undefined. */
export async function findSite(
  tx: ReadTransaction,
  organization: string,
  siteId: string,
): Promise<SiteRecord | undefined> {
  const site = await tx.get(sitesTable, siteId);
  return site && site.organization === organization ? site : undefined;
}

async function resolveSite(tx: ReadTransaction, context: Context, params: Record<string, unknown>) {
  const membership = await requireMembership(tx, context, String(params.organizationId));
  const permissions = sitePermissions(membership);
  if (!permissions.view) throw notFound(`Organization "${String(params.organizationId)}" not found`);
  const site = await findSite(tx, membership.organization.id, String(params.siteId));
  return { membership, permissions, site };
}

/**
 * The site in `params.siteId` of the organization in `params.organizationId`: 404 for a caller
 * who cannot see the organization's sites or an unknown site, 403 without `flag`.
 *
 * @example
 * ```ts
 * access: onSite("admin"), // run({ tx, site, membership, permissions })
 * ```
 */
export function onSite(flag: PermissionFlag<SitePermissions>): AccessRule<SiteAccess> {
  return defineAccess({
    summary: `the "${flag}" permission on the site in path.siteId`,
    authenticated: true,
    async resolve(tx, context, params) {
      const { membership, permissions, site } = await resolveSite(tx, context, params);
      if (!site) throw notFound(`Site "${String(params.siteId)}" not found`);
      requirePermission(permissions, flag, ACTIONS[flag]);
      return { membership, site, permissions };
    },
  });
}

/**
 * Like {@link onSite}, for deletes that answer 204 when the site does not exist: `run` then gets
 * `{ site: undefined }`. The caller must still hold `flag` in the organization.
 */
export function onSiteIfPresent(
  flag: PermissionFlag<SitePermissions>,
): AccessRule<SiteAccess | (Omit<SiteAccess, "site"> & { readonly site: undefined })> {
  return defineAccess({
    summary: `the "${flag}" permission on the site in path.siteId (none there: nothing to do)`,
    authenticated: true,
    async resolve(tx, context, params) {
      const { membership, permissions, site } = await resolveSite(tx, context, params);
      requirePermission(permissions, flag, ACTIONS[flag]);
      return { membership, site, permissions };
    },
  });
}
