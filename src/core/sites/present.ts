import { notFound } from "../shared/errors.js";
import type { World } from "../shared/world.js";
import { spacesTable } from "../spaces/tables.js";
import type { ReadTransaction } from "../storage/port.js";
import { type AdaptiveJsonSchema, DEFAULT_ADAPTIVE_SCHEMA } from "../visitors/adaptive.js";
import type {
  PresentSpace,
  ShareLink,
  Site,
  SiteAdaptiveSchema,
  SitePublishingAuth,
  SiteSection,
  SiteSectionGroup,
  SiteSpace,
  SiteStructure,
} from "./schemas.js";
import { findNode } from "./structure.js";
import {
  type ShareLinkRecord,
  type SiteNodeRecord,
  type SiteRecord,
  type SiteSectionGroupRecord,
  type SiteSectionRecord,
  siteNodesTable,
  type SiteSpaceRecord,
  siteSpacesTable,
} from "./tables.js";

/**
 * Responses of the sites module, and the site's structure as stored.
 *
 * URL scheme (docs/sites.md): a published site lives at `https://<hostname>/` when it has a
 * hostname, else at `<baseUrl>/sites/<basename or id>/`. The default section is at the site's URL
 * and any other section at `<site URL><section path>/`; likewise the default site space of a
 * section (or of a site without sections) is at its section's URL and any other one below it at
 * `<path>/`. A share link's URL is the site's URL with `?share=<key>`.
 */

/** The site's published root URL, with a trailing slash: whether or not it is published yet. */
export function siteRootUrl(world: World, site: SiteRecord): string {
  return site.hostname ? `https://${site.hostname}/` : `${world.baseUrl}/sites/${site.basename ?? site.id}/`;
}

/**
 * A published URL as handed out: the site's own URL (what lookups resolve), or, when the instance
 * has a `publishedUrl`, that URL followed by the site's own without its scheme, where a renderer
 * serves it (`http://localhost:3000/url/docs.example.com/guide`).
 */
export function readerUrl(world: World, url: string): string {
  return world.publishedUrl ? `${world.publishedUrl}${url.replace(/^https?:\/\//, "")}` : url;
}

/** The published URL, only once the site is published (the reference's `urls.published`). */
const publishedUrl = (world: World, site: SiteRecord, path = "") =>
  site.published ? { published: readerUrl(world, `${siteRootUrl(world, site)}${path}`) } : {};

/** The site's URL in the API. */
export const siteLocation = (world: World, site: Pick<SiteRecord, "id" | "organization">) =>
  `${world.baseUrl}/v1/orgs/${site.organization}/sites/${site.id}`;

export async function presentSite(tx: ReadTransaction, world: World, site: SiteRecord): Promise<Site> {
  const siteSpaces = (await liveSiteSpaces(tx, site)).length;
  return {
    object: "site",
    id: site.id,
    type: site.type,
    title: site.title,
    ...(site.hostnameClaim || site.hostname
      ? { hostname: site.hostnameClaim?.hostname ?? site.hostname }
      : {}),
    ...(site.basename ? { basename: site.basename } : {}),
    ...(site.proxy ? { proxy: { origin: site.proxy, target: siteRootUrl(world, site) } } : {}),
    visibility: site.visibility,
    published: site.published,
    siteSpaces,
    createdAt: site.createdAt,
    ...(site.adaptiveContent ? { adaptiveContent: site.adaptiveContent } : {}),
    agentsContext: site.agentsContext,
    features: [],
    urls: {
      location: siteLocation(world, site),
      app: `${world.appUrl}/o/${site.organization}/sites/${site.id}`,
      ...publishedUrl(world, site),
    },
    ...(site.hostnameClaim ? { hostnameVerification: presentClaim(site.hostnameClaim) } : {}),
  };
}

/** A pending hostname claim and the TXT record that verifies it. */
function presentClaim(claim: NonNullable<SiteRecord["hostnameClaim"]>): Site["hostnameVerification"] {
  return {
    status: "pending",
    record: { type: "TXT", name: challengeName(claim.hostname), value: challengeValue(claim.token) },
    ...(claim.checkedAt ? { checkedAt: claim.checkedAt } : {}),
    ...(claim.failure ? { failure: claim.failure } : {}),
  };
}

/** The name whose TXT record verifies a claim of `hostname`. */
export const challengeName = (hostname: string) => `_docsbase-challenge.${hostname}`;

/** The TXT value that verifies the claim holding `token`. */
export const challengeValue = (token: string) => `docsbase-verification=${token}`;

/** The stored structure of a site: its sections and groups by parent, its site spaces by section. */
export interface StoredStructure {
  readonly site: SiteRecord;
  /** Sections and groups under each parent ("" the root), in order. */
  readonly children: ReadonlyMap<string, readonly SiteNodeRecord[]>;
  /** Site spaces under each section ("" the root of a site without sections), in order. */
  readonly siteSpaces: ReadonlyMap<string, readonly SiteSpaceRecord[]>;
  readonly sections: readonly SiteSectionRecord[];
  readonly groups: readonly SiteSectionGroupRecord[];
}

