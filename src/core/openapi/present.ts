import type { World } from "../shared/world.js";
import type { OpenAPISpecPermissions } from "./access.js";
import type { OpenAPISpec, OpenAPISpecVersion } from "./schemas.js";
import type { OpenAPISpecRecord, OpenAPISpecVersionRecord } from "./tables.js";

/**
 * Responses of the OpenAPI module and its URL scheme (docs/openapi-specs.md, "URLs"): a spec lives
 * at `<baseUrl>/v1/orgs/<organization>/openapi/<slug>` in the API, and a `public` one is published
 * at `<baseUrl>/v1/openapi/<organization>/<slug>`, readable without a token.
 */

type SpecKey = Pick<OpenAPISpecRecord, "organization" | "slug">;

/** The spec's URL in the API. */
export const specLocation = (world: World, spec: SpecKey) =>
  `${world.baseUrl}/v1/orgs/${spec.organization}/openapi/${encodeURIComponent(spec.slug)}`;

/** Where a public spec's latest content is readable by anyone. */
export const publishedLocation = (world: World, spec: SpecKey) =>
  `${world.baseUrl}/v1/openapi/${spec.organization}/${encodeURIComponent(spec.slug)}`;

/** A version's URL in the API. */
export const versionLocation = (world: World, spec: SpecKey, version: string) =>
  `${specLocation(world, spec)}/versions/${version}`;

export function presentSpec(
  world: World,
  spec: OpenAPISpecRecord,
  permissions: OpenAPISpecPermissions,
): OpenAPISpec {
  return {
    object: "openapi-spec",
    id: spec.id,
    createdAt: spec.createdAt,
    updatedAt: spec.updatedAt,
    slug: spec.slug,
    ...("url" in spec.source ? { sourceURL: spec.source.url } : {}),
    processingState: spec.processingState,
    visibility: spec.visibility,
    ...(spec.lastVersion ? { lastVersion: spec.lastVersion } : {}),
    ...(spec.lastProcessedAt ? { lastProcessedAt: spec.lastProcessedAt } : {}),
    ...(spec.lastProcessErrorCode ? { lastProcessErrorCode: spec.lastProcessErrorCode } : {}),
    ...(spec.lastProcessedErrors ? { lastProcessedErrors: spec.lastProcessedErrors } : {}),
    permissions: { view: permissions.view, edit: permissions.edit },
    urls: {
      location: specLocation(world, spec),
      app: `${world.appUrl}/o/${spec.organization}/openapi/${encodeURIComponent(spec.slug)}`,
      ...(spec.visibility === "public" ? { published: publishedLocation(world, spec) } : {}),
    },
  };
}

export function presentVersion(
  world: World,
  spec: SpecKey,
  version: OpenAPISpecVersionRecord,
): OpenAPISpecVersion {
  return {
    object: "openapi-spec-version",
    id: version.id,
    createdAt: version.createdAt,
    url: version.content.url,
    urls: { location: versionLocation(world, spec, version.id) },
  };
}
