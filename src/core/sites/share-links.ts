import * as z from "zod";
import { defineOperation, deleted, Reply } from "../registry.js";
import { badRequest, notFound } from "../shared/errors.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import { pathParam } from "../shared/schema.js";
import { randomId, type World } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import { onSite } from "./access.js";
import { presentShareLink, siteLocation } from "./present.js";
import { type ShareLink, shareLinkName, shareLinkSchema, siteParams } from "./schemas.js";
import { type ShareLinkRecord, shareLinksTable, type SiteRecord } from "./tables.js";

/**
 * Share links of a site. Each link has a secret key that opens the site when its visibility is
 * `share-link` (`shareKey` on published reads, `?share=<key>` in the link's URL). The key is made
 * once, when the link is created, and never changes: an admin who wants a new key deletes the link
 * and creates another. A link is active from its creation; `active: false` closes it without
 * forgetting it.
 *
 * Members with the `read` role list the links of the site, without their keys: `token` and
 * `urls.published` (which holds the key) are shown to the site's admins only. Only admins create,
 * update and delete links.
 */

const tag = "site-share-links";
const shareLinkParams = siteParams.extend({ shareLinkId: pathParam() });

/** Characters of a share key: base62, about 5.95 bits each, so 40 of them give about 238 bits. */
export const SHARE_KEY_LENGTH = 40;

/** The URL of a share link in the API (the reference's share links have no `urls.location`). */
export const shareLinkLocation = (world: World, link: ShareLinkRecord) =>
  `${siteLocation(world, { id: link.site, organization: link.organization })}/share-links/${link.id}`;

/** A new share key, unused by any link of any site. */
async function newShareKey(tx: ReadTransaction): Promise<string> {
  for (;;) {
    const key = randomId(SHARE_KEY_LENGTH);
    if ((await tx.count(shareLinksTable, { index: "byKey", where: [key] })) === 0) return key;
  }
}

/** The link `shareLinkId` of the site, or undefined (a link of another site is not found either). */
async function findShareLink(
  tx: ReadTransaction,
  site: SiteRecord,
  shareLinkId: string,
): Promise<ShareLinkRecord | undefined> {
  const link = await tx.get(shareLinksTable, shareLinkId);
  return link && link.site === site.id ? link : undefined;
}

export const listSiteShareLinks = defineOperation({
  id: "listSiteShareLinks",
  method: "get",
  path: "/orgs/{organizationId}/sites/{siteId}/share-links",
  tag,
  summary: "List the share links of a site, oldest first; keys only for the site's admins",
  params: siteParams,
  access: onSite("view"),
  query: z.object({ ...pageQuery }),
  response: listOf(shareLinkSchema),
  async run(scope, { query }) {
    const { tx, site, permissions } = scope;
    return paginate<ShareLinkRecord, ShareLink>(tx, query, {
      table: shareLinksTable,
      index: "bySite",
      where: [site.id],
      map: (link) => presentShareLink(scope, site, link, { admin: permissions.admin }),
    });
  },
});

export const createSiteShareLink = defineOperation({
  id: "createSiteShareLink",
  method: "post",
  path: "/orgs/{organizationId}/sites/{siteId}/share-links",
  tag,
  summary: "Create a share link, active, with a new secret key",
  params: siteParams,
  access: onSite("admin"),
  body: z.object({ name: shareLinkName }),
  response: shareLinkSchema,
  status: 201,
  async run(scope, { body }) {
    const { tx, site } = scope;
    const link: ShareLinkRecord = {
      id: scope.ids(),
      site: site.id,
      organization: site.organization,
      name: body.name,
      active: true,
      key: await newShareKey(tx),
      createdAt: scope.clock().toISOString(),
    };
    await tx.put(shareLinksTable, link);
    const created = presentShareLink(scope, site, link, { admin: true });
    return new Reply(201, created, { location: shareLinkLocation(scope, link) });
  },
});

export const updateSiteShareLinkById = defineOperation({
  id: "updateSiteShareLinkById",
  method: "patch",
  path: "/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}",
  tag,
  summary: "Rename a share link or turn it on or off (`active`); its key stays",
  params: shareLinkParams,
  access: onSite("admin"),
  body: z.object({ active: z.boolean().optional(), name: shareLinkName.optional() }),
  response: shareLinkSchema,
  async run(scope, { params, body }) {
    const { tx, site } = scope;
    // The reference's body has `minProperties: 1`.
    if (body.active === undefined && body.name === undefined) {
      throw badRequest("body: expected at least one of active, name");
    }
    const link = await findShareLink(tx, site, params.shareLinkId);
    if (!link) throw notFound(`Share link "${params.shareLinkId}" not found`);
    const updated: ShareLinkRecord = {
      ...link,
      ...(body.active !== undefined ? { active: body.active } : {}),
      ...(body.name !== undefined ? { name: body.name } : {}),
    };
    await tx.put(shareLinksTable, updated);
    return presentShareLink(scope, site, updated, { admin: true });
  },
});

export const deleteSiteShareLinkById = defineOperation({
  id: "deleteSiteShareLinkById",
  method: "delete",
  path: "/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}",
  tag,
  summary: "Delete a share link: its key opens nothing any more (205; 204 when there was none)",
  params: shareLinkParams,
  access: onSite("admin"),
  emptyStatuses: [204, 205],
  async run(scope, { params }) {
    const { tx, site } = scope;
    const link = await findShareLink(tx, site, params.shareLinkId);
    if (!link) return deleted(false);
    await tx.delete(shareLinksTable, link.id);
    return deleted(true);
  },
});

export const shareLinkOperations = {
  listSiteShareLinks,
  createSiteShareLink,
  updateSiteShareLinkById,
  deleteSiteShareLinkById,
};
