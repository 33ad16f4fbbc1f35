import type { Context, World } from "../shared/world.js";
import type { SpaceRecord } from "../spaces/tables.js";
import { spacesTable } from "../spaces/tables.js";
import type { ReadTransaction } from "../storage/port.js";
import type { SiteTokenGrant } from "../users/site-token.js";
import { loadStructure, siteRootUrl } from "../sites/present.js";
import { visibleStructure, visitorAccess, walk } from "../sites/readers.js";
import {
  type SiteRecord,
  type SiteSectionRecord,
  sitesTable,
  type SiteSpaceRecord,
} from "../sites/tables.js";
import { verifyVisitorToken } from "../visitors/visitor-token.js";
import { loadRevision } from "../content-tree/revisions.js";
import { redirectTarget } from "../sites/redirect-targets.js";
import { redirectFrom } from "../sites/redirects.js";

/**
 * Resolving a published URL (`getPublishedContentByUrl`, `resolvePublishedContentByUrl`;
 * docs/sites.md, "URLs").
 *
 * 1. The site: `<baseUrl>/sites/<id or basename>/...` (the id is tried first, so a basename can
 *    never take over another site's id), else `http(s)://<hostname>/...` of the site with that
 *    hostname. `?share=<key>` is the share key.
 * 2. Who may read it: the answer depends only on the URL, what the visitor brings (see
 *    {@link Visitor}) and stored data, never on the caller's token, so a renderer calling with a
 *    member's token shows anonymous readers nothing more than they may see. The site must be
 *    published; `public` and `unlisted` sites resolve for anyone, `share-link` sites with an
 *    active key of their own, `visitor-auth` sites with a valid visitor token (see
 *    {@link visitorClaims}).
 * 3. The section: a segment naming a visible section is consumed; a segment naming a section
 *    hidden from this reader answers 404; otherwise the reader's default section (the first visible
 *    one when the stored default is hidden). Then the site space, likewise within the section.
 * 4. The rest: the remaining segments are the `pathname`, whatever they name. The renderer decides
 *    what it is: a page path, `llms.txt`, `<page>.md`, `sitemap.xml`, or nothing (its 404 page).
 *    An empty rest is the space's root (the renderer shows its first page). So any URL inside a
 *    site the reader may see resolves, and only a URL outside every site, or inside a section or
 *    site space hidden from the reader, answers 404.
 */

/**
 * What a visitor brings to a lookup: a visitor token (`visitorAuthToken` of the GET, `jwtToken` of
 * the POST), verified only for a `visitor-auth` site, and unsigned claims (the POST's
 * `unsignedClaims`), which conditions read as `visitor.claims.unsigned`. Unsigned claims open no
 * site: they only choose among what the reader may already see.
 */
export interface Visitor {
  readonly token?: string | undefined;
  readonly unsignedClaims?: Readonly<Record<string, unknown>> | undefined;
}

/** What a URL resolves to, before it is presented. */
export interface Resolution {
  readonly site: SiteRecord;
  readonly section?: SiteSectionRecord;
  readonly siteSpace: SiteSpaceRecord;
  readonly space: SpaceRecord;
  readonly shareKey?: string;
  readonly pathname: string;
  readonly basePath: string;
  readonly siteBasePath: string;
  readonly complete: boolean;
  readonly canonicalUrl: string;
  /** The claims the structure was filtered with: the visitor token's, and the unsigned ones. */
  readonly claims: Readonly<Record<string, unknown>>;
}

/** Why a URL does not resolve: nothing there (404), or a visitor token that failed. */
export type LookupFailure =
  { readonly kind: "not-found" } | { readonly kind: "token"; readonly site: SiteRecord };

export type LookupResult =
  { readonly ok: true; readonly resolution: Resolution } | ({ readonly ok: false } & LookupFailure);

const NOT_FOUND = { ok: false, kind: "not-found" } as const;

