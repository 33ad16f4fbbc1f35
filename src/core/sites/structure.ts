import { generateKeyBetween } from "fractional-indexing";
import { slugify } from "../content-tree/tree.js";
import type { Membership } from "../permissions/membership.js";
import { badRequest, conflict, notFound } from "../shared/errors.js";
import type { World } from "../shared/world.js";
import { type SpaceRecord, spacesTable } from "../spaces/tables.js";
import type { ReadTransaction, WriteTransaction } from "../storage/port.js";
import {
  siteCustomizationsTable,
  type SiteNodeRecord,
  type SiteRecord,
  type SiteSectionGroupRecord,
  type SiteSectionRecord,
  siteNodesTable,
  type SiteSpaceRecord,
  siteSpacesTable,
} from "./tables.js";
import { presentSpace } from "../spaces/present.js";
import type { PresentSpace } from "./schemas.js";

/**
 * Writes that keep a site's structure whole: every section (or the root of a site without
 * sections) has exactly one default site space while it has any, a site with sections has exactly
 * one default section, and paths are unique among siblings.
 */

/** A live space of the site's organization, or 400 naming `field`. */
export async function requireSiteSpaceTarget(
  tx: ReadTransaction,
  site: SiteRecord,
  spaceId: string,
  field: string,
): Promise<SpaceRecord> {
  const space = await tx.get(spacesTable, spaceId);
  if (!space || space.organization !== site.organization || space.state !== "live") {
    throw badRequest(`${field}: no space "${spaceId}" in the site's organization`);
  }
  return space;
}

/** The key after the last of `siblings` (ordered by position). */
export function positionAfterLast(siblings: readonly { position: string }[]): string {
  return generateKeyBetween(siblings.at(-1)?.position ?? null, null);
}

