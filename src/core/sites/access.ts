import type { Membership } from "../permissions/membership.js";
import {
  memberStanding,
  ownedObjectRules,
  type MemberStanding,
  type OnObject,
} from "../permissions/owned.js";
import type { PermissionFlag } from "../permissions/refuse.js";
import type { AccessRule } from "../permissions/rule.js";
import { atLeast } from "../shared/roles.js";
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
export type SiteAccess = OnObject<"site", SiteRecord, MemberStanding, SitePermissions>;

/** The site of the organization, or undefined. */
export async function findSite(
  tx: ReadTransaction,
  organization: string,
  siteId: string,
): Promise<SiteRecord | undefined> {
  const site = await tx.get(sitesTable, siteId);
  return site && site.organization === organization ? site : undefined;
}

const siteRules = ownedObjectRules({
  key: "site",
  table: sitesTable,
  organizationIn: "path",
  standing: memberStanding,
  permissions: ({ membership }) => sitePermissions(membership),
  actions: { view: "Reading the site", admin: "Managing the site" },
});

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
  return siteRules.required(flag);
}

/**
 * Like {@link onSite}, for deletes that answer 204 when the site does not exist: `run` then gets
 * `{ site: undefined }`. The caller must still hold `flag` in the organization.
 */
export function onSiteIfPresent(
  flag: PermissionFlag<SitePermissions>,
): AccessRule<OnObject<"site", SiteRecord | undefined, MemberStanding, SitePermissions>> {
  return siteRules.ifPresent(flag);
}
