import * as z from "zod";
import { noToken } from "../permissions/rules.js";
import { defineOperation, deleted, Reply } from "../registry.js";
import { conflict, notFound } from "../shared/errors.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import { pathParam } from "../shared/schema.js";
import type { World } from "../shared/world.js";
import type { WriteTransaction } from "../storage/port.js";
import {
  findOpenAPISpec,
  inOpenAPISpecs,
  onOpenAPISpec,
  onOpenAPISpecIfPresent,
  type OpenAPISpecPermissions,
} from "./access.js";
import { presentSpec, specLocation } from "./present.js";
import { queueProcessing } from "./process.js";
import {
  type OpenAPISpec,
  openAPISpecSchema,
  openAPISpecSlug,
  openAPISpecSource,
  openAPISpecContentSchema,
  specParams,
} from "./schemas.js";
import {
  type OpenAPISpecRecord,
  openAPISpecsTable,
  openAPISpecVisibility,
  openAPISpecVersionsTable,
} from "./tables.js";

/**
 * OpenAPI specs of an organization (docs/openapi-specs.md): listed and read by `read` members,
 * created, replaced, published and deleted by admins. Creating or replacing one queues its
 * processing (see `process.ts`); what it produced is read through the versions (`versions.ts`).
 */

const tag = "openapi";
const organizationParams = z.object({ organizationId: pathParam() });

/** Stores a new private spec, queues its processing, and answers 201 with its `Location`. */
async function createSpec(
  tx: WriteTransaction,
  world: World,
  organization: string,
  slug: string,
  source: OpenAPISpecRecord["source"],
  permissions: OpenAPISpecPermissions,
) {
  const now = world.clock().toISOString();
  const spec: OpenAPISpecRecord = {
    id: world.ids(),
    organization,
    slug,
    source,
    visibility: "private",
    processingState: "pending",
    sourceRevision: 1,
    createdAt: now,
    updatedAt: now,
  };
  await tx.put(openAPISpecsTable, spec);
  await queueProcessing(tx, world, spec);
  return new Reply(201, presentSpec(world, spec, permissions), { location: specLocation(world, spec) });
}

export const listOpenAPISpecs = defineOperation({
  id: "listOpenAPISpecs",
  method: "get",
  path: "/orgs/{organizationId}/openapi",
  tag,
  summary: "List the OpenAPI specs of an organization, oldest first",
  params: organizationParams,
  access: inOpenAPISpecs("view"),
  query: z.object({ ...pageQuery }),
  response: listOf(openAPISpecSchema),
  async run(scope, { params, query }) {
    return paginate<OpenAPISpecRecord, OpenAPISpec>(scope.tx, query, {
      table: openAPISpecsTable,
      index: "byOrganization",
      where: [params.organizationId],
      map: (spec) => presentSpec(scope, spec, scope.permissions),
    });
  },
});

export const createOpenAPISpec = defineOperation({
  id: "createOpenAPISpec",
  method: "post",
  path: "/orgs/{organizationId}/openapi",
  tag,
  summary: "Create an OpenAPI spec and queue its processing (409 when the slug is taken)",
  params: organizationParams,
  access: inOpenAPISpecs("edit"),
  body: z.object({ slug: openAPISpecSlug, source: openAPISpecSource }),
  response: openAPISpecSchema,
  status: 201,
  async run(scope, { params, body }) {
    const { tx } = scope;
    if (await findOpenAPISpec(tx, params.organizationId, body.slug)) {
      throw conflict(`body.slug: an OpenAPI spec "${body.slug}" already exists in this organization`);
    }
    return createSpec(tx, scope, params.organizationId, body.slug, body.source, scope.permissions);
  },
});

export const getOpenAPISpecBySlug = defineOperation({
  id: "getOpenAPISpecBySlug",
  method: "get",
  path: "/orgs/{organizationId}/openapi/{specSlug}",
  tag,
  summary: "Get an OpenAPI spec by its slug",
  params: specParams,
  access: onOpenAPISpec("view"),
  response: openAPISpecSchema,
  async run(scope) {
    return presentSpec(scope, scope.spec, scope.permissions);
  },
});

