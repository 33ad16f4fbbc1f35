import * as z from "zod";
import { callableByIntegration } from "../permissions/integration-token.js";
import { findMembership, type Membership } from "../permissions/membership.js";
import { anyCaller } from "../permissions/rules.js";
import { defineOperation, deleted, noContent } from "../registry.js";
import { conflict, forbidden, notFound } from "../shared/errors.js";
import { LARGE_ITEMS_PAGE_CHARS, listOf, pageQuery, paginate } from "../shared/pagination.js";
import { isHttpUrl, queryBoolean } from "../shared/schema.js";
import type { WriteTransaction } from "../storage/port.js";
import {
  findOrganization,
  integrationPermissions,
  onIntegration,
  onIntegrationIfPresent,
  readerMembership,
  viewerOf,
} from "./access.js";
import { newSigningSecret } from "./delivery.js";
import { presentIntegration } from "./present.js";
import {
  type Integration,
  integrationParams,
  integrationSchema,
  MAX_INTEGRATIONS_PAGE,
  MAX_PUBLIC_INTEGRATIONS,
  publishIntegrationBody,
} from "./schemas.js";
import {
  eventsTable,
  installationsTable,
  integrationAssetsTable,
  integrationCategory,
  type IntegrationRecord,
  integrationScope,
  integrationsTable,
  integrationTarget,
} from "./tables.js";

const tag = "integrations";

export const publishIntegration = defineOperation({
  id: "publishIntegration",
  method: "post",
  path: "/integrations/{integrationName}",
  tag,
  summary:
    "Publish an integration, or a new version of it (`version` + 1), owned by an organization the caller administers",
  access: anyCaller,
  params: integrationParams,
  body: publishIntegrationBody,
  response: integrationSchema,
  async run(scope, { params, body }) {
    const { tx } = scope;
    const organization = await findOrganization(tx, body.organization);
    const membership = organization && (await findMembership(tx, scope, organization.id));
    // A non-member is answered as for a missing organization, so ids cannot be confirmed.
    if (!organization || !membership)
      throw notFound(`body.organization: no organization "${body.organization}"`);
    if (membership.role !== "admin") {
      throw forbidden(
        `Publishing an integration needs the "admin" role in organization "${organization.id}"`,
      );
    }
    const previous = await tx.get(integrationsTable, params.integrationName);
    if (previous && previous.organization !== organization.id) {
      throw conflict(`path.integrationName: "${params.integrationName}" is owned by another organization`);
    }
    const visibility = body.visibility ?? "private";
    if (visibility === "public" && previous?.visibility !== "public") {
      const published = await tx.count(integrationsTable, {
        index: "byOrganizationVisibility",
        where: [organization.id, "public"],
      });
      if (published >= MAX_PUBLIC_INTEGRATIONS) {
        throw conflict(
          `body.visibility: organization "${organization.id}" already has ${MAX_PUBLIC_INTEGRATIONS} public integrations, the most it may have; unpublish one or make it unlisted or private first`,
        );
      }
    }
    const now = scope.clock().toISOString();
    const integration: IntegrationRecord = {
      name: params.integrationName,
      organization: organization.id,
      version: (previous?.version ?? 0) + 1,
      runtime: body.runtime ?? "v1",
      title: body.title,
      description: body.description,
      ...(body.summary !== undefined ? { summary: body.summary } : {}),
      images: {
        icon: body.icon !== undefined && body.icon !== "",
        previews: body.previewImages?.length ?? 0,
      },
      visibility,
      target: body.target ?? "all",
      scopes: body.scopes,
      categories: body.categories ?? [],
      blocks: body.blocks ?? [],
      contentSources: body.contentSources ?? [],
      externalLinks: body.externalLinks ?? [],
      configurations: body.configurations ?? {},
      // Omitted secrets keep the previous ones; `{}` clears them.
      secrets: body.secrets ?? previous?.secrets ?? {},
      ...(body.contentSecurityPolicy !== undefined
        ? { contentSecurityPolicy: body.contentSecurityPolicy }
        : {}),
      signingSecret: previous?.signingSecret ?? newSigningSecret(),
      ...(previous?.dev ? { dev: previous.dev } : {}),
      createdAt: previous?.createdAt ?? now,
      updatedAt: now,
    };
    await tx.put(integrationsTable, integration);
    // The large fields go apart, so that what reads the record does not read them (tables.ts).
    await tx.put(integrationAssetsTable, {
      integration: integration.name,
      version: integration.version,
      ...(body.icon !== undefined ? { icon: body.icon } : {}),
      previewImages: body.previewImages ?? [],
      script: body.script,
    });
    return presentIntegration(tx, scope, integration, {
      ownerMembership: membership,
      permissions: integrationPermissions(integration, membership),
    });
  },
});

