import * as z from "zod";
import { inOrganization } from "../permissions/organization.js";
import { defineOperation, deleted } from "../registry.js";
import { badRequest, conflict, notFound } from "../shared/errors.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import { boundedId, queryBoolean } from "../shared/schema.js";
import type { ReadTransaction, WriteTransaction } from "../storage/port.js";
import { onSite, onSiteIfPresent, sitePermissions } from "./access.js";
import { claimHostname } from "./hostnames.js";
import { presentSite } from "./present.js";
import {
  siteBasename,
  siteHostname,
  siteParams,
  siteProxy,
  siteSchema,
  siteTitle,
  type Site,
} from "./schemas.js";
import { newPublishingKey } from "../visitors/visitor-token.js";
import { addSiteSpace, requireSiteSpaceTarget, sectionsOf, siteSpacesOf } from "./structure.js";
import {
  shareLinksTable,
  siteAgentsContext,
  siteNodesTable,
  type SiteRecord,
  siteCustomizationsTable,
  siteRedirectsTable,
  sitesTable,
  siteSpacesTable,
  SITE_TYPES,
  siteType,
  siteVisibility,
} from "./tables.js";

const tag = "sites";
const organizationParams = z.object({ organizationId: z.string().min(1).max(128) });

/** The title of a site created without one. */
export const UNTITLED_SITE = "Untitled site";

/** Fails with 409 when another site already uses `basename`. */
async function requireUniqueBasename(tx: ReadTransaction, site: string, basename: string): Promise<void> {
  const found = await tx.list(sitesTable, { index: "byBasename", where: [basename], limit: 2 });
  if (found.some((other) => other.id !== site)) {
    throw conflict(`body.basename: "${basename}" is already used by another site`);
  }
}

export const listSites = defineOperation({
  id: "listSites",
  method: "get",
  path: "/orgs/{organizationId}/sites",
  tag,
  summary: "List the sites of an organization, oldest first; filters by space, title, published and type",
  params: organizationParams,
  access: inOrganization("member"),
  query: z.object({
    ...pageQuery,
    space: boundedId().optional(),
    title: z.string().max(128).optional(),
    published: queryBoolean().optional(),
    /** One type or several (`type=basic&type=premium`, the reference's array). */
    type: z
      .union([siteType, z.array(siteType).max(SITE_TYPES.length)])
      .transform((types) => (Array.isArray(types) ? types : [types]))
      .optional(),
  }),
  response: listOf(siteSchema),
  async run(scope, { query }) {
    const { tx, membership } = scope;
    if (!sitePermissions(membership).view)
      throw notFound(`Organization "${membership.organization.id}" not found`);
    const title = query.title?.toLowerCase();
    const filtered = title !== undefined || query.published !== undefined || query.type || query.space;
    return paginate<SiteRecord, Site>(tx, query, {
      table: sitesTable,
      index: "byOrganization",
      where: [membership.organization.id],
      ...(filtered
        ? {
            async filter(site: SiteRecord) {
              if (title !== undefined && !site.title.toLowerCase().includes(title)) return false;
              if (query.published !== undefined && site.published !== query.published) return false;
              if (query.type && !query.type.includes(site.type)) return false;
              if (query.space) {
                const uses = await tx.count(siteSpacesTable, {
                  index: "bySpace",
                  where: [query.space, site.id],
                });
                if (uses === 0) return false;
              }
              return true;
            },
          }
        : {}),
      map: (site) => presentSite(tx, scope, site),
    });
  },
});