export const createOrUpdateOpenAPISpecBySlug = defineOperation({
  id: "createOrUpdateOpenAPISpecBySlug",
  method: "put",
  path: "/orgs/{organizationId}/openapi/{specSlug}",
  tag,
  summary: "Create the spec with this slug (201) or replace its source (200); either queues processing",
  params: specParams.extend({ specSlug: openAPISpecSlug }),
  access: onOpenAPISpecIfPresent("edit"),
  body: z.object({ source: openAPISpecSource }),
  response: openAPISpecSchema,
  async run(scope, { params, body }) {
    const { tx } = scope;
    const now = scope.clock().toISOString();
    if (scope.spec) {
      const updated: OpenAPISpecRecord = {
        ...scope.spec,
        source: body.source,
        processingState: "pending",
        sourceRevision: scope.spec.sourceRevision + 1,
        updatedAt: now,
      };
      await tx.put(openAPISpecsTable, updated);
      await queueProcessing(tx, scope, updated);
      return presentSpec(scope, updated, scope.permissions);
    }
    return createSpec(tx, scope, params.organizationId, params.specSlug, body.source, scope.permissions);
  },
});

export const updateOpenAPISpecBySlug = defineOperation({
  id: "updateOpenAPISpecBySlug",
  method: "patch",
  path: "/orgs/{organizationId}/openapi/{specSlug}",
  tag,
  summary: "Set a spec's visibility: `public` publishes its latest version at `urls.published`",
  params: specParams,
  access: onOpenAPISpec("edit"),
  body: z.object({ visibility: openAPISpecVisibility }),
  response: openAPISpecSchema,
  async run(scope, { body }) {
    const updated: OpenAPISpecRecord = {
      ...scope.spec,
      visibility: body.visibility,
      updatedAt: scope.clock().toISOString(),
    };
    await scope.tx.put(openAPISpecsTable, updated);
    return presentSpec(scope, updated, scope.permissions);
  },
});

export const deleteOpenAPISpecBySlug = defineOperation({
  id: "deleteOpenAPISpecBySlug",
  method: "delete",
  path: "/orgs/{organizationId}/openapi/{specSlug}",
  tag,
  summary: "Delete a spec and its versions (205; 204 when there was none)",
  params: specParams,
  access: onOpenAPISpecIfPresent("edit"),
  emptyStatuses: [204, 205],
  async run({ tx, spec }) {
    if (!spec) return deleted(false);
    for (const version of await tx.list(openAPISpecVersionsTable, { index: "bySpec", where: [spec.id] })) {
      await tx.delete(openAPISpecVersionsTable, version.id);
    }
    await tx.delete(openAPISpecsTable, spec.id);
    return deleted(true);
  },
});

export const getPublishedOpenAPISpec = defineOperation({
  id: "getPublishedOpenAPISpec",
  method: "get",
  path: "/openapi/{organizationId}/{specSlug}",
  tag,
  summary:
    "The latest version's content of a `public` spec, for anyone holding its published URL (404 otherwise)",
  params: specParams,
  access: noToken,
  response: openAPISpecContentSchema,
  async run({ tx }, { params }) {
    const spec = await findOpenAPISpec(tx, params.organizationId, params.specSlug);
    const version =
      spec?.visibility === "public" && spec.lastVersion
        ? await tx.get(openAPISpecVersionsTable, spec.lastVersion)
        : undefined;
    if (!version) throw notFound(`No published OpenAPI spec "${params.specSlug}"`);
    return version.content;
  },
});

export const specOperations = {
  listOpenAPISpecs,
  createOpenAPISpec,
  getOpenAPISpecBySlug,
  createOrUpdateOpenAPISpecBySlug,
  updateOpenAPISpecBySlug,
  deleteOpenAPISpecBySlug,
  getPublishedOpenAPISpec,
};
