import { defineOperation } from "../registry.js";
import { onSite } from "./access.js";
import { presentPublishingAuth } from "./present.js";
import { siteParams, sitePublishingAuthSchema } from "./schemas.js";
import { type SiteRecord, sitesTable } from "./tables.js";
import { newPublishingKey } from "../visitors/visitor-token.js";

/**
 * The publishing auth of a site: the secret (`privateKey`) that signs the tokens of its visitors
 * when its visibility is `visitor-auth` (HS256 JWTs, see `visitor-token.ts`). Every site has one
 * from its creation, whatever its visibility, so that an admin can set up their token issuer
 * before switching the site to `visitor-auth`. The backend is always `custom`: the visitors' tokens
 * come from the site owner's own service (docsbase installs no authentication integrations).
 *
 * Regenerating makes a new key at once: tokens signed with the old one are refused from then on.
 * Only the site's admins read or regenerate it, since the answer reveals the secret.
 *
 * The reference's `updateSitePublishingAuthById` (PATCH: `backend` and `fallbackURL`) is not
 * implemented: there is no fallback URL to store yet and the backend has one possible value.
 */

const tag = "site-publishing-auth";
const path = "/orgs/{organizationId}/sites/{siteId}/publishing/auth";

export const getSitePublishingAuthById = defineOperation({
  id: "getSitePublishingAuthById",
  method: "get",
  path,
  tag,
  summary: "Get the publishing auth of a site: the private key that signs its visitors' tokens",
  params: siteParams,
  access: onSite("admin"),
  response: sitePublishingAuthSchema,
  run: async ({ site }) => presentPublishingAuth(site),
});

export const regenerateSitePublishingAuthById = defineOperation({
  id: "regenerateSitePublishingAuthById",
  method: "post",
  path: `${path}/regenerate`,
  tag,
  summary: "Replace the private key of a site: tokens signed with the old key are refused from now on",
  params: siteParams,
  access: onSite("admin"),
  response: sitePublishingAuthSchema,
  async run(scope) {
    const site: SiteRecord = { ...scope.site, publishingKey: newPublishingKey() };
    await scope.tx.put(sitesTable, site);
    return presentPublishingAuth(site);
  },
});

export const publishingAuthOperations = { getSitePublishingAuthById, regenerateSitePublishingAuthById };
