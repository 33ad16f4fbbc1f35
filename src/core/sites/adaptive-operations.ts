import * as z from "zod";
import { defineOperation } from "../registry.js";
import { onSite } from "./access.js";
import { templateConditions, validateAdaptiveSchema } from "../visitors/adaptive.js";
import { adaptiveSchemaOf, presentAdaptiveSchema } from "./present.js";
import { siteAdaptiveSchemaSchema, siteParams } from "./schemas.js";
import { type SiteRecord, sitesTable } from "./tables.js";

/**
 * The adaptive schema of a site: the claims its visitors' tokens carry (see `adaptive.ts` for what
 * a schema may hold). A site that never set one answers {@link DEFAULT_ADAPTIVE_SCHEMA} (no claims
 * and an empty `unsigned` object) with the site's `createdAt` as `updatedAt`: the schema it has
 * had since it was created. A PUT replaces the schema whole and stamps `updatedAt`; a refused one
 * leaves the stored schema as it was.
 *
 * Members with the `read` role read the schema and its template conditions; only admins change it.
 * Conditions already written on sections and site spaces are not checked against a new schema: a
 * claim the schema no longer lists is absent from visitors' claims, so a condition on it is false.
 */

const tag = "sites";
const path = "/orgs/{organizationId}/sites/{siteId}/adaptive-schema";

export const getSiteAdaptiveSchema = defineOperation({
  id: "getSiteAdaptiveSchema",
  method: "get",
  path,
  tag,
  summary: "Get the adaptive schema of a site: the claims its visitors carry (the default when never set)",
  params: siteParams,
  access: onSite("view"),
  response: siteAdaptiveSchemaSchema,
  run: async ({ site }) => presentAdaptiveSchema(site),
});

export const updateSiteAdaptiveSchema = defineOperation({
  id: "updateSiteAdaptiveSchema",
  method: "put",
  path,
  tag,
  summary: "Replace the adaptive schema of a site; 400 names the offending property",
  params: siteParams,
  access: onSite("admin"),
  // Checked by `validateAdaptiveSchema`, whose messages name the property (`body.jsonSchema...`).
  body: z.object({ jsonSchema: z.unknown() }),
  response: siteAdaptiveSchemaSchema,
  async run(scope, { body }) {
    const { tx } = scope;
    const jsonSchema = validateAdaptiveSchema(body.jsonSchema, "body.jsonSchema");
    const site: SiteRecord = {
      ...scope.site,
      adaptiveSchema: {
        jsonSchema: jsonSchema as unknown as Record<string, unknown>,
        updatedAt: scope.clock().toISOString(),
      },
    };
    await tx.put(sitesTable, site);
    return presentAdaptiveSchema(site);
  },
});

export const listSiteAdaptiveTemplateConditions = defineOperation({
  id: "listSiteAdaptiveTemplateConditions",
  method: "get",
  path: `${path}/template-conditions`,
  tag,
  summary: "List one condition per claim of the site's adaptive schema, each a valid `condition`",
  params: siteParams,
  access: onSite("view"),
  response: z.object({ items: z.array(z.object({ description: z.string(), condition: z.string() })) }),
  run: async ({ site }) => ({ items: templateConditions(adaptiveSchemaOf(site).jsonSchema) }),
});

export const adaptiveOperations = {
  getSiteAdaptiveSchema,
  updateSiteAdaptiveSchema,
  listSiteAdaptiveTemplateConditions,
};
