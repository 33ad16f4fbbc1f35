import { findMembership, type Membership } from "../permissions/membership.js";
import { readableWithReaderToken, SITE_IN_PATH } from "../permissions/reader-token.js";
import { defineAccess, type AccessRule } from "../permissions/rule.js";
import { notFound } from "../shared/errors.js";
import type { Context, World } from "../shared/world.js";
import { spacePermissions } from "../spaces/permissions.js";
import { type SpaceRecord, spacesTable } from "../spaces/tables.js";
import type { ReadTransaction } from "../storage/port.js";
import { findSite, sitePermissions, type SitePermissions } from "./access.js";
import { evaluateCondition, parseCondition } from "../visitors/conditions.js";
import { loadStructure, readerUrl, siteSpaceUrl, type StoredStructure } from "./present.js";
import {
  type ShareLinkRecord,
  shareLinksTable,
  type SiteNodeRecord,
  type SiteRecord,
  type SiteSectionGroupRecord,
  type SiteSectionRecord,
  type SiteSpaceRecord,
  sitesTable,
} from "./tables.js";
import { presentSpaceWith } from "../spaces/present.js";
import type { PresentSpace } from "./schemas.js";

/**
 * Who reads a site's published content, and what they see (docs/sites.md, "Readers").
 *
 * - A member of the site's organization who can view the site (`read` role or more) reads it
 *   whatever its state: published or not, any visibility, every section and site space.
 * - Anyone else, with or without a token, is a reader of the published site: a `public` or
 *   `unlisted` site once published, or a published `share-link` site with the key of one of its
 *   ACTIVE share links (`shareKey`). A `visitor-auth` site is read by visitors only through
 *   `getPublishedContentByUrl` with a visitor token, never here. Everything else answers 404, as
 *   for a site that does not exist: an inactive, deleted or unknown key, another site's key, an
 *   unpublished site.
 * - A reader sees the structure filtered by conditions, evaluated against their claims (none
 *   here): see {@link visibleStructure}.
 */

/** A reader: a member who can view the site, or a visitor (with the share key that let them in). */
export type SiteReader =
  | { readonly kind: "member"; readonly membership: Membership; readonly permissions: SitePermissions }
  | {
      readonly kind: "visitor";
      readonly shareKey?: string;
      /** The claims the structure is filtered with: a site token's (`CallerScope.claims`), else none. */
      readonly claims?: Readonly<Record<string, unknown>>;
    };

/** What {@link onSiteForReaders} hands `run`. */
export interface SiteReaderAccess {
  readonly site: SiteRecord;
  readonly reader: SiteReader;
}

/** The active share link of `site` whose key is `key`, or undefined. */
export async function findActiveShareLink(
  tx: ReadTransaction,
  site: Pick<SiteRecord, "id">,
  key: string | undefined,
): Promise<ShareLinkRecord | undefined> {
  if (!key) return undefined;
  const [link] = await tx.list(shareLinksTable, { index: "byKey", where: [key], limit: 1 });
  return link && link.site === site.id && link.active ? link : undefined;
}

/**
 * How a non-member reads a published site: `{}` for a public or unlisted site, `{ shareKey }` for a
 * share-link site opened by an active key of its own, undefined when they may not read it.
 */
export async function visitorAccess(
  tx: ReadTransaction,
  site: SiteRecord,
  shareKey: string | undefined,
): Promise<{ readonly shareKey?: string } | undefined> {
  if (!site.published) return undefined;
  if (site.visibility === "public" || site.visibility === "unlisted") return {};
  if (site.visibility === "share-link") {
    const link = await findActiveShareLink(tx, site, shareKey);
    return link ? { shareKey: link.key } : undefined;
  }
  return undefined;
}

async function memberOf(tx: ReadTransaction, context: Context, site: SiteRecord) {
  if (!context.caller) return undefined;
  const membership = await findMembership(tx, context, site.organization);
  if (!membership) return undefined;
  const permissions = sitePermissions(membership);
  return permissions.view ? { membership, permissions } : undefined;
}