const byPosition = (a: { position: string; id: string }, b: { position: string; id: string }) =>
  a.position < b.position ? -1 : a.position > b.position ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/** The site's site spaces whose space is live (not deleted), in position order. */
async function liveSiteSpaces(tx: ReadTransaction, site: SiteRecord): Promise<SiteSpaceRecord[]> {
  const siteSpaces = await tx.list(siteSpacesTable, { index: "bySite", where: [site.id] });
  const live = await Promise.all(
    siteSpaces.map(async (siteSpace) => (await tx.get(spacesTable, siteSpace.space))?.state === "live"),
  );
  return siteSpaces.filter((_, i) => live[i]);
}

/**
 * The site's sections, groups and site spaces, in order. Site spaces whose space is deleted (and
 * not yet purged) are left out, so a deleted space never shows on a site; restoring it brings them
 * back.
 */
export async function loadStructure(tx: ReadTransaction, site: SiteRecord): Promise<StoredStructure> {
  const [nodes, spaces] = await Promise.all([
    tx.list(siteNodesTable, { index: "bySite", where: [site.id] }),
    liveSiteSpaces(tx, site),
  ]);
  const children = new Map<string, SiteNodeRecord[]>();
  for (const node of [...nodes].sort(byPosition)) {
    children.set(node.parent, [...(children.get(node.parent) ?? []), node]);
  }
  const siteSpaces = new Map<string, SiteSpaceRecord[]>();
  for (const siteSpace of spaces) {
    siteSpaces.set(siteSpace.section, [...(siteSpaces.get(siteSpace.section) ?? []), siteSpace]);
  }
  return {
    site,
    children,
    siteSpaces,
    sections: nodes.filter((node): node is SiteSectionRecord => node.kind === "section").sort(byPosition),
    groups: nodes.filter((node): node is SiteSectionGroupRecord => node.kind === "group").sort(byPosition),
  };
}

/** The published URL of a section, given the site. */
export function sectionUrl(world: World, site: SiteRecord, section: SiteSectionRecord | undefined): string {
  return `${siteRootUrl(world, site)}${section && !section.default ? `${section.path}/` : ""}`;
}

/** The published URL of a site space, given its section (undefined when the site has none). */
export function siteSpaceUrl(
  world: World,
  site: SiteRecord,
  section: SiteSectionRecord | undefined,
  siteSpace: Pick<SiteSpaceRecord, "default" | "path">,
): string {
  return `${sectionUrl(world, site, section)}${siteSpace.default ? "" : `${siteSpace.path}/`}`;
}

export async function presentSiteSpace(
  world: World,
  site: SiteRecord,
  section: SiteSectionRecord | undefined,
  siteSpace: SiteSpaceRecord,
  presentSpace: PresentSpace,
): Promise<SiteSpace | undefined> {
  const space = await presentSpace(siteSpace.space);
  if (!space) return undefined;
  const path = siteSpaceUrl(world, site, section, siteSpace).slice(siteRootUrl(world, site).length);
  return {
    object: "site-space",
    id: siteSpace.id,
    path: siteSpace.path,
    ...(siteSpace.section ? { section: siteSpace.section } : {}),
    space,
    title: space.title,
    default: siteSpace.default,
    ...(siteSpace.condition ? { condition: siteSpace.condition } : {}),
    hidden: siteSpace.hidden,
    urls: publishedUrl(world, site, path),
  };
}

/** Site spaces in order, leaving out those whose space `presentSpace` does not show. */
async function presentSiteSpaces(
  world: World,
  structure: StoredStructure,
  section: SiteSectionRecord | undefined,
  presentSpace: PresentSpace,
): Promise<SiteSpace[]> {
  const records = structure.siteSpaces.get(section?.id ?? "") ?? [];
  const presented = await Promise.all(
    records.map((siteSpace) => presentSiteSpace(world, structure.site, section, siteSpace, presentSpace)),
  );
  return presented.filter((siteSpace): siteSpace is SiteSpace => siteSpace !== undefined);
}

export async function presentSection(
  world: World,
  structure: StoredStructure,
  section: SiteSectionRecord,
  presentSpace: PresentSpace,
): Promise<SiteSection> {
  const url = sectionUrl(world, structure.site, section).slice(siteRootUrl(world, structure.site).length);
  return {
    object: "site-section",
    id: section.id,
    title: section.title,
    ...(section.description ? { description: section.description } : {}),
    default: section.default,
    path: section.path,
    ...(section.condition ? { condition: section.condition } : {}),
    ...(section.parent ? { sectionGroup: section.parent } : {}),
    ...(section.icon ? { icon: section.icon } : {}),
    siteSpaces: await presentSiteSpaces(world, structure, section, presentSpace),
    urls: publishedUrl(world, structure.site, url),
  };
}