/** The host of a block's URL pattern (`https://*.example.com/**` → `example.com`), lower-cased. */
function patternHost(pattern: string): string {
  const afterScheme = pattern.includes("://") ? pattern.slice(pattern.indexOf("://") + 3) : pattern;
  return afterScheme
    .split(/[/?#]/)[0]!
    .replace(/:\d+$/, "")
    .replace(/^(\*\.)+/, "")
    .toLowerCase();
}

function unfurlsDomain(integration: IntegrationRecord, domain: string): boolean {
  const wanted = domain.toLowerCase();
  return integration.blocks.some((block) =>
    ((block["urlUnfurl"] as string[] | undefined) ?? []).some((pattern) => {
      const host = patternHost(pattern);
      return host === wanted || host.endsWith(`.${wanted}`);
    }),
  );
}

const listQuery = z.object({
  ...pageQuery,
  search: z.string().max(256).optional(),
  category: integrationCategory.optional(),
  blockDomain: z
    .string()
    .max(100)
    .regex(/^[a-zA-Z0-9-_.]+$/, "Letters, digits, '-', '_' and '.' only")
    .optional(),
  blocks: queryBoolean().optional(),
  contentSources: queryBoolean().optional(),
  owner: z.string().min(1).max(128).optional(),
  scope: integrationScope.optional(),
  target: integrationTarget.optional(),
});

/** Whether an integration passes the list's filters (docs/integrations.md, "Who sees what"). */
function matches(integration: IntegrationRecord, query: z.output<typeof listQuery>): boolean {
  const search = query.search?.toLowerCase();
  const has = (list: readonly unknown[], wanted: boolean | undefined) =>
    wanted === undefined || list.length > 0 === wanted;
  return (
    (search === undefined ||
      integration.name.toLowerCase().includes(search) ||
      integration.title.toLowerCase().includes(search)) &&
    (!query.category || integration.categories.includes(query.category)) &&
    (!query.scope || integration.scopes.includes(query.scope)) &&
    (!query.target || integration.target === query.target || integration.target === "all") &&
    has(integration.blocks, query.blocks) &&
    has(integration.contentSources, query.contentSources) &&
    (query.blockDomain === undefined || unfurlsDomain(integration, query.blockDomain))
  );
}

export const listIntegrations = defineOperation({
  id: "listIntegrations",
  method: "get",
  path: "/integrations",
  tag,
  summary:
    "List integrations by name: public ones, or with `owner` those of one organization the caller may see; filters by search, category, block domain, blocks, content sources, scope and target",
  access: anyCaller,
  query: listQuery,
  response: listOf(integrationSchema),
  async run(scope, { query }) {
    const { tx } = scope;
    let range: { index: string; where: [string] } = { index: "byVisibility", where: ["public"] };
    let ownerMembership: Membership | undefined;
    if (query.owner !== undefined) {
      const organization = await findOrganization(tx, query.owner);
      // An unknown owner lists nothing rather than telling which organizations exist.
      if (!organization) return { count: 0, items: [] };
      ownerMembership = await readerMembership(tx, scope, organization.id);
      range = { index: "byOrganization", where: [organization.id] };
    }
    // A page holds at most MAX_INTEGRATIONS_PAGE items whatever `limit` asks: with each item's
    // size bounded, so is the page's; `next` leads on.
    const limit = Math.min(query.limit ?? MAX_INTEGRATIONS_PAGE, MAX_INTEGRATIONS_PAGE);
    return paginate<IntegrationRecord, Integration>(
      tx,
      { ...query, limit },
      {
        table: integrationsTable,
        ...range,
        filter: (integration) =>
          (integration.visibility === "public" || ownerMembership !== undefined) &&
          matches(integration, query),
        map: async (integration) =>
          presentIntegration(tx, scope, integration, await viewerOf(tx, scope, integration)),
        // The owner's members get its full Organization, whose merge rules may be megabytes.
        maxChars: LARGE_ITEMS_PAGE_CHARS,
      },
    );
  },
});

export const getIntegrationByName = defineOperation({
  id: "getIntegrationByName",
  method: "get",
  path: "/integrations/{integrationName}",
  tag,
  summary:
    "Get an integration by its name (public and unlisted ones: anyone; private: its owner's members and the integration itself)",
  access: callableByIntegration(onIntegration("view")),
  params: integrationParams,
  response: integrationSchema,
  run: (scope) => presentIntegration(scope.tx, scope, scope.integration, scope),
});

/** Removes an integration with its installations and events. */
async function deleteIntegration(tx: WriteTransaction, integration: IntegrationRecord): Promise<void> {
  for (const installation of await tx.list(installationsTable, {
    index: "byIntegration",
    where: [integration.name],
  })) {
    await tx.delete(installationsTable, installation.id);
  }
  for (const event of await tx.list(eventsTable, { index: "byIntegration", where: [integration.name] })) {
    await tx.delete(eventsTable, event.id);
  }
  await tx.delete(integrationAssetsTable, integration.name);
  await tx.delete(integrationsTable, integration.name);
}

export const unpublishIntegration = defineOperation({
  id: "unpublishIntegration",
  method: "delete",
  path: "/integrations/{integrationName}",
  tag,
  summary: "Unpublish an integration with its installations and events (205; 204 when there was none to see)",
  access: onIntegrationIfPresent("admin"),
  params: integrationParams,
  emptyStatuses: [204, 205],
  async run(scope) {
    if (!scope.integration) return deleted(false);
    await deleteIntegration(scope.tx, scope.integration);
    return deleted(true);
  },
});

export const setIntegrationDevelopmentMode = defineOperation({
  id: "setIntegrationDevelopmentMode",
  method: "put",
  path: "/integrations/{integrationName}/dev",
  tag,
  summary:
    "Turn development mode on: events go to `tunnelUrl`, signed; the owner organization's only unless `all`",
  access: onIntegration("admin"),
  params: integrationParams,
  body: z.object({
    tunnelUrl: z
      .string()
      .min(1)
      .max(256)
      .refine(isHttpUrl, { error: "Expected an absolute http: or https: URL" }),
    all: z.boolean().optional(),
  }),
  emptyStatuses: [204],
  async run(scope, { body }) {
    const { tx, integration } = scope;
    await tx.put(integrationsTable, {
      ...integration,
      dev: { tunnelUrl: body.tunnelUrl, all: body.all ?? false },
    });
    return noContent();
  },
});

export const disableIntegrationDevelopmentMode = defineOperation({
  id: "disableIntegrationDevelopmentMode",
  method: "delete",
  path: "/integrations/{integrationName}/dev",
  tag,
  summary:
    "Turn development mode off: events are recorded and no longer delivered (205; 204 when it was off)",
  access: onIntegration("admin"),
  params: integrationParams,
  emptyStatuses: [204, 205],
  async run(scope) {
    const { tx, integration } = scope;
    if (!integration.dev) return deleted(false);
    const { dev: _dev, ...rest } = integration;
    await tx.put(integrationsTable, rest);
    return deleted(true);
  },
});

export const integrationOperations = {
  publishIntegration,
  listIntegrations,
  getIntegrationByName,
  unpublishIntegration,
  setIntegrationDevelopmentMode,
  disableIntegrationDevelopmentMode,
};
