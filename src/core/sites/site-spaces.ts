import * as z from "zod";
import { defineOperation, deleted, Reply } from "../registry.js";
import { badRequest } from "../shared/errors.js";
import { listOf, pageQuery, paginateSorted } from "../shared/pagination.js";
import { boundedId, pathParam, queryBoolean } from "../shared/schema.js";
import type { World } from "../shared/world.js";
import { onSite } from "./access.js";
import { parseCondition } from "../visitors/conditions.js";
import { loadStructure, presentSiteSpace, presentSiteSpaceNow, siteLocation } from "./present.js";
import { onSiteForReaders } from "./readers.js";
import { conditionText, siteParams, siteSpaceSchema, structurePath, type SiteSpace } from "./schemas.js";
import { readerView, shareKeyQuery } from "./sections.js";
import {
  addSiteSpace,
  findSiteSpace,
  loadTree,
  memberSpaces,
  removeSiteSpace,
  requireFreePath,
  requireSiteSpace,
  requireSiteSpaceTarget,
  siteSpacesOf,
  treeOf,
} from "./structure.js";
import { type SiteSpaceRecord, siteSpacesTable } from "./tables.js";

/**
 * Site spaces: the spaces a site shows, each in a section (or at the root of a site without
 * sections). A new one goes last in its section; the first of a section is its default, and
 * deleting the default passes the flag to the next one (else the one before). Paths are unique
 * among the site spaces of one section (409).
 *
 * Deleting a site space keeps its section even when it leaves it empty: the section is the
 * admin's to delete (or to fill again). Only a space deleted for good takes an emptied section
 * with it (the `purgeSpace` hook, structure.ts). Site spaces of a deleted space are hidden until
 * it is restored or purged: reads leave them out and the other operations answer as if they did
 * not exist.
 *
 * `listSiteSpaces` follows the reader rule of published content (readers.ts; see sections.ts):
 * members read the site spaces as stored; other readers of a published site (public, unlisted, or
 * share-link with an active key of its own in `shareKey`) read those their conditions (with no
 * claims) leave visible, with the defaults a reader sees, and the `default` filter and pages run
 * over that list. Everyone else gets 404.
 */

const tag = "sites";
const siteSpaceParams = siteParams.extend({ siteSpaceId: pathParam() });

const siteSpaceLocation = (world: World, siteSpace: SiteSpaceRecord) =>
  `${siteLocation(world, { id: siteSpace.site, organization: siteSpace.organization })}/site-spaces/${siteSpace.id}`;

export const listSiteSpaces = defineOperation({
  id: "listSiteSpaces",
  method: "get",
  path: "/orgs/{organizationId}/sites/{siteId}/site-spaces",
  tag,
  summary:
    "List the site spaces of a site in structure order; `default` true keeps the defaults only, false the others",
  params: siteParams,
  access: onSiteForReaders(),
  query: z.object({
    ...pageQuery,
    ...shareKeyQuery,
    default: queryBoolean().optional(),
  }),
  response: listOf(siteSpaceSchema),
  async run(scope, { query }) {
    const { tx, site, reader } = scope;
    const stored = await loadStructure(tx, site);
    const { structure, presentSpace } = readerView(tx, scope, reader, stored);
    const tree = treeOf(structure.children);
    // A site with sections whose sections are all hidden from the reader shows nothing (not its root).
    const places = stored.sections.length === 0 ? [undefined] : tree.sections;
    const ordered = places.flatMap((section) =>
      (structure.siteSpaces.get(section?.id ?? "") ?? []).map((siteSpace) => ({
        section,
        siteSpace,
        key: [...(section ? tree.keys.get(section.id)! : []), siteSpace.position, siteSpace.id],
      })),
    );
    const kept =
      query.default === undefined
        ? ordered
        : ordered.filter((item) => item.siteSpace.default === query.default);
    const page = paginateSorted(kept, query, {
      scope: `siteSpaces:${site.id}:${String(query.default)}`,
      position: (item) => item.key,
    });
    const items = await Promise.all(
      page.items.map((item) => presentSiteSpace(scope, site, item.section, item.siteSpace, presentSpace)),
    );
    return { ...page, items: items.filter((item): item is SiteSpace => item !== undefined) };
  },
});