/** `base`, or `base-2`, `base-3`... : the first not in `taken`. */
export function freePath(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** The site spaces of a section ("" the root), in order. */
export function siteSpacesOf(tx: ReadTransaction, site: string, section: string): Promise<SiteSpaceRecord[]> {
  return tx.list(siteSpacesTable, { index: "bySection", where: [site, section] });
}

/** The sections of a site in position order. */
export function sectionsOf(tx: ReadTransaction, site: string): Promise<SiteSectionRecord[]> {
  return tx.list(siteNodesTable, { index: "bySite", where: [site, "section"] }) as Promise<
    SiteSectionRecord[]
  >;
}

/**
 * Adds `space` to the site as a site space of `section` ("" in a site without sections), last,
 * with a path made from the space's title (unique among the section's site spaces); it is the
 * default when it is the first.
 */
export async function addSiteSpace(
  tx: WriteTransaction,
  world: World,
  site: SiteRecord,
  space: SpaceRecord,
  section: string,
): Promise<SiteSpaceRecord> {
  const siblings = await siteSpacesOf(tx, site.id, section);
  const siteSpace: SiteSpaceRecord = {
    id: world.ids(),
    site: site.id,
    organization: site.organization,
    section,
    space: space.id,
    path: freePath(pathFromTitle(space.title), new Set(siblings.map((sibling) => sibling.path))),
    hidden: false,
    default: siblings.length === 0,
    position: positionAfterLast(siblings),
    createdAt: world.clock().toISOString(),
  };
  await tx.put(siteSpacesTable, siteSpace);
  return siteSpace;
}

/** The site space `id` of the site, when its space is live (site spaces of deleted spaces are hidden). */
export async function findSiteSpace(
  tx: ReadTransaction,
  site: SiteRecord,
  id: string,
): Promise<SiteSpaceRecord | undefined> {
  const siteSpace = await tx.get(siteSpacesTable, id);
  if (!siteSpace || siteSpace.site !== site.id) return undefined;
  return (await tx.get(spacesTable, siteSpace.space))?.state === "live" ? siteSpace : undefined;
}

/** The site space in the path, or 404. */
export async function requireSiteSpace(
  tx: ReadTransaction,
  site: SiteRecord,
  id: string,
): Promise<SiteSpaceRecord> {
  const siteSpace = await findSiteSpace(tx, site, id);
  if (!siteSpace) throw notFound(`Site space "${id}" not found`);
  return siteSpace;
}

/** The section or group `id` of the site, or undefined. */
export async function findNode<K extends SiteNodeRecord["kind"]>(
  tx: ReadTransaction,
  site: SiteRecord,
  kind: K,
  id: string,
): Promise<Extract<SiteNodeRecord, { kind: K }> | undefined> {
  const node = await tx.get(siteNodesTable, id);
  return node && node.site === site.id && node.kind === kind
    ? (node as Extract<SiteNodeRecord, { kind: K }>)
    : undefined;
}

/** The section in the path, or 404. */
export async function requireSection(tx: ReadTransaction, site: SiteRecord, id: string) {
  const section = await findNode(tx, site, "section", id);
  if (!section) throw notFound(`Site section "${id}" not found`);
  return section;
}

/** The section group in the path, or 404. */
export async function requireGroup(tx: ReadTransaction, site: SiteRecord, id: string) {
  const group = await findNode(tx, site, "group", id);
  if (!group) throw notFound(`Site section group "${id}" not found`);
  return group;
}

/** Presents spaces as `membership` sees them (organization members see every space of a site). */
export function memberSpaces(tx: ReadTransaction, world: World, membership: Membership): PresentSpace {
  return async (id) => {
    const space = await tx.get(spacesTable, id);
    return space ? presentSpace(tx, world, membership, space) : undefined;
  };
}

const byPosition = (a: { position: string; id: string }, b: { position: string; id: string }) =>
  a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/**
 * The sections and groups of a site in structure order (depth first, siblings by position), each
 * with its sort key: the positions and ids of its ancestors then its own, which orders like the
 * walk and stays valid for paging while other items change.
 */
export interface SiteTree {
  readonly children: ReadonlyMap<string, readonly SiteNodeRecord[]>;
  readonly nodes: readonly SiteNodeRecord[];
  readonly sections: readonly SiteSectionRecord[];
  readonly groups: readonly SiteSectionGroupRecord[];
  readonly keys: ReadonlyMap<string, readonly string[]>;
}

export function treeOf(children: ReadonlyMap<string, readonly SiteNodeRecord[]>): SiteTree {
  const nodes: SiteNodeRecord[] = [];
  const keys = new Map<string, readonly string[]>();
  const walk = (parent: string, prefix: readonly string[]) => {
    for (const node of children.get(parent) ?? []) {
      const key = [...prefix, node.position, node.id];
      nodes.push(node);
      keys.set(node.id, key);
      if (node.kind === "group") walk(node.id, key);
    }
  };
  walk("", []);
  return {
    children,
    nodes,
    keys,
    sections: nodes.filter((node): node is SiteSectionRecord => node.kind === "section"),
    groups: nodes.filter((node): node is SiteSectionGroupRecord => node.kind === "group"),
  };
}

/** The site's sections and groups as stored, in structure order. */
export async function loadTree(tx: ReadTransaction, site: string): Promise<SiteTree> {
  const nodes = await tx.list(siteNodesTable, { index: "bySite", where: [site] });
  const children = new Map<string, SiteNodeRecord[]>();
  for (const node of nodes.sort(byPosition)) {
    children.set(node.parent, [...(children.get(node.parent) ?? []), node]);
  }
  return treeOf(children);
}

/** The one to take a flag from `list[index]` as it goes: the next one, else the one before. */
const successor = <T>(list: readonly T[], index: number): T | undefined => list[index + 1] ?? list[index - 1];

/**
 * Deletes a site space; when it was its section's default, the next one (else the one before)
 * becomes the default, so a non-empty section always has one.
 */
export async function removeSiteSpace(tx: WriteTransaction, siteSpace: SiteSpaceRecord): Promise<void> {
  const siblings = await siteSpacesOf(tx, siteSpace.site, siteSpace.section);
  await tx.delete(siteSpacesTable, siteSpace.id);
  await tx.delete(siteCustomizationsTable, siteSpace.id);
  if (!siteSpace.default) return;
  const heir = successor(
    siblings,
    siblings.findIndex((sibling) => sibling.id === siteSpace.id),
  );
  if (heir && heir.id !== siteSpace.id) await tx.put(siteSpacesTable, { ...heir, default: true });
}

/**
 * Deletes a section record; when it was the default, the next section in structure order (else
 * the one before) becomes the default. Its site spaces are the caller's business.
 */
export async function removeSectionNode(tx: WriteTransaction, section: SiteSectionRecord): Promise<void> {
  const { sections } = await loadTree(tx, section.site);
  await tx.delete(siteNodesTable, section.id);
  if (!section.default) return;
  const heir = successor(
    sections,
    sections.findIndex((candidate) => candidate.id === section.id),
  );
  if (heir && heir.id !== section.id) await tx.put(siteNodesTable, { ...heir, default: true });
}

/**
 * The `purgeSpace` hook: a space gone for good leaves every site it was on. A section left with no
 * site space goes too (its site had nothing to show there), and default flags pass on as in a
 * delete.
 */
export async function purgeSiteSpaces(tx: WriteTransaction, _world: World, space: SpaceRecord) {
  const siteSpaces = await tx.list(siteSpacesTable, { index: "bySpace", where: [space.id] });
  for (const siteSpace of siteSpaces) {
    await removeSiteSpace(tx, siteSpace);
    if (!siteSpace.section) continue;
    if (
      (await tx.count(siteSpacesTable, { index: "bySection", where: [siteSpace.site, siteSpace.section] })) >
      0
    )
      continue;
    const section = await tx.get(siteNodesTable, siteSpace.section);
    if (section?.kind === "section") await removeSectionNode(tx, section);
  }
}

/** 409 unless `path` is free among `siblings` (other than `self`). */
export function requireFreePath(
  siblings: readonly { id: string; path: string }[],
  self: string,
  path: string,
  where: string,
): void {
  if (siblings.some((sibling) => sibling.id !== self && sibling.path === path)) {
    throw conflict(`body.path: "${path}" is already used by another ${where}`);
  }
}

/** A path made from a title: one URL segment, at most 100 characters with room for a `-n` suffix. */
export const pathFromTitle = (title: string) => slugify(title).slice(0, 90).replace(/-+$/, "") || "page";
