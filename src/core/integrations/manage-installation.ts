import * as z from "zod";
import { membersTable } from "../members/tables.js";
import { findMembership, requireCaller } from "../permissions/membership.js";
import { permissionsOf } from "../permissions/organization.js";
import { requirePermission } from "../permissions/refuse.js";
import { defineAccess, type AccessRule } from "../permissions/rule.js";
import { defineOperation, deleted } from "../registry.js";
import { badRequest, forbidden, notFound } from "../shared/errors.js";
import { pathParam, wellFormed } from "../shared/schema.js";
import type { Context } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import { onIntegration, type IntegrationAccess } from "./access.js";
import { checkConfiguration } from "./configuration.js";
import { recordEvent } from "./delivery.js";
import { spaceCount, visibleInstallations } from "./installations.js";
import { presentInstallation } from "./present.js";
import { installationSchema, integrationParams } from "./schemas.js";
import { type InstallationRecord, installationsTable } from "./tables.js";

/**
 * One installation, by its id (docs/integrations.md, "Installations"): read by whoever sees it (see
 * installations.ts), updated and uninstalled by whoever may install the integration in the
 * installation's organization (an admin there: the `installIntegration` permission). The
 * reference's security for these three operations is `user` alone: an integration token and an
 * installation token are refused with 403.
 */

const tag = "integrations";

/** Most external ids of an installation (the reference's `maxItems`). */
export const MAX_EXTERNAL_IDS = 5;

/** `rule`, refused with 403 to installation tokens, which are no user. */
function usersOnly<L extends object>(rule: AccessRule<L>): AccessRule<L> {
  return defineAccess({
    ...rule,
    summary: `${rule.summary} (a user's token)`,
    async resolve(tx, context, params, query) {
      if (context.caller?.installation) {
        throw forbidden("An installation token may not read or manage installations: a user's token may");
      }
      return rule.resolve(tx, context, params, query);
    },
  });
}

const installationParams = integrationParams.extend({ installationId: pathParam() });

type IntegrationScope = Context & IntegrationAccess & { tx: ReadTransaction };

/** The integration's installation `id`, if there is one the caller sees. */
async function visibleInstallation(
  scope: IntegrationScope,
  id: string,
): Promise<InstallationRecord | undefined> {
  const installation = await scope.tx.get(installationsTable, id);
  if (!installation || installation.integration !== scope.integration.name) return undefined;
  return (await visibleInstallations(scope)(installation)) ? installation : undefined;
}

const installationNotFound = (scope: IntegrationScope, id: string) =>
  notFound(`Installation "${id}" of "${scope.integration.name}" not found`);

/** Fails with 403 unless the caller may install the integration in the installation's organization. */
async function requireManager(scope: IntegrationScope, installation: InstallationRecord, action: string) {
  const membership = await findMembership(scope.tx, scope, installation.organization);
  if (!membership) {
    throw forbidden(
      `${action} needs the "installIntegration" permission in organization "${installation.organization}"`,
    );
  }
  requirePermission(await permissionsOf(scope.tx, membership), "installIntegration", action);
}

/**
 * The delete rule (docs/api.md, "Deletes") where the caller sees no such installation: judged by
 * the caller's organizations, as for an integration, whose path names none either. 204 when one
 * of them lets the caller install integrations, 403 when they belong to one but none does, 404
 * when they belong to none.
 */
async function judgeMissing(scope: IntegrationScope, id: string) {
  const caller = requireCaller(scope);
  let member = false;
  for (const { organization } of await scope.tx.list(membersTable, {
    index: "byUser",
    where: [caller.userId],
  })) {
    const membership = await findMembership(scope.tx, scope, organization);
    if (!membership) continue;
    if ((await permissionsOf(scope.tx, membership)).installIntegration) return deleted(false);
    member = true;
  }
  if (!member) throw installationNotFound(scope, id);
  throw forbidden('Uninstalling an integration needs the "installIntegration" permission');
}

