import { generateKeyBetween, generateNKeysBetween } from "fractional-indexing";
import * as z from "zod";
import { defineOperation, deleted, Reply } from "../registry.js";
import { badRequest } from "../shared/errors.js";
import { listOf, pageQuery, paginateSorted } from "../shared/pagination.js";
import { boundedId, pathParam } from "../shared/schema.js";
import type { World } from "../shared/world.js";
import { onSite } from "./access.js";
import { loadStructure, presentGroup, presentGroupNow, siteLocation } from "./present.js";
import { groupTitle, iconName, siteParams, siteSectionGroupSchema } from "./schemas.js";
import { loadTree, memberSpaces, positionAfterLast, requireGroup, treeOf } from "./structure.js";
import { type SiteSectionGroupRecord, siteNodesTable } from "./tables.js";

/**
 * Section groups: sections and groups of one parent (the site's root or a group) share one order.
 * A new group goes last in its parent, with the `sections` of its request moved into it in the
 * order given. Deleting a group keeps what it held: its children (sections and groups, with
 * everything under them) take its place in its parent, in their order. A section removed from a
 * group goes to the group's parent, right after the group.
 */

const tag = "sites";
const groupParams = siteParams.extend({ siteSectionGroupId: pathParam() });

/** The URL of a group in the API (the reference's groups have no `urls`). */
const groupLocation = (world: World, group: SiteSectionGroupRecord) =>
  `${siteLocation(world, { id: group.site, organization: group.organization })}/section-groups/${group.id}`;

export const listSiteSectionGroups = defineOperation({
  id: "listSiteSectionGroups",
  method: "get",
  path: "/orgs/{organizationId}/sites/{siteId}/section-groups",
  tag,
  summary: "List the section groups of a site, nested ones included, in structure order",
  params: siteParams,
  access: onSite("view"),
  query: z.object(pageQuery),
  response: listOf(siteSectionGroupSchema),
  async run(scope, { query }) {
    const { tx, site } = scope;
    const structure = await loadStructure(tx, site);
    const tree = treeOf(structure.children);
    const page = paginateSorted(tree.groups, query, {
      scope: `siteSectionGroups:${site.id}`,
      position: (group) => [...tree.keys.get(group.id)!],
    });
    const presentSpace = memberSpaces(tx, scope, scope.membership);
    return {
      ...page,
      items: await Promise.all(
        page.items.map((group) => presentGroup(scope, structure, group, presentSpace)),
      ),
    };
  },
});

export const addSectionGroupToSite = defineOperation({
  id: "addSectionGroupToSite",
  method: "post",
  path: "/orgs/{organizationId}/sites/{siteId}/section-groups",
  tag,
  summary: "Add a section group, last in `parent` (or the site's root), holding `sections` in that order",
  params: siteParams,
  access: onSite("admin"),
  body: z.object({
    title: groupTitle,
    icon: iconName.nullable().optional(),
    sections: z.array(boundedId()).max(100).optional(),
    parent: boundedId().optional(),
  }),
  response: siteSectionGroupSchema,
  status: 201,
  async run(scope, { body }) {
    const { tx, site } = scope;
    const tree = await loadTree(tx, site.id);
    const parent = body.parent ?? "";
    if (parent && !tree.groups.some((group) => group.id === parent)) {
      throw badRequest(`body.parent: no section group "${parent}" in this site`);
    }
    const sections = (body.sections ?? []).map((id, index) => {
      const section = tree.sections.find((candidate) => candidate.id === id);
      if (!section) throw badRequest(`body.sections[${index}]: no section "${id}" in this site`);
      if (body.sections!.indexOf(id) !== index) {
        throw badRequest(`body.sections[${index}]: "${id}" is listed twice`);
      }
      return section;
    });
    const group: SiteSectionGroupRecord = {
      id: scope.ids(),
      site: site.id,
      organization: site.organization,
      kind: "group",
      parent,
      position: positionAfterLast(tree.children.get(parent) ?? []),
      title: body.title,
      ...(body.icon ? { icon: body.icon } : {}),
      createdAt: scope.clock().toISOString(),
    };
    await tx.put(siteNodesTable, group);
    const positions = generateNKeysBetween(null, null, sections.length);
    for (const [index, section] of sections.entries()) {
      await tx.put(siteNodesTable, { ...section, parent: group.id, position: positions[index]! });
    }
    const created = await presentGroupNow(tx, scope, site, group, memberSpaces(tx, scope, scope.membership));
    return new Reply(201, created, { location: groupLocation(scope, group) });
  },
});

