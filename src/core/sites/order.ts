import { generateKeyBetween } from "fractional-indexing";
import * as z from "zod";
import type { Membership } from "../permissions/membership.js";
import { defineOperation } from "../registry.js";
import { badRequest, notFound } from "../shared/errors.js";
import { boundedId, pathParam } from "../shared/schema.js";
import type { World } from "../shared/world.js";
import type { WriteTransaction } from "../storage/port.js";
import { onSite } from "./access.js";
import {
  loadStructure,
  presentGroup,
  presentSection,
  presentStructure,
  presentSiteSpaceNow,
} from "./present.js";
import { onSiteForReaders } from "./readers.js";
import {
  siteParams,
  siteSectionGroupSchema,
  siteSectionSchema,
  siteSpaceSchema,
  siteStructureSchema,
  type SiteSection,
  type SiteSectionGroup,
  type SiteSpace,
} from "./schemas.js";
import { readerView, shareKeyQuery } from "./sections.js";
import { findSiteSpace, loadTree, memberSpaces, siteSpacesOf } from "./structure.js";
import {
  type SiteNodeRecord,
  type SiteRecord,
  siteNodesTable,
  type SiteSpaceRecord,
  siteSpacesTable,
} from "./tables.js";

/**
 * The order of a site's structure. Sections and groups of one parent (the site's root or a group)
 * share one order; site spaces are ordered within their section (or the root of a site without
 * sections). A move stays within the item's parent: `before`/`after` name siblings, both at once
 * only when adjacent (`after` first); without either the item goes last in its parent.
 *
 * - the moved item unknown in this site: 404;
 * - a position naming the item itself, an unknown item, an item of another parent, or an item of
 *   the other kind (a site space beside a section): 400 naming the field;
 * - a move to where the item already is: 200, nothing changes.
 */

const tag = "sites";

type Kind = "site-space" | "site-section" | "site-section-group";
interface Pointer {
  readonly kind: Kind;
  readonly id: string;
}
interface Placement {
  readonly before?: Pointer | undefined;
  readonly after?: Pointer | undefined;
}

const LABELS: Record<Kind, string> = {
  "site-space": "site space",
  "site-section": "section",
  "site-section-group": "section group",
};
const kindOf = (node: SiteNodeRecord): Kind =>
  node.kind === "section" ? "site-section" : "site-section-group";

interface Ordered {
  readonly id: string;
  readonly position: string;
}

/**
 * The item's new position among `siblings` (its parent's items in order, the item included), or
 * its current one when the placement leaves it where it is.
 */
function positionAmong<T extends Ordered>(siblings: readonly T[], item: T, before?: T, after?: T): string {
  const others = siblings.filter((sibling) => sibling.id !== item.id);
  let previous: T | undefined;
  let next: T | undefined;
  if (after && before) {
    if (others.indexOf(before) !== others.indexOf(after) + 1) {
      throw badRequest('body.position: "after" and "before" must be adjacent siblings, "after" first');
    }
    [previous, next] = [after, before];
  } else if (after) {
    [previous, next] = [after, others[others.indexOf(after) + 1]];
  } else if (before) {
    [previous, next] = [others[others.indexOf(before) - 1], before];
  } else {
    previous = others.at(-1);
  }
  const index = siblings.indexOf(item);
  if (siblings[index - 1] === previous && siblings[index + 1] === next) return item.position;
  return generateKeyBetween(previous?.position ?? null, next?.position ?? null);
}

type Moved = { readonly siteSpace: SiteSpaceRecord } | { readonly node: SiteNodeRecord };

