import { findMembership, type Membership } from "../permissions/membership.js";
import { ownedObjectRules } from "../permissions/owned.js";
import type { PermissionFlag } from "../permissions/refuse.js";
import type { AccessRule } from "../permissions/rule.js";
import { notFound } from "../shared/errors.js";
import { atLeast } from "../shared/roles.js";
import type { Context } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import { organizationsTable, type OrganizationRecord } from "../organizations/tables.js";
import { type IntegrationRecord, integrationsTable } from "./tables.js";

/**
 * Who sees and manages an integration (docs/integrations.md, "Who sees what"):
 *
 * - a `public` integration is seen by every caller and listed;
 * - an `unlisted` one is seen by every caller who names it, and listed only for its owner
 *   organization's members (`read` role and above) when they filter by `owner`;
 * - a `private` one is seen by its owner organization's members only; to anyone else it does not
 *   exist (404);
 * - the owner organization's admins publish, unpublish and set development mode, and they alone
 *   see the signing secret.
 */
export interface IntegrationPermissions {
  readonly view: boolean;
  readonly admin: boolean;
}

/** The caller's relation to an integration. */
export interface IntegrationViewer {
  /** The caller's membership of the owner organization (`read` role or above), if any. */
  readonly ownerMembership: Membership | undefined;
  readonly permissions: IntegrationPermissions;
}

/** What an integration rule hands `run`. */
export interface IntegrationAccess extends IntegrationViewer {
  readonly integration: IntegrationRecord;
}

/** A membership of `organization` with at least the `read` role (guests do not count). */
export async function readerMembership(
  tx: ReadTransaction,
  context: Context,
  organization: string,
): Promise<Membership | undefined> {
  const membership = await findMembership(tx, context, organization);
  return membership && atLeast(membership.role, "read") ? membership : undefined;
}

/** `self`: the caller is the integration itself (an integration token), which sees itself. */
export function integrationPermissions(
  integration: Pick<IntegrationRecord, "visibility">,
  ownerMembership: Membership | undefined,
  self = false,
): IntegrationPermissions {
  return {
    view: integration.visibility !== "private" || ownerMembership !== undefined || self,
    admin: atLeast(ownerMembership?.role ?? null, "admin"),
  };
}

export async function viewerOf(
  tx: ReadTransaction,
  context: Context,
  integration: IntegrationRecord,
): Promise<IntegrationViewer> {
  const ownerMembership = await readerMembership(tx, context, integration.organization);
  return { ownerMembership, permissions: integrationPermissions(integration, ownerMembership) };
}

/** The reference's 404 of getIntegrationByName ("No matching integration found for given name"). */
export const integrationNotFound = (name: string) =>
  notFound(`No matching integration found for given name: "${name}"`);

const integrationRules = ownedObjectRules({
  key: "integration",
  param: "integrationName",
  table: integrationsTable,
  organizationIn: "object",
  // Every caller stands somewhere: a public or unlisted integration is seen by non-members too.
  standing: async (tx, context, organization) => ({
    ownerMembership: await readerMembership(tx, context, organization),
    /** The integration an integration token authenticates as. */
    actingAs: context.caller?.integration,
  }),
  // Without an integration, what owning one would grant: membership sees, admins manage.
  permissions: ({ ownerMembership, actingAs }, integration) =>
    integrationPermissions(
      integration ?? { visibility: "private" },
      ownerMembership,
      actingAs !== undefined && actingAs === integration?.name,
    ),
  actions: { view: "Reading the integration", admin: "Managing the integration" },
  notFound: integrationNotFound,
});

/**
 * The integration named in `params.integrationName`: 404 when there is none or the caller may not
 * see it, 403 without `flag`.
 *
 * @example
 * ```ts
 * access: onIntegration("admin"), // run({ tx, integration, ownerMembership, permissions })
 * ```
 */
export function onIntegration(flag: PermissionFlag<IntegrationPermissions>): AccessRule<IntegrationAccess> {
  return integrationRules.required(flag);
}

/**
 * Like {@link onIntegration}, for unpublishing, which answers 204 when there is nothing to
 * delete: an integration that does not exist reaches `run` as `integration: undefined`, once the
 * caller holds `flag` as owning one would grant it, in one of their organizations (403 otherwise;
 * 404 for a caller who is a member of none). One the caller may not see answers 404.
 */
export function onIntegrationIfPresent(
  flag: PermissionFlag<IntegrationPermissions>,
): AccessRule<IntegrationViewer & { readonly integration: IntegrationRecord | undefined }> {
  return integrationRules.ifPresent(flag);
}

/** The organization whose id, or else hostname, is `idOrHostname`. */
export async function findOrganization(
  tx: ReadTransaction,
  idOrHostname: string,
): Promise<OrganizationRecord | undefined> {
  const byId = await tx.get(organizationsTable, idOrHostname);
  if (byId) return byId;
  const [byHostname] = await tx.list(organizationsTable, {
    index: "byHostname",
    where: [idOrHostname.toLowerCase()],
    limit: 1,
  });
  return byHostname;
}
