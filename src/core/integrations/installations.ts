import * as z from "zod";
import {
  contentRole,
  findMembership,
  requireMembership,
  type Membership,
} from "../permissions/membership.js";
import { permissionsOf } from "../permissions/organization.js";
import { requirePermission } from "../permissions/refuse.js";
import { Reply, defineOperation } from "../registry.js";
import { conflict, notFound } from "../shared/errors.js";
import { listOf, pageQuery, paginate, paginateSorted } from "../shared/pagination.js";
import { atLeast } from "../shared/roles.js";
import { nextSequence } from "../shared/sequence.js";
import { boundedId, queryBoolean } from "../shared/schema.js";
import type { Context } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import { presentSite } from "../sites/present.js";
import { sitesTable } from "../sites/tables.js";
import { spacePermissions } from "../spaces/permissions.js";
import { spacesTable } from "../spaces/tables.js";
import { findOrganization, onIntegration, type IntegrationAccess } from "./access.js";
import { recordEvent } from "./delivery.js";
import { installationLocation, presentInstallation } from "./present.js";
import {
  type Installation,
  installationSchema,
  integrationParams,
  siteInstallationSchema,
  spaceInstallationSchema,
} from "./schemas.js";
import { type InstallationRecord, installationsTable, type IntegrationRecord } from "./tables.js";
import { presentSpace } from "../spaces/present.js";

/**
 * Installations of an integration into organizations (docs/integrations.md, "Installations").
 * An installation covers all the spaces and sites of its organization (`space_selection` and
 * `site_selection` are `all`), as far as the integration's `target` reaches: the space and site
 * installation lists are derived from it.
 *
 * Who sees an installation: the admins of the integration's owner organization see every one;
 * anyone else sees those of the organizations where they have the `read` role or above.
 */

const tag = "integrations";

/** Whether installations of this integration reach spaces, sites. */
const reachesSpaces = (integration: IntegrationRecord) => ["all", "space"].includes(integration.target);
const reachesSites = (integration: IntegrationRecord) => ["all", "site"].includes(integration.target);

/** How many spaces an installation of the integration in `organization` manages. */
export async function spaceCount(tx: ReadTransaction, integration: IntegrationRecord, organization: string) {
  if (!reachesSpaces(integration)) return 0;
  return tx.count(spacesTable, { index: "byOrganization", where: [organization, "live"] });
}

/** Memberships of the caller by organization, looked up once each. */
function membershipsOf(tx: ReadTransaction, context: Context) {
  const cache = new Map<string, Promise<Membership | undefined>>();
  return (organization: string) => {
    let found = cache.get(organization);
    if (!found) {
      found = findMembership(tx, context, organization).then((membership) =>
        membership && atLeast(membership.role, "read") ? membership : undefined,
      );
      cache.set(organization, found);
    }
    return found;
  };
}

/** Whether the caller may see an installation of the integration (see the top of this file). */
export function visibleInstallations(scope: Context & IntegrationAccess & { tx: ReadTransaction }) {
  const membership = membershipsOf(scope.tx, scope);
  return async (installation: InstallationRecord) =>
    scope.permissions.admin || (await membership(installation.organization)) !== undefined;
}

export const installIntegration = defineOperation({
  id: "installIntegration",
  method: "post",
  path: "/integrations/{integrationName}/installations",
  tag,
  summary:
    "Install an integration into an organization the caller administers (once per organization); records an `installation_setup` event",
  access: onIntegration("view"),
  params: integrationParams,
  body: z.object({ organization: boundedId() }),
  response: installationSchema,
  status: 201,
  async run(scope, { body }) {
    const { tx, integration } = scope;
    const organization = await findOrganization(tx, body.organization);
    if (!organization) throw notFound(`body.organization: no organization "${body.organization}"`);
    const membership = await requireMembership(tx, scope, organization.id);
    requirePermission(await permissionsOf(tx, membership), "installIntegration", "Installing an integration");
    const [existing] = await tx.list(installationsTable, {
      index: "byOrganization",
      where: [organization.id, integration.name],
      limit: 1,
    });
    if (existing) {
      throw conflict(`body.organization: "${integration.name}" is already installed in "${organization.id}"`);
    }
    const now = scope.clock().toISOString();
    const installation: InstallationRecord = {
      id: scope.ids(),
      integration: integration.name,
      organization: organization.id,
      status: "active",
      configuration: {},
      externalIds: [],
      seq: await nextSequence(tx, `integration:${integration.name}`),
      createdAt: now,
      updatedAt: now,
    };
    await tx.put(installationsTable, installation);
    await recordEvent(tx, scope, integration, installation, {
      type: "installation_setup",
      installationId: installation.id,
      status: installation.status,
    });
    const presented = presentInstallation(
      scope,
      installation,
      await spaceCount(tx, integration, organization.id),
    );
    return new Reply(201, presented, { location: installationLocation(scope, installation) });
  },
});

const externalIdQuery = { externalId: z.string().min(1).max(256).optional() };

