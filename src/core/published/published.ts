import * as z from "zod";
import { handsOutToken } from "../permissions/rules.js";
import { afterTransaction, type AfterTransaction, defineOperation, type Scope } from "../registry.js";
import { badRequest, notFound } from "../shared/errors.js";
import { MAX_ID_LENGTH, MAX_URL_LENGTH, queryBoolean } from "../shared/schema.js";
import { issueSiteToken, signingKey, siteTokenKey } from "../users/site-token.js";
import { readerTokenGrant, redirectOf, resolvePublishedUrl, type Visitor } from "./lookup.js";
import { loadCustomizations, publishedCustomizations } from "../sites/customization.js";
import { siteCustomizationSchema } from "../sites/customization-schema.js";
import { loadStructure, presentSite, presentStructure } from "../sites/present.js";
import { onSiteForReadersOrToken, readerSpaces, visibleStructure } from "../sites/readers.js";
import { siteParams, siteSchema, siteStructureSchema } from "../sites/schemas.js";
import { memberSpaces } from "../sites/structure.js";

/**
 * Published content (docs/sites.md, "Published content"): what a renderer reads to show a site.
 *
 * `getPublishedContentSite` needs no token (see `readers.ts` for who may read what): members who
 * can view the site get it as stored, published or not; other readers get a published public,
 * unlisted or share-link (with its key) site, its structure filtered by conditions evaluated with
 * no claims, and its spaces with a reader's permissions. A lookup's `apiToken` reads its own
 * published site, filtered with the claims the lookup filtered with.
 *
 * `getPublishedContentByUrl` (GET, the visitor token in the query) and
 * `resolvePublishedContentByUrl` (POST, the visitor's token and unsigned claims in the body)
 * resolve a published URL (see `lookup.ts`), whoever calls, and hand out a short-lived `apiToken`
 * that reads the resolved space's content and nothing else.
 */

const tag = "sites";
const publishedTag = "urls";

/** The longest visitor token accepted: far above any real JWT, small enough to bound the work. */
const MAX_VISITOR_TOKEN_LENGTH = 8192;

export const publishedContentSiteSchema = z.object({
  object: z.literal("published-content-site"),
  site: siteSchema,
  structure: siteStructureSchema,
  customizations: z.object({
    site: siteCustomizationSchema,
    siteSpaces: z.record(z.string(), siteCustomizationSchema),
  }),
  scripts: z.array(z.object({ script: z.string(), cookies: z.boolean() })),
});

export const getPublishedContentSite = defineOperation({
  id: "getPublishedContentSite",
  method: "get",
  path: "/orgs/{organizationId}/sites/{siteId}/published",
  tag,
  summary:
    "A site as its readers see it: the site, its structure, customizations and scripts (no token needed for a published site)",
  params: siteParams,
  access: onSiteForReadersOrToken(),
  query: z.object({ shareKey: z.string().max(MAX_ID_LENGTH).optional() }),
  response: publishedContentSiteSchema,
  async run(scope) {
    const { tx, site, reader } = scope;
    const stored = await loadStructure(tx, site);
    const structure =
      reader.kind === "member"
        ? await presentStructure(scope, stored, memberSpaces(tx, scope, reader.membership))
        : await presentStructure(
            scope,
            visibleStructure(stored, reader.claims ?? {}),
            readerSpaces(tx, scope),
          );
    return {
      object: "published-content-site" as const,
      site: await presentSite(tx, scope, site),
      structure,
      customizations: publishedCustomizations(await loadCustomizations(tx, site), structure),
      scripts: [],
    };
  },
});

const redirectSchema = z.object({
  target: z.enum(["application", "content", "external"]),
  redirect: z.string(),
});

export const publishedSiteContentSchema = z.object({
  site: z.string(),
  siteSection: z.string().optional(),
  siteSpace: z.string(),
  space: z.string(),
  revision: z.string(),
  pathname: z.string(),
  basePath: z.string(),
  siteBasePath: z.string(),
  apiToken: z.string(),
  organization: z.string(),
  shareKey: z.string().optional(),
  complete: z.boolean(),
  canonicalUrl: z.string(),
});

