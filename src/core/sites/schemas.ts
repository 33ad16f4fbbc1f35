import * as z from "zod";
import { pathParam, timestamp, wellFormed } from "../shared/schema.js";
import { spaceSchema, type Space } from "../spaces/schemas.js";
import { siteAgentsContext, siteType, siteVisibility } from "./tables.js";

/** Request fields and their limits (the API's), then the response shapes of the reference. */

export const siteParams = z.object({ organizationId: pathParam(), siteId: pathParam() });

export const siteTitle = z.string().min(2).max(128).check(wellFormed());
export const siteBasename = z.string().min(1).max(100).check(wellFormed());
/**
 * A site's hostname: at least three dot-separated labels of lowercase letters, digits and
 * hyphens, 1 to 63 characters each, not starting or ending with a hyphen; at most 512 characters.
 * The pattern is the reference's `SiteHostname`, whose last label takes at least two characters.
 */
export const siteHostname = z
  .string()
  .max(512)
  .regex(/^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/, {
    error: "Expected a hostname of three or more lowercase labels, such as docs.example.com",
  });
/**
 * The reference's `SiteProxyOrigin`: a host followed by one or more path segments
 * (`example.com/docs`), without a scheme; at most 512 characters.
 */
export const siteProxy = z
  .string()
  .max(512)
  .regex(
    /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.])+[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\/[A-Za-z0-9._~-]+)+$/,
    {
      error: "Expected a host followed by path segments, such as example.com/docs",
    },
  );
export const sectionTitle = z.string().min(2).max(128).check(wellFormed());
/** A section or site-space path: one URL segment. */
export const structurePath = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._~-]*$/, {
    error:
      "Expected one URL segment of letters, digits, '.', '_', '~' and '-', starting with a letter or digit",
  });
export const sectionDescription = z.string().max(256).check(wellFormed());
export const groupTitle = z.string().min(1).max(100).check(wellFormed());
export const iconName = z.string().max(50).check(wellFormed());
export const conditionText = z.string().max(1024);
export const shareLinkName = z.string().max(50).check(wellFormed());

const publishedUrls = z.object({ published: z.string().optional() });

export const siteSchema = z.object({
  object: z.literal("site"),
  id: z.string(),
  type: siteType,
  title: z.string(),
  hostname: z.string().optional(),
  basename: z.string().optional(),
  proxy: z.object({ origin: z.string(), target: z.string() }).optional(),
  visibility: siteVisibility,
  published: z.boolean(),
  siteSpaces: z.number(),
  createdAt: timestamp(),
  adaptiveContent: z.object({ enabled: z.boolean() }).optional(),
  agentsContext: siteAgentsContext,
  features: z.array(z.object({ id: z.string(), plan: siteType, frozen: z.boolean() })),
  urls: z.object({ location: z.string(), app: z.string(), published: z.string().optional() }),
  /**
   * docsbase's extension: the pending claim of `hostname`, and the TXT record that verifies it
   * (docs/sites.md, "Custom hostnames"). Absent when no claim is pending.
   */
  hostnameVerification: z
    .object({
      status: z.literal("pending"),
      record: z.object({ type: z.literal("TXT"), name: z.string(), value: z.string() }),
      checkedAt: timestamp().optional(),
      failure: z.string().optional(),
    })
    .optional(),
});
export type Site = z.infer<typeof siteSchema>;

export const siteSpaceSchema = z.object({
  object: z.literal("site-space"),
  id: z.string(),
  path: z.string(),
  section: z.string().optional(),
  space: spaceSchema,
  title: z.string(),
  default: z.boolean(),
  condition: z.string().optional(),
  hidden: z.boolean(),
  urls: publishedUrls,
});
export type SiteSpace = z.infer<typeof siteSpaceSchema>;

export const siteSectionSchema = z.object({
  object: z.literal("site-section"),
  id: z.string(),
  title: z.string(),
  description: z.string().optional(),
  default: z.boolean(),
  path: z.string(),
  condition: z.string().optional(),
  sectionGroup: z.string().optional(),
  icon: z.string().optional(),
  siteSpaces: z.array(siteSpaceSchema),
  urls: publishedUrls,
});
export type SiteSection = z.infer<typeof siteSectionSchema>;

/** A section group: its sections (deprecated member) and its children, sections and groups in order. */
export interface SiteSectionGroup {
  object: "site-section-group";
  id: string;
  title: string;
  sectionGroup?: string;
  icon?: string;
  sections: SiteSection[];
  children: (SiteSection | SiteSectionGroup)[];
}
export const siteSectionGroupSchema: z.ZodType<SiteSectionGroup> = z.lazy(() =>
  z.object({
    object: z.literal("site-section-group"),
    id: z.string(),
    title: z.string(),
    sectionGroup: z.string().optional(),
    icon: z.string().optional(),
    sections: z.array(siteSectionSchema),
    children: z.array(z.union([siteSectionSchema, siteSectionGroupSchema])),
  }),
);

/** The reference's `SiteStructure`: site spaces at the root, or sections and groups. */
export const siteStructureSchema = z.union([
  z.object({
    type: z.literal("sections"),
    structure: z.array(z.union([siteSectionSchema, siteSectionGroupSchema])),
  }),
  z.object({ type: z.literal("siteSpaces"), structure: z.array(siteSpaceSchema) }),
]);
export type SiteStructure = z.infer<typeof siteStructureSchema>;

export const shareLinkSchema = z.object({
  object: z.literal("share-link"),
  id: z.string(),
  createdAt: timestamp(),
  name: z.string(),
  active: z.boolean(),
  /** The secret key, shown to the site's admins only. */
  token: z.string().optional(),
  urls: publishedUrls,
});
export type ShareLink = z.infer<typeof shareLinkSchema>;

/** The reference's `SiteAdaptiveSchema`. */
export const siteAdaptiveSchemaSchema = z.object({
  object: z.literal("site-adaptive-schema"),
  jsonSchema: z.record(z.string(), z.unknown()),
  updatedAt: timestamp(),
});
export type SiteAdaptiveSchema = z.infer<typeof siteAdaptiveSchemaSchema>;

/** The reference's `SitePublishingAuth`, in its custom-backend branch (`VisitorAuthCustomBackend`). */
export const sitePublishingAuthSchema = z.object({
  object: z.literal("publishing-auth"),
  backend: z.literal("custom"),
  privateKey: z.string(),
});
export type SitePublishingAuth = z.infer<typeof sitePublishingAuthSchema>;

/** How a site space's `space` is presented: by the caller's permissions, or as a reader sees it. */
export type PresentSpace = (space: string) => Promise<Space | undefined>;