/**
 * The site in `params.siteId` of the organization in `params.organizationId`, for a member who can
 * view it or a visitor allowed by {@link visitorAccess} (the `shareKey` query parameter); 404 for
 * anyone else. No token is needed: published content is what anonymous readers read.
 *
 * @example
 * ```ts
 * access: onSiteForReaders(), // run({ tx, site, reader })
 * query: z.object({ shareKey: z.string().max(128).optional() }),
 * ```
 */
export function onSiteForReaders(): AccessRule<SiteReaderAccess> {
  return defineAccess({
    summary:
      'the "view" permission on the site in path.siteId, or none for a published public or unlisted site, or a published share-link site with an active key in query.shareKey, or a reader token of the published site',
    authenticated: false,
    async resolve(tx, context, params, query) {
      const refused = () => notFound(`Site "${String(params.siteId)}" not found`);
      const site = await findSite(tx, String(params.organizationId), String(params.siteId));
      if (!site) throw refused();
      const scope = context.caller?.scope;
      if (scope) {
        // A site token (an operation opened to it with `SITE_IN_PATH`, which checked the site): it
        // reads the published site as the visitor whose lookup issued it, whatever its visibility.
        if (scope.site !== site.id || !site.published) throw refused();
        return { site, reader: { kind: "visitor", claims: scope.claims ?? {} } };
      }
      const member = await memberOf(tx, context, site);
      if (member) return { site, reader: { kind: "member", ...member } };
      const shareKey = typeof query?.shareKey === "string" ? query.shareKey : undefined;
      const visitor = await visitorAccess(tx, site, shareKey);
      if (!visitor) throw refused();
      return { site, reader: { kind: "visitor", ...visitor } };
    },
  });
}

/**
 * The reader rule of published reads ({@link onSiteForReaders}), also open to a reader token issued
 * by a lookup of this very site (`invoke` refuses it any other site): it reads the site as the
 * lookup's visitor, with their claims, while the site is published.
 */
export function onSiteForReadersOrToken(): AccessRule<SiteReaderAccess> {
  return readableWithReaderToken(onSiteForReaders(), SITE_IN_PATH);
}

/**
 * Spaces as a reader sees them: the `read` role's permissions (`view` and `access` true, the rest
 * false), whatever the caller's own role. Only live spaces: a deleted one is left out.
 */
export function readerSpaces(tx: ReadTransaction, world: World): PresentSpace {
  return async (id) => {
    const space = await tx.get(spacesTable, id);
    return space?.state === "live"
      ? presentSpaceWith(world, space, spacePermissions("read", space))
      : undefined;
  };
}

/**
 * Whether a condition holds for these claims. A stored condition was parsed when it was written;
 * one that no longer parses hides what it guards (fail closed).
 */
export function holdsFor(condition: string | undefined, claims: Readonly<Record<string, unknown>>): boolean {
  if (condition === undefined) return true;
  try {
    return evaluateCondition(parseCondition(condition), claims);
  } catch {
    return false;
  }
}

/**
 * The structure as a reader with these claims sees it:
 *
 * - a section whose condition does not hold is left out with its site spaces, and so is a site
 *   space whose condition does not hold; a section left without site spaces goes too, and a
 *   group left without sections;
 * - when the default section (or a section's default site space) is left out, the first one
 *   still visible, in structure order, is the reader's default: the site's URL (or the section's)
 *   resolves to it, so a reader always has a default wherever anything is visible.
 *
 * Hidden site spaces (`hidden: true`) stay: they are left out of navigation, not out of reach.
 */
