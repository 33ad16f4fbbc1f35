import { requireMembership, type Membership } from "../permissions/membership.js";
import { requirePermission, type PermissionFlag } from "../permissions/refuse.js";
import { defineAccess, type AccessRule } from "../permissions/rule.js";
import { notFound } from "../shared/errors.js";
import { atLeast } from "../shared/roles.js";
import type { Context } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import { type OpenAPISpecRecord, openAPISpecsTable } from "./tables.js";

/**
 * Who may do what with an organization's OpenAPI specs (docs/openapi-specs.md, "Who does what"):
 * members with at least the `read` role see them (`view`), its admins create, replace, publish
 * and delete them (`edit`). Guests and non-members get 404. A `public` spec's latest version is
 * also readable by anyone at its published URL (`getPublishedOpenAPISpec`).
 */
export interface OpenAPISpecPermissions {
  readonly view: boolean;
  readonly edit: boolean;
}

export function openAPISpecPermissions(membership: Membership): OpenAPISpecPermissions {
  return { view: atLeast(membership.role, "read"), edit: atLeast(membership.role, "admin") };
}

/** What the rules hand `run`: the spec is undefined only for {@link onOpenAPISpecIfPresent}. */
export interface OpenAPISpecAccess<S extends OpenAPISpecRecord | undefined = OpenAPISpecRecord> {
  readonly membership: Membership;
  readonly permissions: OpenAPISpecPermissions;
  readonly spec: S;
}

const ACTIONS: Record<PermissionFlag<OpenAPISpecPermissions>, string> = {
  view: "Reading OpenAPI specs",
  edit: "Managing OpenAPI specs",
};

/** The spec of the organization with this slug, or undefined. */
export async function findOpenAPISpec(
  tx: ReadTransaction,
  organization: string,
  slug: string,
): Promise<OpenAPISpecRecord | undefined> {
  const [spec] = await tx.list(openAPISpecsTable, { index: "bySlug", where: [organization, slug], limit: 1 });
  return spec;
}

async function resolveOrganization(
  tx: ReadTransaction,
  context: Context,
  params: Record<string, unknown>,
  flag: PermissionFlag<OpenAPISpecPermissions>,
) {
  const membership = await requireMembership(tx, context, String(params.organizationId));
  const permissions = openAPISpecPermissions(membership);
  if (!permissions.view) throw notFound(`Organization "${String(params.organizationId)}" not found`);
  return { membership, permissions, check: () => requirePermission(permissions, flag, ACTIONS[flag]) };
}

/**
 * `flag` on the OpenAPI specs of the organization in `params.organizationId`, for the operations
 * on the collection (list, create).
 *
 * @example
 * ```ts
 * access: inOpenAPISpecs("edit"), // run({ tx, membership, permissions })
 * ```
 */
export function inOpenAPISpecs(
  flag: PermissionFlag<OpenAPISpecPermissions>,
): AccessRule<Omit<OpenAPISpecAccess, "spec">> {
  return defineAccess({
    summary: `the "${flag}" permission on the OpenAPI specs of the organization in path.organizationId`,
    authenticated: true,
    async resolve(tx, context, params) {
      const { membership, permissions, check } = await resolveOrganization(tx, context, params, flag);
      check();
      return { membership, permissions };
    },
  });
}

/** `flag` on the spec `params.specSlug` of the organization: 404 when there is none. */
export function onOpenAPISpec(flag: PermissionFlag<OpenAPISpecPermissions>): AccessRule<OpenAPISpecAccess> {
  return defineAccess({
    summary: `the "${flag}" permission on the OpenAPI spec in path.specSlug`,
    authenticated: true,
    async resolve(tx, context, params) {
      const { membership, permissions, check } = await resolveOrganization(tx, context, params, flag);
      const spec = await findOpenAPISpec(tx, membership.organization.id, String(params.specSlug));
      if (!spec) throw notFound(`OpenAPI spec "${String(params.specSlug)}" not found`);
      check();
      return { membership, permissions, spec };
    },
  });
}

/** Like {@link onOpenAPISpec}, for PUT and DELETE, which act whether or not the spec exists. */
export function onOpenAPISpecIfPresent(
  flag: PermissionFlag<OpenAPISpecPermissions>,
): AccessRule<OpenAPISpecAccess<OpenAPISpecRecord | undefined>> {
  return defineAccess({
    summary: `the "${flag}" permission on the OpenAPI specs of the organization (path.specSlug may not exist yet)`,
    authenticated: true,
    async resolve(tx, context, params) {
      const { membership, permissions, check } = await resolveOrganization(tx, context, params, flag);
      check();
      const spec = await findOpenAPISpec(tx, membership.organization.id, String(params.specSlug));
      return { membership, permissions, spec };
    },
  });
}
