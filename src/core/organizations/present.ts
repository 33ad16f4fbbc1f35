import type { Membership } from "../permissions/membership.js";
import { permissionsOf } from "../permissions/organization.js";
import { isHttpUrl } from "../shared/schema.js";
import type { World } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import type { Organization, OrganizationPermissions } from "./schemas.js";
import type { OrganizationRecord } from "./tables.js";

/** The organization as this member sees it: their permissions in it, then {@link presentOrganizationWith}. */
export async function presentOrganization(
  tx: ReadTransaction,
  world: World,
  membership: Membership,
): Promise<Organization> {
  return presentOrganizationWith(world, membership.organization, await permissionsOf(tx, membership));
}

/** The organization as a caller holding `permissions` sees it (an access rule computed them already). */
export function presentOrganizationWith(
  world: World,
  record: OrganizationRecord,
  permissions: OrganizationPermissions,
): Organization {
  return {
    object: "organization",
    id: record.id,
    title: record.title,
    createdAt: record.createdAt,
    emailDomains: record.emailDomains,
    ...(record.hostname ? { hostname: record.hostname } : {}),
    type: record.type,
    defaultRole: record.defaultRole,
    ...(record.defaultContent ? { defaultContent: record.defaultContent } : {}),
    sso: record.sso,
    ai: record.ai,
    inviteLinks: record.inviteLinks,
    plan: record.plan,
    mergeRules: record.mergeRules as Organization["mergeRules"],
    // A self-hosted organization has no billing, hence no trial.
    trial: { status: "notapplicable", count: 0 },
    urls: {
      location: `${world.baseUrl}/v1/orgs/${record.id}`,
      app: `${world.appUrl}/o/${record.id}`,
      // A logo of another scheme, stored before logos were checked, is never shown.
      ...(record.logo && isHttpUrl(record.logo) ? { logo: record.logo } : {}),
    },
    permissions,
  };
}