/** The site a URL names, with the URL's path prefix up to the site and the segments after it. */
async function matchSite(
  tx: ReadTransaction,
  world: World,
  url: URL,
): Promise<{ site: SiteRecord; siteBasePath: string; segments: string[] } | undefined> {
  const base = new URL(world.baseUrl);
  const sitesPrefix = `${base.pathname.replace(/\/+$/, "")}/sites/`;
  // By host, http or https alike: a renderer asks for `https://<host>/...` of whatever URL it
  // serves, an instance's own (`http://127.0.0.1:8790/sites/<id>/`) included.
  if (url.host === base.host && url.pathname.startsWith(sitesPrefix)) {
    const [name = "", ...rest] = url.pathname.slice(sitesPrefix.length).split("/");
    const decoded = decode(name);
    if (!decoded) return undefined;
    const site =
      (await tx.get(sitesTable, decoded)) ??
      (await tx.list(sitesTable, { index: "byBasename", where: [decoded], limit: 1 }))[0];
    if (!site) return undefined;
    return { site, siteBasePath: `${sitesPrefix}${name}/`, segments: segmentsOf(rest) };
  }
  const [site] = await tx.list(sitesTable, { index: "byHostname", where: [url.hostname], limit: 1 });
  if (!site) return undefined;
  return { site, siteBasePath: "/", segments: segmentsOf(url.pathname.split("/")) };
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Non-empty path segments, decoded; an undecodable one stays as written (and matches nothing). */
const segmentsOf = (parts: readonly string[]) =>
  parts.filter((part) => part !== "").map((part) => decode(part) ?? part);

/**
 * The claims of a visitor token, as conditions read them (`visitor.claims`): the token's claims
 * but the registered ones. `visitor.claims.unsigned` is the token's own `unsigned` claim when it
 * is an object, and nothing otherwise. Nothing but the token sets a claim outside `unsigned`
 * (see {@link withUnsignedClaims}), so every claim a condition reads there was signed with the
 * site's publishing key.
 */
export function visitorClaims(claims: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const { unsigned, ...signed } = claims;
  const isObject = typeof unsigned === "object" && unsigned !== null && !Array.isArray(unsigned);
  return isObject ? { ...signed, unsigned } : signed;
}

/**
 * `claims` with the visitor's unsigned claims under `unsigned`. They go nowhere else, so a claim
 * a visitor sets never stands for a signed one; on a name both carry, the token's `unsigned` claim
 * (signed) wins.
 */
export function withUnsignedClaims(
  claims: Readonly<Record<string, unknown>>,
  unsignedClaims: Readonly<Record<string, unknown>> | undefined,
): Record<string, unknown> {
  if (!unsignedClaims || Object.keys(unsignedClaims).length === 0) return { ...claims };
  const signed = claims["unsigned"] as Readonly<Record<string, unknown>> | undefined;
  return { ...claims, unsigned: { ...unsignedClaims, ...signed } };
}

/**
 * Resolves a published URL (see the module comment). The visitor's token is verified only for a
 * `visitor-auth` site, against its publishing key at the world's clock.
 */
export async function resolvePublishedUrl(
  tx: ReadTransaction,
  world: World,
  url: URL,
  visitor: Visitor,
): Promise<LookupResult> {
  const match = await matchSite(tx, world, url);
  if (!match || !match.site.published) return NOT_FOUND;
  const { site, siteBasePath, segments } = match;
  let claims: Record<string, unknown> = {};
  let shareKey: string | undefined;
  if (site.visibility === "visitor-auth") {
    if (!visitor.token) return { ok: false, kind: "token", site };
    const verified = await verifyVisitorToken(visitor.token, site.publishingKey, world.clock());
    if (!verified.ok) return { ok: false, kind: "token", site };
    claims = visitorClaims(verified.claims);
  } else {
    const access = await visitorAccess(tx, site, url.searchParams.get("share") ?? undefined);
    if (!access) return NOT_FOUND;
    shareKey = access.shareKey;
  }

  const stored = await loadStructure(tx, site);
  const readerClaims = withUnsignedClaims(claims, visitor.unsignedClaims);
  const visible = visibleStructure(stored, readerClaims);
  const rest = [...segments];
  const named: string[] = [];

  let section: SiteSectionRecord | undefined;
  let sectionFellBack = false;
  if (stored.sections.length > 0) {
    const sections = walk(visible.children, "").filter(
      (node): node is SiteSectionRecord => node.kind === "section",
    );
    const chosen = pick(rest, named, sections, stored.sections);
    if (chosen === "hidden" || !chosen.record) return NOT_FOUND;
    section = chosen.record;
    sectionFellBack = chosen.fellBack && sections.length > 1;
  }
  const siteSpaces = visible.siteSpaces.get(section?.id ?? "") ?? [];
  const chosen = pick(rest, named, siteSpaces, stored.siteSpaces.get(section?.id ?? "") ?? []);
  if (chosen === "hidden" || !chosen.record) return NOT_FOUND;
  const siteSpace = chosen.record;
  const space = await tx.get(spacesTable, siteSpace.space);
  if (!space || space.state !== "live") return NOT_FOUND;

  const pathname = rest.join("/");
  const storedSection = stored.sections.find((candidate) => candidate.id === section?.id);
  const storedSiteSpace = [...stored.siteSpaces.values()]
    .flat()
    .find((candidate) => candidate.id === siteSpace.id);
  const canonicalUrl = `${siteRootUrl(world, site)}${
    storedSection && !storedSection.default ? `${storedSection.path}/` : ""
  }${storedSiteSpace && !storedSiteSpace.default ? `${storedSiteSpace.path}/` : ""}${pathname}`;
  return {
    ok: true,
    resolution: {
      site,
      ...(section ? { section } : {}),
      siteSpace,
      space,
      ...(shareKey ? { shareKey } : {}),
      pathname,
      basePath: `${siteBasePath}${named.map((segment) => `${encodeURIComponent(segment)}/`).join("")}`,
      siteBasePath,
      complete: pathname !== "" || !(sectionFellBack || (chosen.fellBack && siteSpaces.length > 1)),
      canonicalUrl,
      claims: readerClaims,
    },
  };
}

/**
 * The item the next segment names among the visible ones (consuming the segment), "hidden" when it
 * names one hidden from the reader, else the reader's default (`fellBack`).
 */
function pick<T extends { readonly id: string; readonly path: string; readonly default: boolean }>(
  rest: string[],
  named: string[],
  visible: readonly T[],
  all: readonly T[],
): { record: T | undefined; fellBack: boolean } | "hidden" {
  const [segment] = rest;
  if (segment !== undefined) {
    const found = visible.find((item) => item.path === segment);
    if (found) {
      named.push(rest.shift() as string);
      return { record: found, fellBack: false };
    }
    if (all.some((item) => item.path === segment)) return "hidden";
  }
  return { record: visible.find((item) => item.default), fellBack: true };
}

/**
 * What the `apiToken` of a resolution (a site token) grants: its space's current content and
 * revision, and its site's published content as this visitor sees it; its requests count against
 * the address that looked it up and against the site.
 */
export const readerTokenGrant = (context: Context, resolution: Resolution): SiteTokenGrant => ({
  organization: resolution.site.organization,
  site: resolution.site.id,
  siteSection: resolution.section?.id,
  siteSpace: resolution.siteSpace.id,
  space: resolution.space.id,
  revision: resolution.space.revision,
  claims: resolution.claims,
  address: context.clientAddress,
});

/**
 * Where a resolved URL redirects: the published URL of the destination of the site's redirect whose
 * `source` is the URL's path within the site (as written, %-escapes included, without a trailing
 * slash), or undefined. A page wins: a rest that names a page of the resolved space, or an empty
 * rest, never redirects, so a redirect left behind by a page that came back does not hide it. A
 * redirect whose destination is gone is ignored, as if there were none. The target carries the
 * share key the reader came with, so that it stays readable to them.
 */
export async function redirectOf(
  tx: ReadTransaction,
  world: World,
  url: URL,
  resolution: Resolution,
): Promise<string | undefined> {
  if (resolution.pathname === "") return undefined;
  const revision = await loadRevision(tx, world, resolution.space.revision);
  if (await revision?.pageAtPath(resolution.pathname)) return undefined;
  const source = url.pathname.slice(resolution.siteBasePath.length - 1).replace(/\/+$/, "");
  const redirect = source && (await redirectFrom(tx, resolution.site, source));
  if (!redirect) return undefined;
  const target = await redirectTarget(tx, world, resolution.site, redirect.destination);
  if (!target || !resolution.shareKey) return target;
  const withKey = new URL(target);
  withKey.searchParams.set("share", resolution.shareKey);
  return withKey.href;
}
