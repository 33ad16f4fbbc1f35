import * as z from "zod";
import { loadRevision } from "../content-tree/revisions.js";
import { badRequest } from "../shared/errors.js";
import { boundedId } from "../shared/schema.js";
import type { World } from "../shared/world.js";
import { spacesTable } from "../spaces/tables.js";
import type { ReadTransaction } from "../storage/port.js";
import { readerUrl, sectionUrl, siteSpaceUrl } from "./present.js";
import { findNode, findSiteSpace } from "./structure.js";
import type { SiteRecord, SiteRedirectDestination, SiteRedirectRecord } from "./tables.js";

/**
 * What a site redirect points at, and the URL it leads to. A destination names a section, a site
 * space or a page of the site's own structure (the reference's `SiteRedirectDestination`), never a
 * free URL: its published URL follows the structure, so moving a section, renaming a site space's
 * path or a page's slug moves the target with it.
 */

/** Most characters of a `source` (the reference's `SiteRedirectSourcePath`). */
export const MAX_REDIRECT_SOURCE_LENGTH = 512;

/**
 * The reference's `SiteRedirectSourcePath`: `/` followed by segments of unreserved characters or
 * %-escapes, without an empty segment or a trailing slash.
 */
export const siteRedirectSource = z
  .string()
  .max(MAX_REDIRECT_SOURCE_LENGTH)
  .regex(/^\/(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})+)*$/, {
    error:
      "Expected a path within the site such as /old/page: '/' then segments of letters, digits, '-', '.', '_', '~' or %XX escapes, with no empty segment or trailing slash",
  });

/** A destination as a request names it: its ids bounded like every id. */
export const siteRedirectDestinationInput = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("site-section"), siteSectionId: boundedId() }),
  z.object({ kind: z.literal("site-space"), siteSpaceId: boundedId() }),
  z.object({ kind: z.literal("site-page"), siteSpaceId: boundedId(), pageId: boundedId() }),
]);

export const siteRedirectSchema = z.object({
  object: z.literal("site-redirect"),
  id: z.string(),
  source: z.string(),
  destination: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("site-section"), siteSectionId: z.string() }),
    z.object({ kind: z.literal("site-space"), siteSpaceId: z.string() }),
    z.object({ kind: z.literal("site-page"), siteSpaceId: z.string(), pageId: z.string() }),
  ]),
});
export type SiteRedirect = z.infer<typeof siteRedirectSchema>;

export const presentSiteRedirect = (redirect: SiteRedirectRecord): SiteRedirect => ({
  object: "site-redirect",
  id: redirect.id,
  source: redirect.source,
  destination: redirect.destination,
});

/**
 * The published URL `destination` leads to now, or undefined when what it names is gone: a section
 * or site space removed, the space deleted, the page not in the space's current revision.
 */
export async function redirectTarget(
  tx: ReadTransaction,
  world: World,
  site: SiteRecord,
  destination: SiteRedirectDestination,
): Promise<string | undefined> {
  if (destination.kind === "site-section") {
    const section = await findNode(tx, site, "section", destination.siteSectionId);
    return section && readerUrl(world, sectionUrl(world, site, section));
  }
  const siteSpace = await findSiteSpace(tx, site, destination.siteSpaceId);
  if (!siteSpace) return undefined;
  const section = siteSpace.section ? await findNode(tx, site, "section", siteSpace.section) : undefined;
  const url = readerUrl(world, siteSpaceUrl(world, site, section, siteSpace));
  if (destination.kind === "site-space") return url;
  const space = await tx.get(spacesTable, siteSpace.space);
  const revision = space && (await loadRevision(tx, world, space.revision));
  const path = await revision?.path(destination.pageId);
  return path === undefined ? undefined : `${url}${path}`;
}

/** Fails with 400 naming the field unless `destination` names something of the site now. */
export async function requireRedirectTarget(
  tx: ReadTransaction,
  world: World,
  site: SiteRecord,
  destination: SiteRedirectDestination,
): Promise<void> {
  if (await redirectTarget(tx, world, site, destination)) return;
  switch (destination.kind) {
    case "site-section":
      throw badRequest(
        `body.destination.siteSectionId: no section "${destination.siteSectionId}" in this site`,
      );
    case "site-space":
      throw badRequest(
        `body.destination.siteSpaceId: no site space "${destination.siteSpaceId}" in this site`,
      );
    case "site-page":
      if (!(await findSiteSpace(tx, site, destination.siteSpaceId))) {
        throw badRequest(
          `body.destination.siteSpaceId: no site space "${destination.siteSpaceId}" in this site`,
        );
      }
      throw badRequest(`body.destination.pageId: no page "${destination.pageId}" in that site space's space`);
  }
}