export const getIntegrationInstallationById = defineOperation({
  id: "getIntegrationInstallationById",
  method: "get",
  path: "/integrations/{integrationName}/installations/{installationId}",
  tag,
  summary:
    "Get an installation of an integration: for its owner's admins and the members of the organization it is installed in",
  access: usersOnly(onIntegration("view")),
  params: installationParams,
  response: installationSchema,
  async run(scope, { params }) {
    const installation = await visibleInstallation(scope, params.installationId);
    if (!installation) throw installationNotFound(scope, params.installationId);
    return presentInstallation(
      scope,
      installation,
      await spaceCount(scope.tx, scope.integration, installation.organization),
    );
  },
});

const selection = z.enum(["all", "selected"]);

const updateBody = z.object({
  externalIds: z
    .array(z.string().min(1).max(256).check(wellFormed()))
    .max(MAX_EXTERNAL_IDS)
    .refine((ids) => new Set(ids).size === ids.length, { error: "values must be unique" })
    .optional(),
  configuration: z.record(z.string(), z.unknown()).optional(),
  space_selection: selection.optional(),
  site_selection: selection.optional(),
});

export const updateIntegrationInstallation = defineOperation({
  id: "updateIntegrationInstallation",
  method: "patch",
  path: "/integrations/{integrationName}/installations/{installationId}",
  tag,
  summary:
    "Update an installation's external ids and configuration (checked against the integration's declared account configuration); records an `installation_setup` event when it changed",
  access: usersOnly(onIntegration("view")),
  params: installationParams,
  body: updateBody,
  response: installationSchema,
  async run(scope, { params, body }) {
    const { tx, integration } = scope;
    const installation = await visibleInstallation(scope, params.installationId);
    if (!installation) throw installationNotFound(scope, params.installationId);
    await requireManager(scope, installation, "Updating an installation");
    // An installation covers every space and site of its organization: there is no selection.
    for (const field of ["space_selection", "site_selection"] as const) {
      if (body[field] === "selected") {
        throw badRequest(
          `body.${field}: Only "all": an installation covers every space and site of its organization`,
        );
      }
    }
    if (body.configuration !== undefined) checkConfiguration(integration, body.configuration);
    const updated: InstallationRecord = {
      ...installation,
      ...(body.externalIds !== undefined ? { externalIds: body.externalIds } : {}),
      ...(body.configuration !== undefined ? { configuration: body.configuration } : {}),
    };
    const changed =
      JSON.stringify([updated.externalIds, updated.configuration]) !==
      JSON.stringify([installation.externalIds, installation.configuration]);
    if (changed) {
      updated.updatedAt = scope.clock().toISOString();
      await tx.put(installationsTable, updated);
      await recordEvent(tx, scope, integration, updated, {
        type: "installation_setup",
        installationId: updated.id,
        status: updated.status,
        previous: { status: installation.status, configuration: installation.configuration },
      });
    }
    return presentInstallation(scope, updated, await spaceCount(tx, integration, updated.organization));
  },
});

export const uninstallIntegration = defineOperation({
  id: "uninstallIntegration",
  method: "delete",
  path: "/integrations/{integrationName}/installations/{installationId}",
  tag,
  summary:
    "Uninstall an integration from an organization (its admins): its installation tokens stop working at once; records an `installation_deleted` event (205; 204 when there was none to see)",
  access: usersOnly(onIntegration("view")),
  params: installationParams,
  emptyStatuses: [204, 205],
  async run(scope, { params }) {
    const { tx, integration } = scope;
    const installation = await visibleInstallation(scope, params.installationId);
    if (!installation) return judgeMissing(scope, params.installationId);
    await requireManager(scope, installation, "Uninstalling an integration");
    await tx.delete(installationsTable, installation.id);
    // Tokens are not stored: an installation token names its installation, which is gone, and
    // authenticates no more (permissions/installation.ts, `requireInstalled`).
    await recordEvent(tx, scope, integration, installation, {
      type: "installation_deleted",
      installationId: installation.id,
      previous: { configuration: installation.configuration },
    });
    return deleted(true);
  },
});

export const manageInstallationOperations = {
  getIntegrationInstallationById,
  updateIntegrationInstallation,
  uninstallIntegration,
};
