import * as z from "zod";
import { defineOperation, deleted, Reply } from "../registry.js";
import { badRequest } from "../shared/errors.js";
import { listOf, pageQuery, paginateSorted } from "../shared/pagination.js";
import { boundedId, pathParam } from "../shared/schema.js";
import type { World } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import { onSite } from "./access.js";
import { parseCondition } from "../visitors/conditions.js";
import {
  loadStructure,
  presentSection,
  presentSectionNow,
  siteLocation,
  type StoredStructure,
} from "./present.js";
import { onSiteForReaders, readerSpaces, type SiteReader, visibleStructure } from "./readers.js";
import {
  conditionText,
  iconName,
  sectionDescription,
  sectionTitle,
  siteParams,
  siteSectionSchema,
  structurePath,
  type PresentSpace,
} from "./schemas.js";
import {
  addSiteSpace,
  freePath,
  loadTree,
  memberSpaces,
  pathFromTitle,
  positionAfterLast,
  removeSectionNode,
  requireFreePath,
  requireSection,
  requireSiteSpaceTarget,
  sectionsOf,
  siteSpacesOf,
  treeOf,
} from "./structure.js";
import { type SiteSectionRecord, siteNodesTable, siteSpacesTable } from "./tables.js";

/**
 * Site sections. A site without sections shows its site spaces at its root (`structure.type`
 * `siteSpaces`); the first section added takes every one of them, in order and with their
 * default, and the space of the request is added after them (unless it is one of them); that
 * first section is the site's default. From then on the site is made of sections (`sections`).
 *
 * Deleting a section deletes its site spaces (the spaces themselves stay), except when it is the
 * site's last section: then its site spaces move back to the site's root, in order and with their
 * default, and the structure is `siteSpaces` again, the exact reverse of adding the first section.
 * A deleted default section passes the flag to the next section in structure order (else to the
 * one before). A group left empty stays: groups are removed by deleting them.
 *
 * Section paths are unique across the whole site, not only among siblings: every section's URL is
 * `<site URL><path>/`, whatever group holds it.
 *
 * Reads (`listSiteSections`, like `listSiteSpaces` and `getSiteStructure`) follow the reader rule
 * of published content (readers.ts): a member who can view the site reads it as stored, with their
 * own space permissions; anyone else reads a published public or unlisted site, or a published
 * share-link site with an active key of its own in `shareKey`, and sees what a reader sees: the
 * structure filtered by conditions evaluated with no claims (see {@link readerView}), spaces with a
 * reader's permissions. Everyone else gets 404. Pages run over what the caller sees.
 */

const tag = "sites";
const sectionParams = siteParams.extend({ siteSectionId: pathParam() });
/** The `shareKey` query parameter of the reads. */
export const shareKeyQuery = { shareKey: z.string().max(256).optional() };

/**
 * The structure as this reader sees it, and how its spaces are presented to them: as stored with
 * the member's own permissions, or filtered by conditions (no claims) with a reader's permissions.
 */
export function readerView(
  tx: ReadTransaction,
  world: World,
  reader: SiteReader,
  stored: StoredStructure,
): { readonly structure: StoredStructure; readonly presentSpace: PresentSpace } {
  return reader.kind === "member"
    ? { structure: stored, presentSpace: memberSpaces(tx, world, reader.membership) }
    : { structure: visibleStructure(stored, {}), presentSpace: readerSpaces(tx, world) };
}

/** The URL of a section in the API (the reference's sections have no `urls.location`). */
export const sectionLocation = (world: World, section: SiteSectionRecord) =>
  `${siteLocation(world, { id: section.site, organization: section.organization })}/sections/${section.id}`;

export const listSiteSections = defineOperation({
  id: "listSiteSections",
  method: "get",
  path: "/orgs/{organizationId}/sites/{siteId}/sections",
  tag,
  summary: "List the sections of a site in structure order (groups walked depth first)",
  params: siteParams,
  access: onSiteForReaders(),
  query: z.object({ ...pageQuery, ...shareKeyQuery }),
  response: listOf(siteSectionSchema),
  async run(scope, { query }) {
    const { tx, site, reader } = scope;
    const { structure, presentSpace } = readerView(tx, scope, reader, await loadStructure(tx, site));
    const tree = treeOf(structure.children);
    const page = paginateSorted(tree.sections, query, {
      scope: `siteSections:${site.id}`,
      position: (section) => [...tree.keys.get(section.id)!],
    });
    return {
      ...page,
      items: await Promise.all(
        page.items.map((section) => presentSection(scope, structure, section, presentSpace)),
      ),
    };
  },
});

