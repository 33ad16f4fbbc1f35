import * as z from "zod";
import { organizationsTable } from "../organizations/tables.js";
import { inOrganization } from "../permissions/organization.js";
import { noToken } from "../permissions/rules.js";
import { defineOperation, deleted } from "../registry.js";
import { badRequest, notFound } from "../shared/errors.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import { pathParam } from "../shared/schema.js";
import { nextSequence } from "../shared/sequence.js";
import type { ReadTransaction } from "../storage/port.js";
import { teamsTable } from "../teams/tables.js";
import {
  MAX_SAML_PROVIDERS,
  samlLabel,
  samlProviderFields,
  samlProviderParams,
  samlProviderSchema,
  serviceOf,
  ssoProviderLoginSchema,
  statusOf,
  type SAMLProvider,
} from "./schemas.js";
import { type SAMLProviderRecord, samlProvidersTable } from "./tables.js";
import { presentSAMLProvider } from "./present.js";

/**
 * SAML providers of an organization (docs/sso.md). Organization admins manage them; the login
 * list names the active ones, with nothing of their configuration, to whoever asks.
 */

const tag = "sso";
const organizationParams = z.object({ organizationId: pathParam() });

/** A provider of the organization, or 404. */
async function requireProvider(
  tx: ReadTransaction,
  organization: string,
  id: string,
): Promise<SAMLProviderRecord> {
  const provider = await tx.get(samlProvidersTable, id);
  if (!provider || provider.organization !== organization) {
    throw notFound(`SAML provider "${id}" not found`);
  }
  return provider;
}

type Fields = { [K in keyof typeof samlProviderFields]?: z.output<(typeof samlProviderFields)[K]> };

/** Checks what the body sets beyond its schema: the certificate's content and the default team. */
async function checkFields(tx: ReadTransaction, organization: string, now: Date, body: Fields) {
  if (body.certificate !== undefined) {
    // The X.509 parser (asn1js and its schemas) loads when a certificate is first checked.
    const { checkCertificate } = await import("./certificate.js");
    const check = checkCertificate(body.certificate, now);
    if (!check.ok) throw badRequest(`body.certificate: ${check.reason}`);
  }
  if (body.defaultTeam !== undefined) {
    const team = await tx.get(teamsTable, body.defaultTeam);
    if (!team || team.organization !== organization) {
      throw badRequest(`body.defaultTeam: "${body.defaultTeam}" is not a team of this organization`);
    }
  }
}

/** The fields of the body that are set, to spread over a record. */
function setFields(body: Fields): Partial<SAMLProviderRecord> {
  const fields: Partial<SAMLProviderRecord> = {};
  if (body.ssoURL !== undefined) fields.ssoURL = body.ssoURL;
  if (body.entityID !== undefined) fields.entityID = body.entityID;
  if (body.certificate !== undefined) fields.certificate = body.certificate;
  if (body.defaultTeam !== undefined) fields.defaultTeam = body.defaultTeam;
  if (body.defaultRole !== undefined) fields.defaultRole = body.defaultRole;
  return fields;
}

export const listSAMLProvidersInOrganizationById = defineOperation({
  id: "listSAMLProvidersInOrganizationById",
  method: "get",
  path: "/orgs/{organizationId}/saml",
  tag,
  summary: "List the SAML providers of an organization, oldest first (admins)",
  params: organizationParams,
  access: inOrganization("admin"),
  query: z.object(pageQuery),
  response: listOf(samlProviderSchema),
  async run(scope, { query }) {
    const { tx, membership, permissions } = scope;
    return paginate<SAMLProviderRecord, SAMLProvider>(tx, query, {
      table: samlProvidersTable,
      index: "byOrganization",
      where: [membership.organization.id],
      map: (record) => presentSAMLProvider(tx, scope, membership, permissions, record),
    });
  },
});

