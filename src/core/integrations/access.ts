import { findMembership, requireCaller, type Membership } from "../permissions/membership.js";
import { requirePermission, type PermissionFlag } from "../permissions/refuse.js";
import { defineAccess, type AccessRule } from "../permissions/rule.js";
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

export function integrationPermissions(
  integration: Pick<IntegrationRecord, "visibility">,
  ownerMembership: Membership | undefined,
): IntegrationPermissions {
  return {
    view: integration.visibility !== "private" || ownerMembership !== undefined,
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

const ACTIONS: Record<PermissionFlag<IntegrationPermissions>, string> = {
  view: "Reading the integration",
  admin: "Managing the integration",
};

/** The integration in `params.integrationName` as the caller may see it, or undefined. */
async function resolveIntegration(tx: ReadTransaction, context: Context, params: Record<string, unknown>) {
  requireCaller(context);
  const integration = await tx.get(integrationsTable, String(params.integrationName));
  if (!integration) return undefined;
  const viewer = await viewerOf(tx, context, integration);
  return viewer.permissions.view ? { integration, ...viewer } : undefined;
}

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
  return defineAccess({
    summary: `the "${flag}" permission on the integration in path.integrationName`,
    authenticated: true,
    async resolve(tx, context, params) {
      const found = await resolveIntegration(tx, context, params);
      if (!found) throw integrationNotFound(String(params.integrationName));
      requirePermission(found.permissions, flag, ACTIONS[flag]);
      return found;
    },
  });
}

/**
 * Like {@link onIntegration}, for unpublishing, which answers 204 when there is nothing to
 * delete: an integration that does not exist, or that the caller may not see, reaches `run` as
 * `{ integration: undefined }`.
 */
export function onIntegrationIfPresent(
  flag: PermissionFlag<IntegrationPermissions>,
): AccessRule<IntegrationAccess | { readonly integration: undefined }> {
  return defineAccess({
    summary: `the "${flag}" permission on the integration in path.integrationName (none there: nothing to do)`,
    authenticated: true,
    async resolve(tx, context, params) {
      const found = await resolveIntegration(tx, context, params);
      if (!found) return { integration: undefined };
      requirePermission(found.permissions, flag, ACTIONS[flag]);
      return found;
    },
  });
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