/** An absolute http(s) URL, or 400 naming `field`. */
function parseUrl(text: string, field: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badRequest(`${field}: expected an absolute URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw badRequest(`${field}: expected an http or https URL`);
  }
  return url;
}

const lookupResponse = z.union([redirectSchema, publishedSiteContentSchema]);
type LookupAnswer = z.input<typeof lookupResponse>;

/**
 * The answer of both lookups: the URL resolved for this visitor; or the `Redirect` shape, to the
 * application on request when the visitor's token fails, or to the destination of a site redirect
 * from a path that names no page (`target: "content"`, an absolute URL).
 */
async function lookUp(
  scope: Scope<object, "read">,
  text: string,
  field: string,
  visitor: Visitor,
  redirectOnError: boolean | undefined,
): Promise<LookupAnswer | AfterTransaction<LookupAnswer>> {
  const url = parseUrl(text, field);
  const result = await resolvePublishedUrl(scope.tx, scope, url, visitor);
  if (!result.ok) {
    if (result.kind === "token" && redirectOnError) {
      // No fallback URL is stored (see publishing-auth.ts): the application, where one signs in.
      // Not the site's page there: its path would hand a visitor who holds no valid token the
      // site's and its organization's ids (docs/security.md).
      return { target: "application" as const, redirect: `${scope.appUrl}/` };
    }
    throw notFound(`No published content at "${text}"`);
  }
  const { resolution } = result;
  const redirect = await redirectOf(scope.tx, scope, url, resolution);
  if (redirect) return { target: "content" as const, redirect };
  const answer = (apiToken: string): LookupAnswer => ({
    site: resolution.site.id,
    ...(resolution.section ? { siteSection: resolution.section.id } : {}),
    siteSpace: resolution.siteSpace.id,
    space: resolution.space.id,
    revision: resolution.space.revision,
    pathname: resolution.pathname,
    basePath: resolution.basePath,
    siteBasePath: resolution.siteBasePath,
    apiToken,
    organization: resolution.site.organization,
    ...(resolution.shareKey ? { shareKey: resolution.shareKey } : {}),
    complete: resolution.complete,
    canonicalUrl: resolution.canonicalUrl,
  });
  const grant = readerTokenGrant(scope, resolution);
  const key = await siteTokenKey(scope.tx);
  if (key) return answer(await issueSiteToken(key, scope, grant));
  // The database's first lookup: the signing key is made once, in a write transaction of its own
  // after this read (serializable on every adapter, so instances starting together share one).
  return afterTransaction(async () => {
    const created = await scope.storage.write((tx) => signingKey(tx, scope));
    return answer(await issueSiteToken(created, scope, grant));
  });
}

export const getPublishedContentByUrl = defineOperation({
  id: "getPublishedContentByUrl",
  method: "get",
  path: "/urls/published",
  tag: publishedTag,
  summary:
    "Resolve a published URL to its site, section, site space, space and path, with a short-lived read-only token for that space",
  access: handsOutToken,
  query: z.object({
    url: z.string().min(1).max(MAX_URL_LENGTH),
    visitorAuthToken: z.string().max(MAX_VISITOR_TOKEN_LENGTH).optional(),
    redirectOnError: queryBoolean().optional(),
  }),
  response: lookupResponse,
  run: (scope, { query }) =>
    lookUp(scope, query.url, "query.url", { token: query.visitorAuthToken }, query.redirectOnError),
});

export const resolvePublishedContentByUrl = defineOperation({
  id: "resolvePublishedContentByUrl",
  method: "post",
  path: "/urls/published",
  tag: publishedTag,
  summary:
    "Resolve a published URL as getPublishedContentByUrl does, the visitor's token and unsigned claims in the body",
  access: handsOutToken,
  // A POST that writes nothing: renderers send it twice per page, and reads run side by side.
  transaction: "read",
  body: z.object({
    url: z.string().min(1).max(MAX_URL_LENGTH),
    redirectOnError: z.boolean().optional(),
    visitor: z
      .object({
        jwtToken: z.string().max(MAX_VISITOR_TOKEN_LENGTH).optional(),
        // The reference's `PlainObject`; conditions read it as `visitor.claims.unsigned`.
        unsignedClaims: z.record(z.string(), z.unknown()).optional(),
      })
      .optional(),
  }),
  response: lookupResponse,
  run: (scope, { body }) =>
    lookUp(
      scope,
      body.url,
      "body.url",
      { token: body.visitor?.jwtToken, unsignedClaims: body.visitor?.unsignedClaims },
      body.redirectOnError,
    ),
});

export const publishedOperations = {
  getPublishedContentSite,
  getPublishedContentByUrl,
  resolvePublishedContentByUrl,
};