export const createSite = defineOperation({
  id: "createSite",
  method: "post",
  path: "/orgs/{organizationId}/sites",
  tag,
  summary: "Create a site, unpublished; `spaces` become its site spaces",
  params: organizationParams,
  access: inOrganization("admin"),
  body: z
    .object({
      type: siteType.optional(),
      title: siteTitle.optional(),
      visibility: siteVisibility.optional(),
      spaces: z.array(boundedId()).max(100).optional(),
    })
    .optional(),
  response: siteSchema,
  status: 201,
  async run(scope, { body }) {
    const { tx, membership } = scope;
    const site: SiteRecord = {
      id: scope.ids(),
      organization: membership.organization.id,
      type: body?.type ?? "basic",
      title: body?.title ?? UNTITLED_SITE,
      visibility: body?.visibility ?? "public",
      published: false,
      agentsContext: "included",
      createdAt: scope.clock().toISOString(),
      publishingKey: newPublishingKey(),
    };
    const spaces = body?.spaces ?? [];
    const seen = new Set<string>();
    const targets = [];
    for (const [i, spaceId] of spaces.entries()) {
      if (seen.has(spaceId)) throw badRequest(`body.spaces[${i}]: "${spaceId}" is listed twice`);
      seen.add(spaceId);
      targets.push(await requireSiteSpaceTarget(tx, site, spaceId, `body.spaces[${i}]`));
    }
    await tx.put(sitesTable, site);
    for (const space of targets) await addSiteSpace(tx, scope, site, space, "");
    return presentSite(tx, scope, site);
  },
});

export const getSiteById = defineOperation({
  id: "getSiteById",
  method: "get",
  path: "/orgs/{organizationId}/sites/{siteId}",
  tag,
  summary: "Get a site",
  params: siteParams,
  access: onSite("view"),
  response: siteSchema,
  run: (scope) => presentSite(scope.tx, scope, scope.site),
});

export const updateSiteById = defineOperation({
  id: "updateSiteById",
  method: "patch",
  path: "/orgs/{organizationId}/sites/{siteId}",
  tag,
  summary:
    "Update a site; `proxy` or `hostname` null removes it; default site space and section move their flags",
  params: siteParams,
  access: onSite("admin"),
  body: z.object({
    title: siteTitle.optional(),
    visibility: siteVisibility.optional(),
    basename: siteBasename.optional(),
    hostname: siteHostname.nullable().optional(),
    proxy: siteProxy.nullable().optional(),
    adaptiveContent: z.object({ enabled: z.boolean() }).optional(),
    agentsContext: siteAgentsContext.optional(),
    defaultSiteSpace: boundedId().optional(),
    defaultSiteSection: boundedId().optional(),
  }),
  response: siteSchema,
  async run(scope, { body }) {
    const { tx } = scope;
    let site: SiteRecord = { ...scope.site };
    if (body.title !== undefined) site.title = body.title;
    if (body.visibility !== undefined) site.visibility = body.visibility;
    if (body.basename !== undefined) {
      await requireUniqueBasename(tx, site.id, body.basename);
      site.basename = body.basename;
    }
    if (body.hostname === null) {
      delete site.hostname;
      delete site.hostnameClaim;
    } else if (body.hostname !== undefined) site = await claimHostname(tx, scope, site, body.hostname);
    if (body.proxy === null) delete site.proxy;
    else if (body.proxy !== undefined) site.proxy = body.proxy;
    if (body.adaptiveContent !== undefined) site.adaptiveContent = body.adaptiveContent;
    if (body.agentsContext !== undefined) site.agentsContext = body.agentsContext;
    // Checked before anything is written: a refused default leaves the site as it was.
    const moves = [
      ...(body.defaultSiteSection !== undefined
        ? [await defaultSectionMove(tx, site, body.defaultSiteSection)]
        : []),
    ];
    if (body.defaultSiteSpace !== undefined) {
      moves.push(await defaultSiteSpaceMove(tx, site, body.defaultSiteSpace, body.defaultSiteSection));
    }
    await tx.put(sitesTable, site);
    for (const move of moves) await move();
    return presentSite(tx, scope, site);
  },
});

/** Makes `sectionId` the site's default section; the write happens when the returned function runs. */
async function defaultSectionMove(tx: WriteTransaction, site: SiteRecord, sectionId: string) {
  const sections = await sectionsOf(tx, site.id);
  const target = sections.find((section) => section.id === sectionId);
  if (!target) throw badRequest(`body.defaultSiteSection: no section "${sectionId}" in this site`);
  return async () => {
    for (const section of sections) {
      const isDefault = section.id === sectionId;
      if (section.default !== isDefault) await tx.put(siteNodesTable, { ...section, default: isDefault });
    }
  };
}