export const createOrganizationSAMLProvider = defineOperation({
  id: "createOrganizationSAMLProvider",
  method: "post",
  path: "/orgs/{organizationId}/saml",
  tag,
  summary:
    "Create a SAML provider (admins). It is `pending` until it has an `ssoURL`, an `entityID` and a " +
    "certificate (X.509 in PEM, not expired), then `active`.",
  params: organizationParams,
  access: inOrganization("admin"),
  body: z.object({ label: samlLabel, ...samlProviderFields }),
  response: samlProviderSchema,
  status: 201,
  async run(scope, { body }) {
    const { tx, membership, permissions } = scope;
    const organization = membership.organization.id;
    const count = await tx.count(samlProvidersTable, { index: "byOrganization", where: [organization] });
    if (count >= MAX_SAML_PROVIDERS) {
      throw badRequest(`An organization has at most ${MAX_SAML_PROVIDERS} SAML providers`);
    }
    const now = scope.clock();
    await checkFields(tx, organization, now, body);
    const record: SAMLProviderRecord = {
      id: scope.ids(),
      organization,
      seq: await nextSequence(tx, organization),
      label: body.label,
      defaultRole: "read",
      createdAt: now.toISOString(),
      ...setFields(body),
    };
    await tx.put(samlProvidersTable, record);
    return presentSAMLProvider(tx, scope, membership, permissions, record);
  },
});

export const getOrganizationSAMLProviderById = defineOperation({
  id: "getOrganizationSAMLProviderById",
  method: "get",
  path: "/orgs/{organizationId}/saml/{samlProviderId}",
  tag,
  summary: "Get a SAML provider, with its certificate and configuration (admins)",
  params: samlProviderParams,
  access: inOrganization("admin"),
  response: samlProviderSchema,
  async run(scope, { params }) {
    const { tx, membership, permissions } = scope;
    const record = await requireProvider(tx, membership.organization.id, params.samlProviderId);
    return presentSAMLProvider(tx, scope, membership, permissions, record);
  },
});

export const updateOrganizationSAMLProvider = defineOperation({
  id: "updateOrganizationSAMLProvider",
  method: "patch",
  path: "/orgs/{organizationId}/saml/{samlProviderId}",
  tag,
  summary: "Update a SAML provider (admins): the fields sent, with the checks of creation",
  params: samlProviderParams,
  access: inOrganization("admin"),
  body: z.object({ label: samlLabel.optional(), ...samlProviderFields }),
  response: samlProviderSchema,
  async run(scope, { params, body }) {
    const { tx, membership, permissions } = scope;
    const organization = membership.organization.id;
    const record = await requireProvider(tx, organization, params.samlProviderId);
    await checkFields(tx, organization, scope.clock(), body);
    const updated: SAMLProviderRecord = {
      ...record,
      ...(body.label !== undefined ? { label: body.label } : {}),
      ...setFields(body),
    };
    await tx.put(samlProvidersTable, updated);
    return presentSAMLProvider(tx, scope, membership, permissions, updated);
  },
});

export const deleteOrganizationSAMLProvider = defineOperation({
  id: "deleteOrganizationSAMLProvider",
  method: "delete",
  path: "/orgs/{organizationId}/saml/{samlProviderId}",
  tag,
  summary: "Delete a SAML provider (admins): 205 when deleted, 204 when there was none",
  params: samlProviderParams,
  access: inOrganization("admin"),
  emptyStatuses: [204, 205],
  async run({ tx, membership }, { params }) {
    const record = await tx.get(samlProvidersTable, params.samlProviderId);
    if (!record || record.organization !== membership.organization.id) return deleted(false);
    await tx.delete(samlProvidersTable, record.id);
    return deleted(true);
  },
});

export const listSSOProviderLoginsInOrganization = defineOperation({
  id: "listSSOProviderLoginsInOrganization",
  method: "get",
  path: "/orgs/{organizationId}/sso",
  tag,
  summary:
    "List the active SAML providers of an organization as sign-in choices (`id`, `label`, " +
    "`startURL`), oldest first. Needs no token: a sign-in page shows it before anyone signs in.",
  params: organizationParams,
  access: noToken,
  response: z.object({ items: z.array(ssoProviderLoginSchema) }),
  async run(scope, { params }) {
    const { tx } = scope;
    const organization = await tx.get(organizationsTable, params.organizationId);
    if (!organization) throw notFound(`Organization "${params.organizationId}" not found`);
    const providers = await tx.list(samlProvidersTable, {
      index: "byOrganization",
      where: [organization.id],
    });
    return {
      items: providers
        .filter((provider) => statusOf(provider) === "active")
        .map((provider) => ({
          id: provider.id,
          label: provider.label,
          startURL: serviceOf(scope, provider).startURL,
        })),
    };
  },
});

export const ssoOperations = {
  listSAMLProvidersInOrganizationById,
  createOrganizationSAMLProvider,
  getOrganizationSAMLProviderById,
  updateOrganizationSAMLProvider,
  deleteOrganizationSAMLProvider,
  listSSOProviderLoginsInOrganization,
};
