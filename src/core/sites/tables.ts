import * as z from "zod";
import { defineTable } from "../storage/table.js";

/** The reference's `SiteType`. */
export const SITE_TYPES = [
  "basic",
  "premium",
  "ultimate",
  "sponsored",
  "legacy-basic",
  "legacy-premium",
] as const;
export const siteType = z.enum(SITE_TYPES);

/** The reference's `SiteVisibility`: who may read the published site. */
export const siteVisibility = z.enum(["public", "unlisted", "share-link", "visitor-auth"]);
export type SiteVisibility = z.infer<typeof siteVisibility>;

/** The reference's `SiteAgentsContext`. */
export const siteAgentsContext = z.enum(["excluded", "included"]);

export const siteRecord = z.object({
  id: z.string(),
  organization: z.string(),
  type: siteType,
  title: z.string(),
  visibility: siteVisibility,
  published: z.boolean(),
  /**
   * The custom hostname the site answers for (`docs.example.com`), unique across sites: set only
   * once a claim is verified or approved, or at once when the instance does not verify claims.
   */
  hostname: z.string().optional(),
  /**
   * A hostname claimed and not yet verified (docs/sites.md, "Custom hostnames"): it answers no
   * lookup and blocks no other site's claim. `token` is what its TXT record must hold; `failure`
   * says why the last check did not verify it.
   */
  hostnameClaim: z
    .object({
      hostname: z.string(),
      token: z.string(),
      checkedAt: z.string().optional(),
      failure: z.string().optional(),
    })
    .optional(),
  /** Path segment of the default URL (`<baseUrl>/sites/<basename>`), unique across sites. */
  basename: z.string().optional(),
  /** `SiteProxyOrigin`: a host followed by path segments (`example.com/docs`). */
  proxy: z.string().optional(),
  adaptiveContent: z.object({ enabled: z.boolean() }).optional(),
  agentsContext: siteAgentsContext,
  createdAt: z.string(),
  /** HS256 secret that signs visitor-auth tokens (`privateKey` of the publishing auth). */
  publishingKey: z.string(),
  /** The adaptive schema as last PUT; absent until then. */
  adaptiveSchema: z
    .object({ jsonSchema: z.record(z.string(), z.unknown()), updatedAt: z.string() })
    .optional(),
});
export type SiteRecord = z.infer<typeof siteRecord>;

export const sitesTable = defineTable({
  name: "sites",
  key: "id",
  indexes: {
    byOrganization: ["organization", "createdAt"],
    byHostname: ["hostname"],
    byBasename: ["basename"],
  },
  record: siteRecord,
});

const nodeCommon = {
  id: z.string(),
  site: z.string(),
  organization: z.string(),
  /** The section group holding it, or "" at the site's root. */
  parent: z.string(),
  /** Fractional-index key ordering the siblings of one parent, sections and groups together. */
  position: z.string(),
  title: z.string(),
  icon: z.string().optional(),
  createdAt: z.string(),
};

/**
 * Sections and section groups share one table: the siblings of a parent (the site root or a group)
 * are sections and groups in one order, which a single index keeps.
 */
export const siteNodeRecord = z.discriminatedUnion("kind", [
  z.object({
    ...nodeCommon,
    kind: z.literal("section"),
    /** Unique among the sections of the site. */
    path: z.string(),
    description: z.string().optional(),
    condition: z.string().optional(),
    /** Exactly one section of a site with sections is its default. */
    default: z.boolean(),
  }),
  z.object({ ...nodeCommon, kind: z.literal("group") }),
]);
export type SiteNodeRecord = z.infer<typeof siteNodeRecord>;
export type SiteSectionRecord = Extract<SiteNodeRecord, { kind: "section" }>;
export type SiteSectionGroupRecord = Extract<SiteNodeRecord, { kind: "group" }>;

export const siteNodesTable = defineTable({
  name: "siteNodes",
  key: "id",
  indexes: {
    byParent: ["site", "parent", "position"],
    bySite: ["site", "kind", "position"],
  },
  record: siteNodeRecord,
});

export const siteSpaceRecord = z.object({
  id: z.string(),
  site: z.string(),
  organization: z.string(),
  /** Its section, or "" in a site without sections. */
  section: z.string(),
  space: z.string(),
  /** Unique among the site spaces of its section (or of the site root). */
  path: z.string(),
  condition: z.string().optional(),
  /** Left out of the site's navigation. */
  hidden: z.boolean(),
  /** Exactly one site space of each section (or of the root) is its default. */
  default: z.boolean(),
  position: z.string(),
  createdAt: z.string(),
});
export type SiteSpaceRecord = z.infer<typeof siteSpaceRecord>;

export const siteSpacesTable = defineTable({
  name: "siteSpaces",
  key: "id",
  indexes: {
    bySection: ["site", "section", "position"],
    bySite: ["site", "position"],
    bySpace: ["space", "site"],
  },
  record: siteSpaceRecord,
});

export const shareLinkRecord = z.object({
  id: z.string(),
  site: z.string(),
  organization: z.string(),
  name: z.string(),
  active: z.boolean(),
  /** The secret that opens a share-link site (`shareKey`), unique across sites. */
  key: z.string(),
  createdAt: z.string(),
});
export type ShareLinkRecord = z.infer<typeof shareLinkRecord>;

export const shareLinksTable = defineTable({
  name: "shareLinks",
  key: "id",
  indexes: {
    bySite: ["site", "createdAt"],
    byKey: ["key"],
  },
  record: shareLinkRecord,
});

/** The reference's `SiteRedirectDestination`: a section, a site space or a page of the site. */
export const siteRedirectDestination = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("site-section"), siteSectionId: z.string() }),
  z.object({ kind: z.literal("site-space"), siteSpaceId: z.string() }),
  z.object({ kind: z.literal("site-page"), siteSpaceId: z.string(), pageId: z.string() }),
]);
export type SiteRedirectDestination = z.infer<typeof siteRedirectDestination>;

export const siteRedirectRecord = z.object({
  id: z.string(),
  site: z.string(),
  organization: z.string(),
  /** A path within the site (`/old/page`), unique among the site's redirects. */
  source: z.string(),
  destination: siteRedirectDestination,
  createdAt: z.string(),
});
export type SiteRedirectRecord = z.infer<typeof siteRedirectRecord>;

/** `bySource` serves the list (in source order), the lookup by source and the uniqueness check. */
export const siteRedirectsTable = defineTable({
  name: "siteRedirects",
  key: "id",
  indexes: { bySource: ["site", "source"] },
  record: siteRedirectRecord,
});

/**
 * Stored customization settings: a site's (`siteSpace` "", keyed by the site's id), stored whole
 * by `updateSiteCustomizationById`, and the overrides of each site space (keyed by its id), stored
 * as sparse members. A site without a record of its own has the defaults (customization-defaults.ts).
 * The settings were checked by the schemas of customization-schema.ts when written.
 */
export const siteCustomizationRecord = z.object({
  id: z.string(),
  site: z.string(),
  organization: z.string(),
  /** The site space whose overrides these are, or "" for the site's own settings. */
  siteSpace: z.string(),
  settings: z.record(z.string(), z.unknown()),
  updatedAt: z.string(),
});
export type SiteCustomizationRecord = z.infer<typeof siteCustomizationRecord>;

/** `bySite` reads a site's settings and every override at once, and serves the site's deletion. */
export const siteCustomizationsTable = defineTable({
  name: "siteCustomizations",
  key: "id",
  indexes: { bySite: ["site", "siteSpace"] },
  record: siteCustomizationRecord,
});
