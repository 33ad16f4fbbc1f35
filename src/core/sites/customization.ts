import * as z from "zod";
import { defineOperation, deleted } from "../registry.js";
import { pathParam, queryBoolean } from "../shared/schema.js";
import type { ReadTransaction } from "../storage/port.js";
import { onSite } from "./access.js";
import { defaultSiteCustomization } from "./customization-defaults.js";
import {
  siteCustomizationSchema,
  siteSpaceCustomizationOverrideSchema,
  type SiteCustomization,
  type SiteSpaceCustomizationOverride,
} from "./customization-schema.js";
import { siteParams, type SiteSection, type SiteSectionGroup, type SiteStructure } from "./schemas.js";
import { requireSiteSpace } from "./structure.js";
import { type SiteCustomizationRecord, siteCustomizationsTable, type SiteRecord } from "./tables.js";

/**
 * Customization settings of a site and of its site spaces (docs/sites.md, "Customization").
 *
 * A site has settings whole: the defaults until its admins PUT their own. A site space has
 * overrides: the members set by PATCH, applied over the site's settings whenever the site space's
 * settings are read, so a later change of the site shows through every member a site space does
 * not override. Members who can view the site read them; its admins write them.
 */

const tag = "site-customization";
const siteSpaceParams = siteParams.extend({ siteSpaceId: pathParam() });
// Deprecated in the reference and without effect here: docsbase masks nothing.
const unmaskedQuery = z.object({ unmasked: queryBoolean().optional() });

type Members = Record<string, unknown>;

/**
 * The members of the settings whose own members a site space overrides one by one; every other
 * member (a color, the favicon, a list of links) is overridden whole.
 */
const GROUPS = new Set([
  "styling",
  "styling.sidebar",
  "internationalization",
  "header",
  "footer",
  "themes",
  "pdf",
  "feedback",
  "git",
  "externalLinks",
  "pagination",
  "trademark",
  "privacyPolicy",
  "socialPreview",
]);

const isGroup = (path: string, value: unknown): value is Members =>
  GROUPS.has(path) && typeof value === "object" && value !== null;

/**
 * The stored overrides after a PATCH: members given replace theirs, `null` drops an override (but
 * `title: null` is kept: the site space shows no title), members left out stay.
 */
export function mergeOverrides(stored: Members, patch: Members, at = ""): Members {
  const merged: Members = { ...stored };
  for (const [key, value] of Object.entries(patch)) {
    const path = at ? `${at}.${key}` : key;
    if (value === undefined) continue;
    if (value === null && path !== "title") {
      delete merged[key];
    } else if (isGroup(path, value)) {
      const inner = mergeOverrides((stored[key] as Members | undefined) ?? {}, value, path);
      if (Object.keys(inner).length === 0) delete merged[key];
      else merged[key] = inner;
    } else {
      merged[key] = value;
    }
  }
  return merged;
}

/** The settings of a site space: the site's, with the site space's overrides applied. */
export function applyOverrides(site: SiteCustomization, overrides: Members): SiteCustomization {
  const apply = (base: Members, over: Members, at: string): Members => {
    const result: Members = { ...base };
    for (const [key, value] of Object.entries(over)) {
      const path = at ? `${at}.${key}` : key;
      if (value === null) delete result[key];
      else if (isGroup(path, value))
        result[key] = apply((base[key] as Members | undefined) ?? {}, value, path);
      else result[key] = value;
    }
    return result;
  };
  return apply(site, overrides, "") as SiteCustomization;
}

/** A site's settings and its site spaces' overrides, read at once (one list on an index). */
export interface SiteCustomizations {
  readonly site: SiteCustomization;
  /** The overrides of a site space, `{}` when it has none. */
  overridesOf(siteSpaceId: string): Members;
}

export async function loadCustomizations(tx: ReadTransaction, site: SiteRecord): Promise<SiteCustomizations> {
  const records = await tx.list(siteCustomizationsTable, { index: "bySite", where: [site.id] });
  const own = records.find((record) => record.siteSpace === "");
  const overrides = new Map(records.map((record) => [record.siteSpace, record.settings]));
  return {
    site: own ? (own.settings as SiteCustomization) : defaultSiteCustomization(site.title),
    overridesOf: (siteSpaceId) => overrides.get(siteSpaceId) ?? {},
  };
}

/** The ids of the site spaces a presented structure shows, through its sections and groups. */
function siteSpaceIdsOf(structure: SiteStructure): string[] {
  if (structure.type === "siteSpaces") return structure.structure.map((siteSpace) => siteSpace.id);
  const ids: string[] = [];
  const visit = (nodes: readonly (SiteSection | SiteSectionGroup)[]) => {
    for (const node of nodes) {
      if (node.object === "site-section") ids.push(...node.siteSpaces.map((siteSpace) => siteSpace.id));
      else visit(node.children);
    }
  };
  visit(structure.structure);
  return ids;
}

