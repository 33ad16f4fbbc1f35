import * as z from "zod";
import { memberRoleOrGuest } from "../shared/roles.js";
import {
  boundedId,
  isHttpUrl,
  MAX_URL_LENGTH,
  pathParam,
  timestamp,
  url,
  wellFormed,
} from "../shared/schema.js";
import type { World } from "../shared/world.js";
import { teamSchema } from "../teams/schemas.js";
import type { SAMLProviderRecord } from "./tables.js";

/*
 * The maximum lengths are the reference's `maxLength`, which bounds what is sent: each is checked
 * before `trim()`, so whitespace padding cannot carry a longer value past it. `min(1)` comes after
 * the trim, so that blank is empty.
 */
/** SAML label: 1 to 30, the API's limit. */
export const samlLabel = z.string().max(30).trim().min(1).check(wellFormed());
/** SAML entityID: at most 1024, the API's limit (and not empty: an empty entity ID identifies nothing). */
export const samlEntityID = z.string().max(1024).trim().min(1).check(wellFormed());
/** SAML certificate: at most 10000, the API's limit; `certificate.ts` checks what it holds. */
export const samlCertificate = z.string().max(10000).trim().min(1);
/** SAML ssoURL: at most 2048, the API's limit; the identity provider's sign-in URL, https only. */
export const samlSsoURL = z
  .string()
  .max(MAX_URL_LENGTH)
  .refine((value) => isHttpUrl(value) && value.startsWith("https:"), {
    error: "Expected an absolute https: URL",
  });

/** Most SAML providers of one organization: the login list (`GET /orgs/{id}/sso`) is not paged. */
export const MAX_SAML_PROVIDERS = 100;

/**
 * What a pending provider reports as `ssoURL` before one is set: the reference requires a URI
 * there, and `about:blank` (RFC 6694) is the URI of nothing.
 */
export const NO_SSO_URL = "about:blank";

export const samlProviderParams = z.object({ organizationId: pathParam(), samlProviderId: pathParam() });

/** The body of `createOrganizationSAMLProvider`; update takes the same fields, all optional. */
export const samlProviderFields = {
  entityID: samlEntityID.optional(),
  certificate: samlCertificate.optional(),
  ssoURL: samlSsoURL.optional(),
  defaultTeam: boundedId().optional(),
  defaultRole: memberRoleOrGuest.optional(),
};

export const samlProviderStatus = z.enum(["active", "pending"]);

/** The reference `OrganizationSAMLProvider`. */
export const samlProviderSchema = z.object({
  object: z.literal("saml-provider"),
  id: z.string(),
  label: z.string(),
  ssoURL: z.string(),
  entityID: z.string(),
  certificate: z.string(),
  defaultTeam: teamSchema.optional(),
  defaultRole: memberRoleOrGuest,
  createdAt: timestamp(),
  status: samlProviderStatus,
  service: z.object({ acsURL: url(), startURL: url(), entityID: z.string() }),
  urls: z.object({ location: url() }),
});
export type SAMLProvider = z.infer<typeof samlProviderSchema>;

/** The reference `OrganizationSSOProviderLogin`. */
export const ssoProviderLoginSchema = z.object({ id: z.string(), label: z.string(), startURL: url() });

/** A provider is active once it has an `ssoURL`, an `entityID` and a certificate. */
export const statusOf = (record: SAMLProviderRecord) =>
  record.ssoURL && record.entityID && record.certificate ? "active" : "pending";

/**
 * What the identity provider is configured with: docsbase's side of the exchange, derived from
 * the base URL and the provider id (docs/sso.md, "Service provider URLs").
 */
export function serviceOf(world: World, record: Pick<SAMLProviderRecord, "id">) {
  const base = `${world.baseUrl}/sso/saml/${record.id}`;
  return { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: base };
}

export const samlProviderLocation = (world: World, record: SAMLProviderRecord) =>
  `${world.baseUrl}/v1/orgs/${record.organization}/saml/${record.id}`;