/**
 * Makes `siteSpaceId` the default site space of its place: the root of a site without sections,
 * or the default section (the one `defaultSiteSection` names when the same request moves it).
 */
async function defaultSiteSpaceMove(
  tx: WriteTransaction,
  site: SiteRecord,
  siteSpaceId: string,
  newDefaultSection: string | undefined,
) {
  const sections = await sectionsOf(tx, site.id);
  const section =
    sections.length === 0
      ? ""
      : (newDefaultSection ?? sections.find((candidate) => candidate.default)?.id ?? sections[0]!.id);
  const siblings = await siteSpacesOf(tx, site.id, section);
  if (!siblings.some((siteSpace) => siteSpace.id === siteSpaceId)) {
    const place = section ? "the site's default section" : "the site";
    throw badRequest(`body.defaultSiteSpace: no site space "${siteSpaceId}" in ${place}`);
  }
  return async () => {
    for (const siteSpace of siblings) {
      const isDefault = siteSpace.id === siteSpaceId;
      if (siteSpace.default !== isDefault)
        await tx.put(siteSpacesTable, { ...siteSpace, default: isDefault });
    }
  };
}

export const deleteSiteById = defineOperation({
  id: "deleteSiteById",
  method: "delete",
  path: "/orgs/{organizationId}/sites/{siteId}",
  tag,
  summary:
    "Delete a site with its sections, groups, site spaces, share links and redirects (the spaces stay)",
  params: siteParams,
  access: onSiteIfPresent("admin"),
  emptyStatuses: [204, 205],
  async run(scope) {
    const { tx, site } = scope;
    if (!site) return deleted(false);
    await deleteSiteRecords(tx, site);
    return deleted(true);
  },
});

/** Removes a site and everything that belongs to it alone. */
export async function deleteSiteRecords(tx: WriteTransaction, site: SiteRecord): Promise<void> {
  for (const node of await tx.list(siteNodesTable, { index: "bySite", where: [site.id] })) {
    await tx.delete(siteNodesTable, node.id);
  }
  for (const siteSpace of await tx.list(siteSpacesTable, { index: "bySite", where: [site.id] })) {
    await tx.delete(siteSpacesTable, siteSpace.id);
  }
  for (const link of await tx.list(shareLinksTable, { index: "bySite", where: [site.id] })) {
    await tx.delete(shareLinksTable, link.id);
  }
  for (const redirect of await tx.list(siteRedirectsTable, { index: "bySource", where: [site.id] })) {
    await tx.delete(siteRedirectsTable, redirect.id);
  }
  for (const customization of await tx.list(siteCustomizationsTable, { index: "bySite", where: [site.id] })) {
    await tx.delete(siteCustomizationsTable, customization.id);
  }
  await tx.delete(sitesTable, site.id);
}

const publication = <const Id extends string>(id: Id, published: boolean) =>
  defineOperation({
    id,
    method: "post",
    path: `/orgs/{organizationId}/sites/{siteId}/${published ? "publish" : "unpublish"}`,
    tag,
    summary: published
      ? "Publish a site: it becomes readable by its visibility's audience at `urls.published`"
      : "Unpublish a site: only its organization's members can read it",
    params: siteParams,
    access: onSite("admin"),
    response: siteSchema,
    async run(scope) {
      const site: SiteRecord = { ...scope.site, published };
      await scope.tx.put(sitesTable, site);
      return presentSite(scope.tx, scope, site);
    },
  });

export const publishSite = publication("publishSite", true);
export const unpublishSite = publication("unpublishSite", false);

export const siteOperations = {
  listSites,
  createSite,
  getSiteById,
  updateSiteById,
  deleteSiteById,
  publishSite,
  unpublishSite,
};
