import * as z from "zod";
import { defineOperation, deleted, Reply } from "../registry.js";
import { conflict, notFound } from "../shared/errors.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import { pathParam } from "../shared/schema.js";
import type { World } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import { onSite } from "./access.js";
import { siteLocation } from "./present.js";
import { onSiteForReadersOrToken } from "./readers.js";
import {
  presentSiteRedirect,
  redirectTarget,
  requireRedirectTarget,
  siteRedirectDestinationInput,
  siteRedirectSchema,
  siteRedirectSource,
  type SiteRedirect,
} from "./redirect-targets.js";
import { siteParams } from "./schemas.js";
import { shareKeyQuery } from "./sections.js";
import { type SiteRecord, type SiteRedirectRecord, siteRedirectsTable } from "./tables.js";

/**
 * Redirects of a site: a `source` path within the site that leads to a section, a site space or a
 * page of the site (docs/sites.md, "Redirects"). Sources are unique within a site, compared as
 * written. Members who can view the site list them; its admins create, update and delete them.
 * `getSiteRedirectBySource` resolves one for whoever reads the published site, a reader token of
 * the site included.
 */

const tag = "site-redirects";
const redirectParams = siteParams.extend({ siteRedirectId: pathParam() });

/** Most redirects a site holds: one more answers 409. */
export const MAX_REDIRECTS_PER_SITE = 5000;
/** Most characters of the `search` filter of the list. */
export const MAX_REDIRECT_SEARCH_LENGTH = 512;

/** The URL of a redirect in the API (the reference's redirects have no `urls.location`). */
const redirectLocation = (world: World, redirect: SiteRedirectRecord) =>
  `${siteLocation(world, { id: redirect.site, organization: redirect.organization })}/redirects/${redirect.id}`;

/** The redirect `id` of the site, or undefined (one of another site is not found either). */
async function findRedirect(
  tx: ReadTransaction,
  site: SiteRecord,
  id: string,
): Promise<SiteRedirectRecord | undefined> {
  const redirect = await tx.get(siteRedirectsTable, id);
  return redirect && redirect.site === site.id ? redirect : undefined;
}

/** The redirect of `site` whose source is `source`, or undefined. */
export async function redirectFrom(
  tx: ReadTransaction,
  site: SiteRecord,
  source: string,
): Promise<SiteRedirectRecord | undefined> {
  const [redirect] = await tx.list(siteRedirectsTable, {
    index: "bySource",
    where: [site.id, source],
    limit: 1,
  });
  return redirect;
}

/** Fails with 409 when another redirect of the site has `source`. */
async function requireFreeSource(tx: ReadTransaction, site: SiteRecord, source: string, self?: string) {
  const holder = await redirectFrom(tx, site, source);
  if (holder && holder.id !== self) {
    throw conflict(`body.source: "${source}" already redirects in this site (redirect "${holder.id}")`);
  }
}

export const listSiteRedirects = defineOperation({
  id: "listSiteRedirects",
  method: "get",
  path: "/orgs/{organizationId}/sites/{siteId}/redirects",
  tag,
  summary: "List the redirects of a site by source; `search` keeps sources containing it (any case)",
  params: siteParams,
  access: onSite("view"),
  query: z.object({ ...pageQuery, search: z.string().max(MAX_REDIRECT_SEARCH_LENGTH).optional() }),
  response: listOf(siteRedirectSchema),
  async run({ tx, site }, { query }) {
    const search = query.search?.toLowerCase();
    return paginate<SiteRedirectRecord, SiteRedirect>(tx, query, {
      table: siteRedirectsTable,
      index: "bySource",
      where: [site.id],
      ...(search ? { filter: (redirect) => redirect.source.toLowerCase().includes(search) } : {}),
      map: presentSiteRedirect,
    });
  },
});