/**
 * The `customizations` of a published read: the site's settings, and those of every site space
 * the reader's structure shows (overrides or not: a renderer looks up the site space it shows).
 */
export function publishedCustomizations(
  customizations: SiteCustomizations,
  structure: SiteStructure,
): { site: SiteCustomization; siteSpaces: Record<string, SiteCustomization> } {
  const siteSpaces: Record<string, SiteCustomization> = {};
  for (const id of siteSpaceIdsOf(structure)) {
    siteSpaces[id] = applyOverrides(customizations.site, customizations.overridesOf(id));
  }
  return { site: customizations.site, siteSpaces };
}

function record(site: SiteRecord, siteSpace: string, settings: Members, now: Date): SiteCustomizationRecord {
  return {
    id: siteSpace || site.id,
    site: site.id,
    organization: site.organization,
    siteSpace,
    settings,
    updatedAt: now.toISOString(),
  };
}

export const getSiteCustomizationById = defineOperation({
  id: "getSiteCustomizationById",
  method: "get",
  path: "/orgs/{organizationId}/sites/{siteId}/customization",
  tag,
  summary: "A site's customization settings (the defaults until its admins update them)",
  params: siteParams,
  access: onSite("view"),
  query: unmaskedQuery,
  response: siteCustomizationSchema,
  async run({ tx, site }) {
    return (await loadCustomizations(tx, site)).site;
  },
});

export const updateSiteCustomizationById = defineOperation({
  id: "updateSiteCustomizationById",
  method: "put",
  path: "/orgs/{organizationId}/sites/{siteId}/customization",
  tag,
  summary: "Replace a site's customization settings (every member the reference requires)",
  params: siteParams,
  access: onSite("admin"),
  body: siteCustomizationSchema,
  response: siteCustomizationSchema,
  async run(scope, { body }) {
    await scope.tx.put(siteCustomizationsTable, record(scope.site, "", body, scope.clock()));
    return body;
  },
});

export const getSiteSpaceCustomizationById = defineOperation({
  id: "getSiteSpaceCustomizationById",
  method: "get",
  path: "/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization",
  tag,
  summary: "A site space's customization settings: the site's, with the site space's overrides applied",
  params: siteSpaceParams,
  access: onSite("view"),
  query: unmaskedQuery,
  response: siteCustomizationSchema,
  async run({ tx, site }, { params }) {
    const siteSpace = await requireSiteSpace(tx, site, params.siteSpaceId);
    const customizations = await loadCustomizations(tx, site);
    return applyOverrides(customizations.site, customizations.overridesOf(siteSpace.id));
  },
});

export const overrideSiteSpaceCustomizationById = defineOperation({
  id: "overrideSiteSpaceCustomizationById",
  method: "patch",
  path: "/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization",
  tag,
  summary:
    "Override members of the site's settings for one site space (null drops an override); answers the site space's settings",
  params: siteSpaceParams,
  access: onSite("admin"),
  body: siteSpaceCustomizationOverrideSchema,
  response: siteCustomizationSchema,
  async run(scope, { params, body }) {
    const { tx, site } = scope;
    const siteSpace = await requireSiteSpace(tx, site, params.siteSpaceId);
    const customizations = await loadCustomizations(tx, site);
    const overrides = mergeOverrides(
      customizations.overridesOf(siteSpace.id),
      body as SiteSpaceCustomizationOverride,
    );
    if (Object.keys(overrides).length === 0) await tx.delete(siteCustomizationsTable, siteSpace.id);
    else await tx.put(siteCustomizationsTable, record(site, siteSpace.id, overrides, scope.clock()));
    return applyOverrides(customizations.site, overrides);
  },
});

export const deleteSiteSpaceCustomizationById = defineOperation({
  id: "deleteSiteSpaceCustomizationById",
  method: "delete",
  path: "/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization",
  tag,
  summary:
    "Drop every override of a site space: it has the site's settings again (205; 204 when it had none)",
  params: siteSpaceParams,
  access: onSite("admin"),
  emptyStatuses: [204, 205],
  async run({ tx, site }, { params }) {
    const siteSpace = await requireSiteSpace(tx, site, params.siteSpaceId);
    return deleted(await tx.delete(siteCustomizationsTable, siteSpace.id));
  },
});

export const customizationOperations = {
  getSiteCustomizationById,
  updateSiteCustomizationById,
  getSiteSpaceCustomizationById,
  overrideSiteSpaceCustomizationById,
  deleteSiteSpaceCustomizationById,
};