export const updateSiteSectionGroupById = defineOperation({
  id: "updateSiteSectionGroupById",
  method: "patch",
  path: "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}",
  tag,
  summary: "Update a section group's title or icon (`icon` null removes it)",
  params: groupParams,
  access: onSite("admin"),
  body: z.object({ title: groupTitle.optional(), icon: iconName.nullable().optional() }),
  response: siteSectionGroupSchema,
  async run(scope, { params, body }) {
    const { tx, site } = scope;
    const group: SiteSectionGroupRecord = { ...(await requireGroup(tx, site, params.siteSectionGroupId)) };
    if (body.title !== undefined) group.title = body.title;
    if (body.icon === null) delete group.icon;
    else if (body.icon !== undefined) group.icon = body.icon;
    await tx.put(siteNodesTable, group);
    return presentGroupNow(tx, scope, site, group, memberSpaces(tx, scope, scope.membership));
  },
});

export const deleteSiteSectionGroupById = defineOperation({
  id: "deleteSiteSectionGroupById",
  method: "delete",
  path: "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}",
  tag,
  summary: "Delete a section group; its sections and groups take its place in its parent",
  params: groupParams,
  access: onSite("admin"),
  emptyStatuses: [204, 205],
  async run(scope, { params }) {
    const { tx, site } = scope;
    const tree = await loadTree(tx, site.id);
    const group = tree.groups.find((candidate) => candidate.id === params.siteSectionGroupId);
    if (!group) return deleted(false);
    const siblings = tree.children.get(group.parent) ?? [];
    const next = siblings[siblings.findIndex((sibling) => sibling.id === group.id) + 1];
    const children = tree.children.get(group.id) ?? [];
    const positions = generateNKeysBetween(group.position, next?.position ?? null, children.length);
    for (const [index, child] of children.entries()) {
      await tx.put(siteNodesTable, { ...child, parent: group.parent, position: positions[index]! });
    }
    await tx.delete(siteNodesTable, group.id);
    return deleted(true);
  },
});

export const addSectionToGroup = defineOperation({
  id: "addSectionToGroup",
  method: "post",
  path: "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections",
  tag,
  summary: "Move a section into a section group, last; answers the group",
  params: groupParams,
  access: onSite("admin"),
  body: z.object({ sectionId: boundedId() }),
  response: siteSectionGroupSchema,
  status: 201,
  async run(scope, { params, body }) {
    const { tx, site } = scope;
    const group = await requireGroup(tx, site, params.siteSectionGroupId);
    const tree = await loadTree(tx, site.id);
    const section = tree.sections.find((candidate) => candidate.id === body.sectionId);
    if (!section) throw badRequest(`body.sectionId: no section "${body.sectionId}" in this site`);
    if (section.parent !== group.id) {
      const position = positionAfterLast(tree.children.get(group.id) ?? []);
      await tx.put(siteNodesTable, { ...section, parent: group.id, position });
    }
    const presented = await presentGroupNow(
      tx,
      scope,
      site,
      group,
      memberSpaces(tx, scope, scope.membership),
    );
    return new Reply(201, presented, { location: groupLocation(scope, group) });
  },
});

export const removeSectionFromGroup = defineOperation({
  id: "removeSectionFromGroup",
  method: "delete",
  path: "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}",
  tag,
  summary: "Move a section out of a section group, right after the group in its parent",
  params: groupParams.extend({ siteSectionId: pathParam() }),
  access: onSite("admin"),
  emptyStatuses: [204, 205],
  async run(scope, { params }) {
    const { tx, site } = scope;
    const group = await requireGroup(tx, site, params.siteSectionGroupId);
    const tree = await loadTree(tx, site.id);
    const section = tree.sections.find((candidate) => candidate.id === params.siteSectionId);
    if (!section || section.parent !== group.id) return deleted(false);
    const siblings = tree.children.get(group.parent) ?? [];
    const next = siblings[siblings.findIndex((sibling) => sibling.id === group.id) + 1];
    const position = generateKeyBetween(group.position, next?.position ?? null);
    await tx.put(siteNodesTable, { ...section, parent: group.parent, position });
    return deleted(true);
  },
});

export const groupOperations = {
  listSiteSectionGroups,
  addSectionGroupToSite,
  updateSiteSectionGroupById,
  deleteSiteSectionGroupById,
  addSectionToGroup,
  removeSectionFromGroup,
};