export function visibleStructure(
  structure: StoredStructure,
  claims: Readonly<Record<string, unknown>>,
): StoredStructure {
  const siteSpaces = new Map<string, SiteSpaceRecord[]>();
  for (const [section, records] of structure.siteSpaces) {
    const visible = withDefault(records.filter((record) => holdsFor(record.condition, claims)));
    if (visible.length > 0) siteSpaces.set(section, visible);
  }
  const shown = (section: SiteSectionRecord) =>
    holdsFor(section.condition, claims) && siteSpaces.has(section.id);
  const children = new Map<string, SiteNodeRecord[]>();
  const keep = (parent: string): SiteNodeRecord[] => {
    const kept = (structure.children.get(parent) ?? []).filter((node) =>
      node.kind === "section" ? shown(node) : keep(node.id).length > 0,
    );
    if (kept.length > 0) children.set(parent, kept);
    return kept;
  };
  keep("");
  const ordered = walk(children, "");
  const visibleSections = ordered.filter((node): node is SiteSectionRecord => node.kind === "section");
  const promoted = withDefault(visibleSections);
  const byId = new Map(promoted.map((section) => [section.id, section]));
  for (const [parent, nodes] of children) {
    children.set(
      parent,
      nodes.map((node) => (node.kind === "section" ? (byId.get(node.id) ?? node) : node)),
    );
  }
  if (structure.sections.length > 0) {
    // Site spaces of sections left out go with them.
    for (const section of siteSpaces.keys()) if (!byId.has(section)) siteSpaces.delete(section);
  }
  const sectionIds = new Set(promoted.map((section) => section.id));
  return {
    site: structure.site,
    children,
    siteSpaces,
    sections: structure.sections
      .filter((section) => sectionIds.has(section.id))
      .map((s) => byId.get(s.id) ?? s),
    groups: ordered.filter((node): node is SiteSectionGroupRecord => node.kind === "group"),
  };
}

/** The sections and groups under `parent`, depth first. */
export function walk(
  children: ReadonlyMap<string, readonly SiteNodeRecord[]>,
  parent: string,
): SiteNodeRecord[] {
  return (children.get(parent) ?? []).flatMap((node) =>
    node.kind === "group" ? [node, ...walk(children, node.id)] : [node],
  );
}

/** The records, the first made default when none of them is. */
function withDefault<T extends { readonly default: boolean }>(records: readonly T[]): T[] {
  if (records.length === 0 || records.some((record) => record.default)) return [...records];
  const [first, ...rest] = records as [T, ...T[]];
  return [{ ...first, default: true }, ...rest];
}

/**
 * The published URL of a space for the holder of `shareKey` (`getSpaceById`'s `urls.published`):
 * the URL of its first site space, in structure order, on the share-link site that the key opens,
 * followed by `?share=<key>`. Undefined when the key is not an active key of a published share-link
 * site of the space's organization, or when that site shows the space to no reader.
 */
export async function sharedSpaceUrl(
  tx: ReadTransaction,
  world: World,
  space: SpaceRecord,
  shareKey: string | undefined,
): Promise<string | undefined> {
  if (!shareKey) return undefined;
  const [link] = await tx.list(shareLinksTable, { index: "byKey", where: [shareKey], limit: 1 });
  const site = link?.active ? await tx.get(sitesTable, link.site) : undefined;
  if (!site || site.organization !== space.organization) return undefined;
  if ((await visitorAccess(tx, site, shareKey))?.shareKey !== shareKey) return undefined;
  const visible = visibleStructure(await loadStructure(tx, site), {});
  const found = firstSiteSpaceOf(visible, space.id);
  if (!found) return undefined;
  const { section, siteSpace } = found;
  return readerUrl(
    world,
    `${siteSpaceUrl(world, site, section, siteSpace)}?share=${encodeURIComponent(shareKey)}`,
  );
}

function firstSiteSpaceOf(structure: StoredStructure, space: string) {
  if (structure.sections.length === 0) {
    const siteSpace = structure.siteSpaces.get("")?.find((candidate) => candidate.space === space);
    return siteSpace ? { section: undefined, siteSpace } : undefined;
  }
  for (const node of walk(structure.children, "")) {
    if (node.kind !== "section") continue;
    const siteSpace = structure.siteSpaces.get(node.id)?.find((candidate) => candidate.space === space);
    if (siteSpace) return { section: node, siteSpace };
  }
  return undefined;
}
