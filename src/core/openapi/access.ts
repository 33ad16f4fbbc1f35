import type { Membership } from "../permissions/membership.js";
import {
  memberStanding,
  ownedObjectRules,
  type MemberStanding,
  type OnObject,
  type OrganizationWide,
} from "../permissions/owned.js";
import type { PermissionFlag } from "../permissions/refuse.js";
import type { AccessRule } from "../permissions/rule.js";
import { atLeast } from "../shared/roles.js";
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
export type OpenAPISpecAccess<S extends OpenAPISpecRecord | undefined = OpenAPISpecRecord> = OnObject<
  "spec",
  S,
  MemberStanding,
  OpenAPISpecPermissions
>;

/** The spec of the organization with this slug, or undefined. */
export async function findOpenAPISpec(
  tx: ReadTransaction,
  organization: string,
  slug: string,
): Promise<OpenAPISpecRecord | undefined> {
  const [spec] = await tx.list(openAPISpecsTable, { index: "bySlug", where: [organization, slug], limit: 1 });
  return spec;
}

const specRules = ownedObjectRules({
  key: "spec",
  noun: "OpenAPI spec",
  param: "specSlug",
  table: openAPISpecsTable,
  organizationIn: "path",
  // By its slug in the organization, not by its key.
  find: (tx, slug, organization) => findOpenAPISpec(tx, String(organization), slug),
  standing: memberStanding,
  permissions: ({ membership }) => openAPISpecPermissions(membership),
  actions: { view: "Reading OpenAPI specs", edit: "Managing OpenAPI specs" },
});

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
): AccessRule<OrganizationWide<MemberStanding, OpenAPISpecPermissions>> {
  return specRules.all(flag);
}

/** `flag` on the spec `params.specSlug` of the organization: 404 when there is none. */
export function onOpenAPISpec(flag: PermissionFlag<OpenAPISpecPermissions>): AccessRule<OpenAPISpecAccess> {
  return specRules.required(flag);
}

/** Like {@link onOpenAPISpec}, for PUT and DELETE, which act whether or not the spec exists. */
export function onOpenAPISpecIfPresent(
  flag: PermissionFlag<OpenAPISpecPermissions>,
): AccessRule<OpenAPISpecAccess<OpenAPISpecRecord | undefined>> {
  return specRules.ifPresent(flag);
}