export const addSectionToSite = defineOperation({
  id: "addSectionToSite",
  method: "post",
  path: "/orgs/{organizationId}/sites/{siteId}/sections",
  tag,
  summary:
    "Add a section, last at the site's root, with `spaceId` as a site space; the first section takes the site's site spaces",
  params: siteParams,
  access: onSite("admin"),
  body: z.object({
    spaceId: boundedId(),
    title: sectionTitle.nullable().optional(),
    icon: iconName.nullable().optional(),
  }),
  response: siteSectionSchema,
  status: 201,
  async run(scope, { body }) {
    const { tx, site } = scope;
    const space = await requireSiteSpaceTarget(tx, site, body.spaceId, "body.spaceId");
    const tree = await loadTree(tx, site.id);
    const title = body.title ?? (space.title.length >= 2 ? space.title.slice(0, 128) : "Untitled section");
    const section: SiteSectionRecord = {
      id: scope.ids(),
      site: site.id,
      organization: site.organization,
      kind: "section",
      parent: "",
      position: positionAfterLast(tree.children.get("") ?? []),
      title,
      ...(body.icon ? { icon: body.icon } : {}),
      path: freePath(pathFromTitle(title), new Set(tree.sections.map((other) => other.path))),
      default: tree.sections.length === 0,
      createdAt: scope.clock().toISOString(),
    };
    await tx.put(siteNodesTable, section);
    const taken = tree.sections.length === 0 ? await siteSpacesOf(tx, site.id, "") : [];
    for (const siteSpace of taken) await tx.put(siteSpacesTable, { ...siteSpace, section: section.id });
    // A space the site showed at its root is already in the section: it is not added twice.
    if (!taken.some((siteSpace) => siteSpace.space === space.id)) {
      await addSiteSpace(tx, scope, site, space, section.id);
    }
    const created = await presentSectionNow(
      tx,
      scope,
      site,
      section,
      memberSpaces(tx, scope, scope.membership),
    );
    return new Reply(201, created, { location: sectionLocation(scope, section) });
  },
});

export const updateSiteSectionById = defineOperation({
  id: "updateSiteSectionById",
  method: "patch",
  path: "/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}",
  tag,
  summary:
    "Update a section; `condition`, `icon` or `description` null removes it; `defaultSiteSpace` moves the section's default",
  params: sectionParams,
  access: onSite("admin"),
  body: z.object({
    title: sectionTitle.optional(),
    path: structurePath.optional(),
    defaultSiteSpace: boundedId().optional(),
    condition: conditionText.nullable().optional(),
    icon: iconName.nullable().optional(),
    description: sectionDescription.nullable().optional(),
  }),
  response: siteSectionSchema,
  async run(scope, { params, body }) {
    const { tx, site } = scope;
    const section: SiteSectionRecord = { ...(await requireSection(tx, site, params.siteSectionId)) };
    // Everything is checked before anything is written: a refused request changes nothing.
    if (body.condition !== undefined && body.condition !== null)
      parseCondition(body.condition, "body.condition");
    if (body.path !== undefined)
      requireFreePath(await sectionsOf(tx, site.id), section.id, body.path, "section");
    const siteSpaces = await siteSpacesOf(tx, site.id, section.id);
    if (body.defaultSiteSpace !== undefined && !siteSpaces.some((one) => one.id === body.defaultSiteSpace)) {
      throw badRequest(`body.defaultSiteSpace: no site space "${body.defaultSiteSpace}" in this section`);
    }
    if (body.title !== undefined) section.title = body.title;
    if (body.path !== undefined) section.path = body.path;
    for (const field of ["condition", "icon", "description"] as const) {
      const value = body[field];
      if (value === null) delete section[field];
      else if (value !== undefined) section[field] = value;
    }
    await tx.put(siteNodesTable, section);
    if (body.defaultSiteSpace !== undefined) {
      for (const siteSpace of siteSpaces) {
        const isDefault = siteSpace.id === body.defaultSiteSpace;
        if (siteSpace.default !== isDefault)
          await tx.put(siteSpacesTable, { ...siteSpace, default: isDefault });
      }
    }
    return presentSectionNow(tx, scope, site, section, memberSpaces(tx, scope, scope.membership));
  },
});

export const deleteSiteSectionById = defineOperation({
  id: "deleteSiteSectionById",
  method: "delete",
  path: "/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}",
  tag,
  summary:
    "Delete a section with its site spaces; the last section's site spaces go back to the site's root instead",
  params: sectionParams,
  access: onSite("admin"),
  emptyStatuses: [204, 205],
  async run(scope, { params }) {
    const { tx, site } = scope;
    const tree = await loadTree(tx, site.id);
    const section = tree.sections.find((candidate) => candidate.id === params.siteSectionId);
    if (!section) return deleted(false);
    const siteSpaces = await siteSpacesOf(tx, site.id, section.id);
    if (tree.sections.length === 1) {
      const root = await siteSpacesOf(tx, site.id, "");
      let last = root;
      const rootHasDefault = root.some((siteSpace) => siteSpace.default);
      for (const siteSpace of siteSpaces) {
        const moved = {
          ...siteSpace,
          section: "",
          position: positionAfterLast(last),
          default: siteSpace.default && !rootHasDefault,
        };
        await tx.put(siteSpacesTable, moved);
        last = [moved];
      }
    } else {
      for (const siteSpace of siteSpaces) await tx.delete(siteSpacesTable, siteSpace.id);
    }
    await removeSectionNode(tx, section);
    return deleted(true);
  },
});

export const sectionOperations = {
  listSiteSections,
  addSectionToSite,
  updateSiteSectionById,
  deleteSiteSectionById,
};