export async function presentGroup(
  world: World,
  structure: StoredStructure,
  group: SiteSectionGroupRecord,
  presentSpace: PresentSpace,
): Promise<SiteSectionGroup> {
  const children = await presentChildren(world, structure, group.id, presentSpace);
  return {
    object: "site-section-group",
    id: group.id,
    title: group.title,
    ...(group.parent ? { sectionGroup: group.parent } : {}),
    ...(group.icon ? { icon: group.icon } : {}),
    sections: children.filter((child): child is SiteSection => child.object === "site-section"),
    children,
  };
}

/** The sections and groups under `parent`, in order. */
async function presentChildren(
  world: World,
  structure: StoredStructure,
  parent: string,
  presentSpace: PresentSpace,
): Promise<(SiteSection | SiteSectionGroup)[]> {
  return Promise.all(
    (structure.children.get(parent) ?? []).map((node) =>
      node.kind === "section"
        ? presentSection(world, structure, node, presentSpace)
        : presentGroup(world, structure, node, presentSpace),
    ),
  );
}

/**
 * The reference's `SiteStructure`: sections and groups from the root when the site has sections,
 * else its site spaces. What a visitor sees is this over a structure filtered first by their
 * claims (see the published-content operations).
 */
export async function presentStructure(
  world: World,
  structure: StoredStructure,
  presentSpace: PresentSpace,
): Promise<SiteStructure> {
  if (structure.sections.length === 0) {
    return {
      type: "siteSpaces",
      structure: await presentSiteSpaces(world, structure, undefined, presentSpace),
    };
  }
  return { type: "sections", structure: await presentChildren(world, structure, "", presentSpace) };
}

/** A share link; its key (as `token` and in its URL) only for the site's admins. */
export function presentShareLink(
  world: World,
  site: SiteRecord,
  link: ShareLinkRecord,
  options: { readonly admin: boolean },
): ShareLink {
  return {
    object: "share-link",
    id: link.id,
    createdAt: link.createdAt,
    name: link.name,
    active: link.active,
    ...(options.admin ? { token: link.key } : {}),
    urls:
      options.admin && site.published
        ? { published: readerUrl(world, `${siteRootUrl(world, site)}?share=${link.key}`) }
        : {},
  };
}

/** A site space as stored now, presented under its section. */
export async function presentSiteSpaceNow(
  tx: ReadTransaction,
  world: World,
  site: SiteRecord,
  siteSpace: SiteSpaceRecord,
  presentSpace: PresentSpace,
): Promise<SiteSpace> {
  const section = siteSpace.section ? await findNode(tx, site, "section", siteSpace.section) : undefined;
  const presented = await presentSiteSpace(world, site, section, siteSpace, presentSpace);
  if (!presented) throw notFound(`Site space "${siteSpace.id}" not found`);
  return presented;
}

/** A section of the site, presented with its site spaces as of now. */
export async function presentSectionNow(
  tx: ReadTransaction,
  world: World,
  site: SiteRecord,
  section: SiteSectionRecord,
  presentSpace: PresentSpace,
): Promise<SiteSection> {
  const structure = await loadStructure(tx, site);
  const stored = structure.sections.find((candidate) => candidate.id === section.id) ?? section;
  return presentSection(world, structure, stored, presentSpace);
}

/** A group of the site, presented with its sections as of now. */
export async function presentGroupNow(
  tx: ReadTransaction,
  world: World,
  site: SiteRecord,
  group: SiteSectionGroupRecord,
  presentSpace: PresentSpace,
): Promise<SiteSectionGroup> {
  const structure = await loadStructure(tx, site);
  const stored = structure.groups.find((candidate) => candidate.id === group.id) ?? group;
  return presentGroup(world, structure, stored, presentSpace);
}

/** The site's adaptive schema as stored, or the default one. */
export function adaptiveSchemaOf(site: SiteRecord): { jsonSchema: AdaptiveJsonSchema; updatedAt: string } {
  return site.adaptiveSchema
    ? {
        jsonSchema: site.adaptiveSchema.jsonSchema as unknown as AdaptiveJsonSchema,
        updatedAt: site.adaptiveSchema.updatedAt,
      }
    : { jsonSchema: DEFAULT_ADAPTIVE_SCHEMA, updatedAt: site.createdAt };
}

/** The site's adaptive schema, or the default one since its creation. */
export function presentAdaptiveSchema(site: SiteRecord): SiteAdaptiveSchema {
  const { jsonSchema, updatedAt } = adaptiveSchemaOf(site);
  return {
    object: "site-adaptive-schema",
    jsonSchema: jsonSchema as unknown as Record<string, unknown>,
    updatedAt,
  };
}

/** The site's publishing auth: its key signs the tokens of its visitors. */
export function presentPublishingAuth(site: SiteRecord): SitePublishingAuth {
  return { object: "publishing-auth", backend: "custom", privateKey: site.publishingKey };
}