/** Moves an item of the site's structure; answers whether it was a site space or a node, as stored now. */
async function moveItem(
  tx: WriteTransaction,
  site: SiteRecord,
  item: Pointer,
  placement: Placement | undefined,
): Promise<Moved> {
  const label = LABELS[item.kind];
  const unknown = () => notFound(`${label.charAt(0).toUpperCase()}${label.slice(1)} "${item.id}" not found`);
  if (item.kind === "site-space") {
    const siteSpace = await findSiteSpace(tx, site, item.id);
    if (!siteSpace) throw unknown();
    const siblings = await siteSpacesOf(tx, site.id, siteSpace.section);
    const resolve = async (which: "before" | "after") => {
      const pointer = placement?.[which];
      if (!pointer) return undefined;
      const field = `body.position.${which}`;
      checkPointer(pointer, item, field, "site-space");
      const sibling = siblings.find((candidate) => candidate.id === pointer.id);
      if (sibling) return sibling;
      throw badRequest(
        (await findSiteSpace(tx, site, pointer.id))
          ? `${field}: site space "${pointer.id}" is in another section; a site space moves within its section`
          : `${field}: no site space "${pointer.id}" in this site`,
      );
    };
    const [before, after] = [await resolve("before"), await resolve("after")];
    const position = positionAmong(
      siblings,
      siblings.find((one) => one.id === siteSpace.id)!,
      before,
      after,
    );
    const moved = { ...siteSpace, position };
    if (position !== siteSpace.position) await tx.put(siteSpacesTable, moved);
    return { siteSpace: moved };
  }
  const tree = await loadTree(tx, site.id);
  const node = tree.nodes.find((candidate) => candidate.id === item.id && kindOf(candidate) === item.kind);
  if (!node) throw unknown();
  const siblings = tree.children.get(node.parent) ?? [];
  const resolve = (which: "before" | "after") => {
    const pointer = placement?.[which];
    if (!pointer) return undefined;
    const field = `body.position.${which}`;
    checkPointer(pointer, item, field, "node");
    const sibling = siblings.find(
      (candidate) => candidate.id === pointer.id && kindOf(candidate) === pointer.kind,
    );
    if (sibling) return sibling;
    const elsewhere = tree.nodes.some(
      (candidate) => candidate.id === pointer.id && kindOf(candidate) === pointer.kind,
    );
    throw badRequest(
      elsewhere
        ? `${field}: ${LABELS[pointer.kind]} "${pointer.id}" has another parent; an item moves within its parent`
        : `${field}: no ${LABELS[pointer.kind]} "${pointer.id}" in this site`,
    );
  };
  const position = positionAmong(siblings, node, resolve("before"), resolve("after"));
  const moved = { ...node, position };
  if (position !== node.position) await tx.put(siteNodesTable, moved);
  return { node: moved };
}

/** 400 for a pointer to the item itself or to an item of the other kind. */
function checkPointer(pointer: Pointer, item: Pointer, field: string, family: "site-space" | "node") {
  if (pointer.kind === item.kind && pointer.id === item.id) {
    throw badRequest(`${field}: an item cannot be positioned relative to itself`);
  }
  if ((pointer.kind === "site-space") !== (family === "site-space")) {
    throw badRequest(
      `${field}: ${family === "site-space" ? "a site space moves among site spaces" : "sections and groups move among sections and groups"}`,
    );
  }
}

/** Moves the item within its parent and answers it as the caller (an admin member) sees it. */
async function moveAndPresent(
  scope: World & {
    readonly tx: WriteTransaction;
    readonly site: SiteRecord;
    readonly membership: Membership;
  },
  item: Pointer,
  placement: Placement | undefined,
): Promise<SiteSpace | SiteSection | SiteSectionGroup> {
  const { tx, site } = scope;
  const moved = await moveItem(tx, site, item, placement);
  const presentSpace = memberSpaces(tx, scope, scope.membership);
  if ("siteSpace" in moved) return presentSiteSpaceNow(tx, scope, site, moved.siteSpace, presentSpace);
  const structure = await loadStructure(tx, site);
  return moved.node.kind === "section"
    ? presentSection(scope, structure, moved.node, presentSpace)
    : presentGroup(scope, structure, moved.node, presentSpace);
}

const placementOf = <P>(position: { before?: P; after?: P } | undefined, pointer: (p: P) => Pointer) =>
  position && {
    before: position.before && pointer(position.before),
    after: position.after && pointer(position.after),
  };

const sectionPointer = z.object({ type: z.literal("site-section"), siteSection: boundedId() });
const siteSpacePointer = z.object({ type: z.literal("site-space"), siteSpace: boundedId() });
const nodePointer = z.object({ type: z.enum(["site-section", "site-section-group"]), id: boundedId() });
const itemPointer = z.object({
  type: z.enum(["site-space", "site-section", "site-section-group"]),
  id: boundedId(),
});
const positionOf = <P extends z.ZodType>(pointer: P) =>
  z.object({ before: pointer.optional(), after: pointer.optional() });

