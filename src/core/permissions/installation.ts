import { installationsTable, integrationsTable } from "../integrations/tables.js";
import { type OrganizationRecord, organizationsTable } from "../organizations/tables.js";
import { unauthorized } from "../shared/errors.js";
import type { Role } from "../shared/roles.js";
import type { CallerInstallation } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";

/**
 * What an installation token may do (docs/integrations.md, "Tokens"): it stands in the
 * installation's organization as a member that no member list holds, whose organization role the
 * integration's declared scopes give ({@link installationRole}). That role is all it has: no
 * content's default level and no grant raises it (`resolveRole`), so a read scope makes it a
 * reader of the organization's spaces and sites, a write scope an editor, and nothing more. Any
 * other organization does not exist for it (404), and an uninstalled, paused or pending
 * installation (or a removed integration) stands nowhere.
 */

/** The scopes that make an installation an editor of its organization's content. */
const WRITE_SCOPES: ReadonlySet<string> = new Set(["space:content:write", "space:metadata:write"]);

/**
 * The organization role that an integration's declared scopes give its installations: `edit` with
 * a content or metadata write scope, `read` with any read scope, none otherwise (its other scopes,
 * such as `site:script:inject`, grant nothing through the API).
 */
export function installationRole(scopes: readonly string[]): Role | null {
  if (scopes.some((scope) => WRITE_SCOPES.has(scope))) return "edit";
  if (scopes.some((scope) => scope.endsWith(":read"))) return "read";
  return null;
}

/**
 * The organization and role an installation token stands with in `organizationId`, if any: its
 * installation's organization, while the installation is active and its scopes give a role.
 */
export async function installationStanding(
  tx: ReadTransaction,
  caller: CallerInstallation,
  organizationId: string,
): Promise<{ readonly organization: OrganizationRecord; readonly role: Role } | undefined> {
  if (caller.organization !== organizationId) return undefined;
  const installation = await tx.get(installationsTable, caller.id);
  if (!installation || installation.status !== "active" || installation.organization !== organizationId) {
    return undefined;
  }
  const integration = await tx.get(integrationsTable, installation.integration);
  const role = integration ? installationRole(integration.scopes) : null;
  if (role === null) return undefined;
  const organization = await tx.get(organizationsTable, organizationId);
  return organization && { organization, role };
}

/**
 * Fails with 401 when the installation an installation token acts for is gone (uninstalled, or its
 * integration unpublished): such tokens are not stored, so this check, which `invoke` makes in
 * every call's transaction, is what revokes them, at once and on every instance.
 */
export async function requireInstalled(tx: ReadTransaction, caller: CallerInstallation): Promise<void> {
  const installation = await tx.get(installationsTable, caller.id);
  if (!installation || installation.integration !== caller.integration) {
    throw unauthorized("The installation this token acts for was uninstalled: the token is revoked");
  }
}
