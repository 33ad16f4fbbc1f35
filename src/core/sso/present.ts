import type { OrganizationPermissions } from "../organizations/schemas.js";
import type { Membership } from "../permissions/membership.js";
import type { World } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import { presentTeam } from "../teams/present.js";
import { teamsTable } from "../teams/tables.js";
import { NO_SSO_URL, samlProviderLocation, serviceOf, statusOf, type SAMLProvider } from "./schemas.js";
import type { SAMLProviderRecord } from "./tables.js";

/** The provider as an organization admin sees it (only admins reach the provider operations). */
export async function presentSAMLProvider(
  tx: ReadTransaction,
  world: World,
  membership: Membership,
  permissions: OrganizationPermissions,
  record: SAMLProviderRecord,
): Promise<SAMLProvider> {
  // A deleted default team is no longer reported.
  const team = record.defaultTeam ? await tx.get(teamsTable, record.defaultTeam) : undefined;
  return {
    object: "saml-provider",
    id: record.id,
    label: record.label,
    ssoURL: record.ssoURL ?? NO_SSO_URL,
    entityID: record.entityID ?? "",
    certificate: record.certificate ?? "",
    ...(team ? { defaultTeam: await presentTeam(tx, membership, permissions, team) } : {}),
    defaultRole: record.defaultRole,
    createdAt: record.createdAt,
    status: statusOf(record),
    service: serviceOf(world, record),
    urls: { location: samlProviderLocation(world, record) },
  };
}