export const moveSiteSection = defineOperation({
  id: "moveSiteSection",
  method: "post",
  path: "/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move",
  tag,
  summary: "Move a section among the sections and groups of its parent (deprecated: use sortSiteStructure)",
  params: siteParams.extend({ siteSectionId: pathParam() }),
  access: onSite("admin"),
  body: z.object({ position: positionOf(sectionPointer).optional() }).optional(),
  response: siteSectionSchema,
  async run(scope, { params, body }) {
    const placement = placementOf(body?.position, (p) => ({
      kind: "site-section" as const,
      id: p.siteSection,
    }));
    return (await moveAndPresent(
      scope,
      { kind: "site-section", id: params.siteSectionId },
      placement,
    )) as SiteSection;
  },
});

export const moveSiteSectionGroup = defineOperation({
  id: "moveSiteSectionGroup",
  method: "post",
  path: "/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move",
  tag,
  summary:
    "Move a section group among the sections and groups of its parent (deprecated: use sortSiteStructure)",
  params: siteParams.extend({ siteSectionGroupId: pathParam() }),
  access: onSite("admin"),
  body: z.object({ position: positionOf(nodePointer).optional() }).optional(),
  response: siteSectionGroupSchema,
  async run(scope, { params, body }) {
    const placement = placementOf(body?.position, (p) => ({ kind: p.type, id: p.id }));
    const item = { kind: "site-section-group", id: params.siteSectionGroupId } as const;
    return (await moveAndPresent(scope, item, placement)) as SiteSectionGroup;
  },
});

export const moveSiteSpace = defineOperation({
  id: "moveSiteSpace",
  method: "post",
  path: "/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move",
  tag,
  summary: "Move a site space among the site spaces of its section (deprecated: use sortSiteStructure)",
  params: siteParams.extend({ siteSpaceId: pathParam() }),
  access: onSite("admin"),
  body: z.object({ position: positionOf(siteSpacePointer).optional() }).optional(),
  response: siteSpaceSchema,
  async run(scope, { params, body }) {
    const placement = placementOf(body?.position, (p) => ({ kind: "site-space" as const, id: p.siteSpace }));
    return (await moveAndPresent(
      scope,
      { kind: "site-space", id: params.siteSpaceId },
      placement,
    )) as SiteSpace;
  },
});

export const sortSiteStructure = defineOperation({
  id: "sortSiteStructure",
  method: "patch",
  path: "/orgs/{organizationId}/sites/{siteId}/structure/sort",
  tag,
  summary: "Move a site space, section or section group among its siblings; answers the moved item",
  params: siteParams,
  access: onSite("admin"),
  body: z.object({ item: itemPointer, position: positionOf(itemPointer) }),
  response: z.union([siteSpaceSchema, siteSectionSchema, siteSectionGroupSchema]),
  async run(scope, { body }) {
    const placement = placementOf(body.position, (p) => ({ kind: p.type, id: p.id }));
    return moveAndPresent(scope, { kind: body.item.type, id: body.item.id }, placement);
  },
});

export const getSiteStructure = defineOperation({
  id: "getSiteStructure",
  method: "get",
  path: "/orgs/{organizationId}/sites/{siteId}/structure",
  tag,
  summary: "The site's structure: its sections and groups, or its site spaces when it has no sections",
  params: siteParams,
  access: onSiteForReaders(),
  query: z.object(shareKeyQuery),
  response: siteStructureSchema,
  async run(scope) {
    const { tx, site, reader } = scope;
    // Members read it as stored; other readers as published content shows it (see sections.ts).
    const { structure, presentSpace } = readerView(tx, scope, reader, await loadStructure(tx, site));
    return presentStructure(scope, structure, presentSpace);
  },
});

export const orderOperations = {
  moveSiteSection,
  moveSiteSectionGroup,
  moveSiteSpace,
  sortSiteStructure,
  getSiteStructure,
};
