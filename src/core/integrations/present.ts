import { type OrganizationPermissions } from "../organizations/schemas.js";
import { organizationsTable } from "../organizations/tables.js";
import { findMembership } from "../permissions/membership.js";
import type { Context, World } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import type { IntegrationViewer } from "./access.js";
import { integrationAssetUrls } from "./assets.js";
import type { Installation, Integration, IntegrationEvent } from "./schemas.js";
import type { EventRecord, InstallationRecord, IntegrationRecord } from "./tables.js";
import { presentOrganization, presentOrganizationWith } from "../organizations/present.js";

const NO_PERMISSIONS: OrganizationPermissions = {
  view: false,
  admin: false,
  ownTeam: false,
  createContent: false,
  createOpenAPISpec: false,
  ingestConversations: false,
  viewBilling: false,
  listMembers: false,
  listTeams: false,
  listIntegrations: false,
  listInstallations: false,
  installIntegration: false,
};

export const integrationLocation = (world: World, name: string) =>
  `${world.baseUrl}/v1/integrations/${encodeURIComponent(name)}`;

/**
 * The owner organization as the caller sees it: in full for its members; for anyone else (who
 * sees a public or unlisted integration) its public face, without email domains, merge rules or
 * permissions.
 */
async function ownerOf(tx: ReadTransaction, context: Context, organizationId: string) {
  const membership = await findMembership(tx, context, organizationId);
  if (membership) return presentOrganization(tx, context, membership);
  const organization = await tx.get(organizationsTable, organizationId);
  if (!organization) throw new Error(`Integration owner ${organizationId} is missing`);
  return presentOrganizationWith(
    context,
    { ...organization, emailDomains: [], mergeRules: { type: "none" } },
    NO_PERMISSIONS,
  );
}

/** An integration as the caller sees it: `secrets` never, the signing secret for owner admins. */
export async function presentIntegration(
  tx: ReadTransaction,
  context: Context,
  integration: IntegrationRecord,
  viewer: IntegrationViewer,
): Promise<Integration> {
  const location = integrationLocation(context, integration.name);
  // Images are linked, never inlined: every user reads the list (assets.ts).
  const images = await integrationAssetUrls(context, integration);
  return {
    object: "integration",
    name: integration.name,
    version: integration.version,
    runtime: integration.runtime,
    title: integration.title,
    description: integration.description,
    ...(integration.summary !== undefined ? { summary: integration.summary } : {}),
    previewImages: images.previewImages,
    target: integration.target,
    verified: false,
    visibility: integration.visibility,
    scopes: integration.scopes,
    categories: integration.categories,
    blocks: integration.blocks as Integration["blocks"],
    contentSources: integration.contentSources as Integration["contentSources"],
    configurations: integration.configurations as Integration["configurations"],
    externalLinks: integration.externalLinks,
    owner: await ownerOf(tx, context, integration.organization),
    urls: {
      location,
      ...(images.icon !== undefined ? { icon: images.icon } : {}),
      app: `${context.appUrl}/integrations/${encodeURIComponent(integration.name)}`,
      assets: `${location}/assets`,
      publicEndpoint: `${location}/endpoint`,
    },
    permissions: { admin: viewer.permissions.admin },
    ...(integration.contentSecurityPolicy !== undefined
      ? { contentSecurityPolicy: integration.contentSecurityPolicy }
      : {}),
    ...(viewer.permissions.admin ? { signingSecret: integration.signingSecret } : {}),
  };
}

export const installationLocation = (world: World, installation: InstallationRecord) =>
  `${integrationLocation(world, installation.integration)}/installations/${installation.id}`;

export function presentInstallation(
  world: World,
  installation: InstallationRecord,
  spaces: number,
): Installation {
  const location = installationLocation(world, installation);
  return {
    id: installation.id,
    status: installation.status,
    space_selection: "all",
    site_selection: "all",
    spaces,
    configuration: installation.configuration,
    createdAt: installation.createdAt,
    updatedAt: installation.updatedAt,
    urls: {
      location,
      app: `${world.appUrl}/o/${installation.organization}/integrations/${encodeURIComponent(installation.integration)}`,
      publicEndpoint: `${location}/endpoint`,
    },
    externalIds: installation.externalIds,
    target: { organization: installation.organization },
  };
}

/**
 * An event as the reference's `IntegrationEvent`: `status` is `failed` once its delivery gave
 * up, `success` otherwise (recorded; delivered, or still being delivered: see its trace).
 */
export function presentEvent(event: EventRecord): IntegrationEvent {
  return {
    id: event.id,
    integrationId: event.integration,
    installationId: event.installation,
    createdAt: event.createdAt,
    payload: event.payload,
    status: event.delivery === "failed" ? "failed" : "success",
  };
}