export const createSiteRedirect = defineOperation({
  id: "createSiteRedirect",
  method: "post",
  path: "/orgs/{organizationId}/sites/{siteId}/redirects",
  tag,
  summary: "Create a redirect from a path of the site to one of its sections, site spaces or pages",
  params: siteParams,
  access: onSite("admin"),
  body: z.object({ source: siteRedirectSource, destination: siteRedirectDestinationInput }),
  response: siteRedirectSchema,
  status: 201,
  async run(scope, { body }) {
    const { tx, site } = scope;
    await requireRedirectTarget(tx, scope, site, body.destination);
    await requireFreeSource(tx, site, body.source);
    const count = await tx.count(siteRedirectsTable, { index: "bySource", where: [site.id] });
    if (count >= MAX_REDIRECTS_PER_SITE) {
      throw conflict(`A site holds at most ${MAX_REDIRECTS_PER_SITE} redirects`);
    }
    const redirect: SiteRedirectRecord = {
      id: scope.ids(),
      site: site.id,
      organization: site.organization,
      source: body.source,
      destination: body.destination,
      createdAt: scope.clock().toISOString(),
    };
    await tx.put(siteRedirectsTable, redirect);
    return new Reply(201, presentSiteRedirect(redirect), { location: redirectLocation(scope, redirect) });
  },
});

export const updateSiteRedirectById = defineOperation({
  id: "updateSiteRedirectById",
  method: "patch",
  path: "/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}",
  tag,
  summary: "Change a redirect's source or destination",
  params: redirectParams,
  access: onSite("admin"),
  body: z.object({
    source: siteRedirectSource.optional(),
    destination: siteRedirectDestinationInput.optional(),
  }),
  response: siteRedirectSchema,
  async run(scope, { params, body }) {
    const { tx, site } = scope;
    const redirect = await findRedirect(tx, site, params.siteRedirectId);
    if (!redirect) throw notFound(`Site redirect "${params.siteRedirectId}" not found`);
    if (body.destination) await requireRedirectTarget(tx, scope, site, body.destination);
    if (body.source !== undefined) await requireFreeSource(tx, site, body.source, redirect.id);
    const updated: SiteRedirectRecord = {
      ...redirect,
      ...(body.source !== undefined ? { source: body.source } : {}),
      ...(body.destination ? { destination: body.destination } : {}),
    };
    await tx.put(siteRedirectsTable, updated);
    return presentSiteRedirect(updated);
  },
});

export const deleteSiteRedirectById = defineOperation({
  id: "deleteSiteRedirectById",
  method: "delete",
  path: "/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}",
  tag,
  summary: "Delete a redirect (205; 204 when there was none)",
  params: redirectParams,
  access: onSite("admin"),
  emptyStatuses: [204, 205],
  async run({ tx, site }, { params }) {
    const redirect = await findRedirect(tx, site, params.siteRedirectId);
    if (!redirect) return deleted(false);
    await tx.delete(siteRedirectsTable, redirect.id);
    return deleted(true);
  },
});

export const getSiteRedirectBySource = defineOperation({
  id: "getSiteRedirectBySource",
  method: "get",
  path: "/orgs/{organizationId}/sites/{siteId}/redirect",
  tag,
  summary:
    "The redirect of a source path and the published URL it leads to (`target`); 404 when none, or when its destination is gone",
  params: siteParams,
  access: onSiteForReadersOrToken(),
  query: z.object({ source: siteRedirectSource, ...shareKeyQuery }),
  response: z.object({ redirect: siteRedirectSchema, target: z.string() }),
  async run(scope, { query }) {
    const { tx, site } = scope;
    const redirect = await redirectFrom(tx, site, query.source);
    if (!redirect) throw notFound(`No redirect from "${query.source}" in this site`);
    const target = await redirectTarget(tx, scope, site, redirect.destination);
    if (!target) throw notFound(`The destination of the redirect from "${query.source}" no longer exists`);
    return { redirect: presentSiteRedirect(redirect), target };
  },
});

export const redirectOperations = {
  listSiteRedirects,
  createSiteRedirect,
  updateSiteRedirectById,
  deleteSiteRedirectById,
  getSiteRedirectBySource,
};