export const addSpaceToSite = defineOperation({
  id: "addSpaceToSite",
  method: "post",
  path: "/orgs/{organizationId}/sites/{siteId}/site-spaces",
  tag,
  summary:
    "Add a space to a site, last in `sectionId` (else in the default section, or at the root of a site without sections)",
  params: siteParams,
  access: onSite("admin"),
  body: z.object({ spaceId: boundedId(), sectionId: boundedId().optional() }),
  response: siteSpaceSchema,
  status: 201,
  async run(scope, { body }) {
    const { tx, site } = scope;
    const space = await requireSiteSpaceTarget(tx, site, body.spaceId, "body.spaceId");
    const { sections } = await loadTree(tx, site.id);
    let section = "";
    if (body.sectionId !== undefined) {
      if (!sections.some((candidate) => candidate.id === body.sectionId)) {
        throw badRequest(`body.sectionId: no section "${body.sectionId}" in this site`);
      }
      section = body.sectionId;
    } else if (sections.length > 0) {
      section = (sections.find((candidate) => candidate.default) ?? sections[0]!).id;
    }
    const siteSpace = await addSiteSpace(tx, scope, site, space, section);
    const created = await presentSiteSpaceNow(
      tx,
      scope,
      site,
      siteSpace,
      memberSpaces(tx, scope, scope.membership),
    );
    return new Reply(201, created, { location: siteSpaceLocation(scope, siteSpace) });
  },
});

export const updateSiteSpaceById = defineOperation({
  id: "updateSiteSpaceById",
  method: "patch",
  path: "/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}",
  tag,
  summary: "Update a site space's path, condition (null removes it), space or `hidden`",
  params: siteSpaceParams,
  access: onSite("admin"),
  body: z.object({
    path: structurePath.optional(),
    condition: conditionText.nullable().optional(),
    spaceId: boundedId().optional(),
    hidden: z.boolean().optional(),
  }),
  response: siteSpaceSchema,
  async run(scope, { params, body }) {
    const { tx, site } = scope;
    const siteSpace: SiteSpaceRecord = { ...(await requireSiteSpace(tx, site, params.siteSpaceId)) };
    // Everything is checked before anything is written: a refused request changes nothing.
    if (body.condition !== undefined && body.condition !== null)
      parseCondition(body.condition, "body.condition");
    if (body.spaceId !== undefined) {
      siteSpace.space = (await requireSiteSpaceTarget(tx, site, body.spaceId, "body.spaceId")).id;
    }
    if (body.path !== undefined) {
      const siblings = await siteSpacesOf(tx, site.id, siteSpace.section);
      requireFreePath(
        siblings,
        siteSpace.id,
        body.path,
        `site space of this ${siteSpace.section ? "section" : "site"}`,
      );
      siteSpace.path = body.path;
    }
    if (body.condition === null) delete siteSpace.condition;
    else if (body.condition !== undefined) siteSpace.condition = body.condition;
    if (body.hidden !== undefined) siteSpace.hidden = body.hidden;
    await tx.put(siteSpacesTable, siteSpace);
    return presentSiteSpaceNow(tx, scope, site, siteSpace, memberSpaces(tx, scope, scope.membership));
  },
});

export const deleteSiteSpaceById = defineOperation({
  id: "deleteSiteSpaceById",
  method: "delete",
  path: "/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}",
  tag,
  summary: "Remove a space from a site (the space stays); the next site space becomes the default if need be",
  params: siteSpaceParams,
  access: onSite("admin"),
  emptyStatuses: [204, 205],
  async run(scope, { params }) {
    const siteSpace = await findSiteSpace(scope.tx, scope.site, params.siteSpaceId);
    if (!siteSpace) return deleted(false);
    await removeSiteSpace(scope.tx, siteSpace);
    return deleted(true);
  },
});

export const siteSpaceOperations = {
  listSiteSpaces,
  addSpaceToSite,
  updateSiteSpaceById,
  deleteSiteSpaceById,
};