export const listIntegrationInstallations = defineOperation({
  id: "listIntegrationInstallations",
  method: "get",
  path: "/integrations/{integrationName}/installations",
  tag,
  summary:
    "List the installations of an integration, oldest first: all for its owner's admins, else those of the caller's organizations",
  access: onIntegration("view"),
  params: integrationParams,
  query: z.object({ ...pageQuery, ...externalIdQuery }),
  response: listOf(installationSchema),
  async run(scope, { query }) {
    const { tx, integration } = scope;
    const visible = visibleInstallations(scope);
    return paginate<InstallationRecord, Installation>(tx, query, {
      table: installationsTable,
      index: "byIntegration",
      where: [integration.name],
      async filter(installation) {
        if (query.externalId !== undefined && !installation.externalIds.includes(query.externalId))
          return false;
        return visible(installation);
      },
      map: async (installation) =>
        presentInstallation(
          scope,
          installation,
          await spaceCount(tx, integration, installation.organization),
        ),
    });
  },
});

/** The installations (oldest first) whose content entries the caller may list, with the membership. */
async function contentInstallations(
  scope: Context & IntegrationAccess & { tx: ReadTransaction },
  externalId: string | undefined,
) {
  const membership = membershipsOf(scope.tx, scope);
  const installations = await scope.tx.list(installationsTable, {
    index: "byIntegration",
    where: [scope.integration.name],
  });
  const found: { installation: InstallationRecord; member: Membership }[] = [];
  // Content entries carry no external ids of their own yet: an `externalId` filter matches none.
  if (externalId !== undefined) return found;
  for (const installation of installations) {
    const member = await membership(installation.organization);
    if (member) found.push({ installation, member });
  }
  return found;
}

/*
 * The space and site lists page in memory: entries come in the order of the indexes they are read
 * from (installations by `seq`, spaces by position, sites by creation, then id), which is the
 * order of their position tuples, as `paginateSorted` requires.
 */

function entryBase(scope: Context, installation: InstallationRecord, kind: "spaces" | "sites", id: string) {
  const location = `${installationLocation(scope, installation)}/${kind}/${id}`;
  return {
    integration: installation.integration,
    installation: installation.id,
    status: installation.status,
    configuration: {},
    externalIds: [],
    urls: { location, publicEndpoint: `${location}/endpoint` },
  };
}

const extendedQuery = z.object({
  ...pageQuery,
  ...externalIdQuery,
  extended: queryBoolean().optional(),
});

export const listIntegrationSpaceInstallations = defineOperation({
  id: "listIntegrationSpaceInstallations",
  method: "get",
  path: "/integrations/{integrationName}/spaces",
  tag,
  summary:
    "List the spaces the integration is installed on that the caller can see; `extended` gives space objects instead of ids",
  access: onIntegration("view"),
  params: integrationParams,
  query: extendedQuery,
  response: listOf(spaceInstallationSchema),
  async run(scope, { query }) {
    const { tx, integration } = scope;
    const entries: z.input<typeof spaceInstallationSchema>[] = [];
    const positions = new Map<object, [number, string, string]>();
    if (reachesSpaces(integration)) {
      for (const { installation, member } of await contentInstallations(scope, query.externalId)) {
        const spaces = await tx.list(spacesTable, {
          index: "byOrganization",
          where: [installation.organization, "live"],
        });
        for (const space of spaces) {
          if (!spacePermissions(await contentRole(tx, member, space), space).view) continue;
          const entry = {
            ...entryBase(scope, installation, "spaces", space.id),
            space: query.extended ? await presentSpace(tx, scope, member, space) : space.id,
          };
          entries.push(entry);
          positions.set(entry, [installation.seq, space.position, space.id]);
        }
      }
    }
    return paginateSorted(entries, query, {
      scope: `integration-spaces:${integration.name}`,
      position: (entry) => positions.get(entry)!,
    });
  },
});

export const listIntegrationSiteInstallations = defineOperation({
  id: "listIntegrationSiteInstallations",
  method: "get",
  path: "/integrations/{integrationName}/sites",
  tag,
  summary:
    "List the sites the integration is installed on that the caller can see; `extended` gives site objects instead of ids",
  access: onIntegration("view"),
  params: integrationParams,
  query: extendedQuery,
  response: listOf(siteInstallationSchema),
  async run(scope, { query }) {
    const { tx, integration } = scope;
    const entries: z.input<typeof siteInstallationSchema>[] = [];
    const positions = new Map<object, [number, string, string]>();
    if (reachesSites(integration)) {
      for (const { installation } of await contentInstallations(scope, query.externalId)) {
        const sites = await tx.list(sitesTable, {
          index: "byOrganization",
          where: [installation.organization],
        });
        for (const site of sites) {
          const entry = {
            ...entryBase(scope, installation, "sites", site.id),
            site: query.extended ? await presentSite(tx, scope, site) : site.id,
          };
          entries.push(entry);
          positions.set(entry, [installation.seq, site.createdAt, site.id]);
        }
      }
    }
    return paginateSorted(entries, query, {
      scope: `integration-sites:${integration.name}`,
      position: (entry) => positions.get(entry)!,
    });
  },
});

export const installationOperations = {
  installIntegration,
  listIntegrationInstallations,
  listIntegrationSpaceInstallations,
  listIntegrationSiteInstallations,
};
