import * as z from "zod";
import { defineOperation } from "../registry.js";
import { notFound } from "../shared/errors.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import type { ReadTransaction } from "../storage/port.js";
import { onOpenAPISpec } from "./access.js";
import { presentVersion } from "./present.js";
import {
  openAPISpecContentSchema,
  type OpenAPISpecVersion,
  openAPISpecVersionSchema,
  specParams,
  versionParams,
} from "./schemas.js";
import { type OpenAPISpecRecord, type OpenAPISpecVersionRecord, openAPISpecVersionsTable } from "./tables.js";

/**
 * Versions of a spec: each successful processing whose content differs from the latest version's
 * makes one (see `process.ts`). Listed newest first; `latest` is the spec's `lastVersion`.
 * Readable by whoever reads the spec.
 */

const tag = "openapi";

/** The version `id` of the spec, `latest` naming its `lastVersion`; 404 when there is none. */
async function findVersion(
  tx: ReadTransaction,
  spec: OpenAPISpecRecord,
  id: string | "latest",
): Promise<OpenAPISpecVersionRecord> {
  const wanted = id === "latest" ? spec.lastVersion : id;
  const version = wanted ? await tx.get(openAPISpecVersionsTable, wanted) : undefined;
  if (!version || version.spec !== spec.id) {
    throw notFound(
      id === "latest"
        ? `OpenAPI spec "${spec.slug}" has no version yet`
        : `No version "${id}" of the OpenAPI spec "${spec.slug}"`,
    );
  }
  return version;
}

export const listOpenAPISpecVersions = defineOperation({
  id: "listOpenAPISpecVersions",
  method: "get",
  path: "/orgs/{organizationId}/openapi/{specSlug}/versions",
  tag,
  summary: "List the versions of a spec, newest first",
  params: specParams,
  access: onOpenAPISpec("view"),
  query: z.object({ ...pageQuery }),
  response: listOf(openAPISpecVersionSchema),
  async run(scope, { query }) {
    return paginate<OpenAPISpecVersionRecord, OpenAPISpecVersion>(scope.tx, query, {
      table: openAPISpecVersionsTable,
      index: "bySpec",
      where: [scope.spec.id],
      reverse: true,
      map: (version) => presentVersion(scope, scope.spec, version),
    });
  },
});

export const getLatestOpenAPISpecVersion = defineOperation({
  id: "getLatestOpenAPISpecVersion",
  method: "get",
  path: "/orgs/{organizationId}/openapi/{specSlug}/versions/latest",
  tag,
  summary: "Get the latest version of a spec (404 before its first successful processing)",
  params: specParams,
  access: onOpenAPISpec("view"),
  response: openAPISpecVersionSchema,
  async run(scope) {
    return presentVersion(scope, scope.spec, await findVersion(scope.tx, scope.spec, "latest"));
  },
});

export const getLatestOpenAPISpecVersionContent = defineOperation({
  id: "getLatestOpenAPISpecVersionContent",
  method: "get",
  path: "/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content",
  tag,
  summary:
    "Get the content of the latest version: every file by URL (`filesystem`) and the document's (`url`)",
  params: specParams,
  access: onOpenAPISpec("view"),
  response: openAPISpecContentSchema,
  async run(scope) {
    return (await findVersion(scope.tx, scope.spec, "latest")).content;
  },
});

export const getOpenAPISpecVersionById = defineOperation({
  id: "getOpenAPISpecVersionById",
  method: "get",
  path: "/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}",
  tag,
  summary: "Get a version of a spec by id",
  params: versionParams,
  access: onOpenAPISpec("view"),
  response: openAPISpecVersionSchema,
  async run(scope, { params }) {
    return presentVersion(scope, scope.spec, await findVersion(scope.tx, scope.spec, params.versionId));
  },
});

export const getOpenAPISpecVersionContentById = defineOperation({
  id: "getOpenAPISpecVersionContentById",
  method: "get",
  path: "/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content",
  tag,
  summary: "Get the content of a version of a spec",
  params: versionParams,
  access: onOpenAPISpec("view"),
  response: openAPISpecContentSchema,
  async run(scope, { params }) {
    return (await findVersion(scope.tx, scope.spec, params.versionId)).content;
  },
});

export const versionOperations = {
  listOpenAPISpecVersions,
  getLatestOpenAPISpecVersion,
  getLatestOpenAPISpecVersionContent,
  getOpenAPISpecVersionById,
  getOpenAPISpecVersionContentById,
};
