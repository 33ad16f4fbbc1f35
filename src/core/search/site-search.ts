import * as z from "zod";
import { requireRevision, type Revision } from "../content-tree/revisions.js";
import { defineOperation } from "../registry.js";
import { badRequest } from "../shared/errors.js";
import { listOf, pageQuery, paginateSorted } from "../shared/pagination.js";
import { boundedId } from "../shared/schema.js";
import { loadStructure, type StoredStructure } from "../sites/present.js";
import { onSiteForReadersOrToken, visibleStructure, walk } from "../sites/readers.js";
import { shareKeyQuery } from "../sites/sections.js";
import { siteParams } from "../sites/schemas.js";
import type { SiteSpaceRecord } from "../sites/tables.js";
import { type SpaceRecord, spacesTable } from "../spaces/tables.js";
import type { ReadTransaction } from "../storage/port.js";
import { withSearchIndex } from "./live-index.js";
import { PAGES_PER_SPACE, SEARCH_QUERY_LENGTH } from "./operations.js";
import { presentSpaceResult } from "./present.js";
import { spaceResultSchema } from "./schemas.js";
import { pageHit, rankPages, type PageHit } from "./search-index.js";

/**
 * `searchSiteContent`: search across the site spaces of a site, as its readers see it
 * (docs/sites.md, "Search").
 *
 * - Who: the readers of the site's published content (`onSiteForReaders`: a member who can view
 *   the site, a visitor of a published public or unlisted site, a share-link reader with the key),
 *   and the reader token of a lookup of this very site. A visitor searches the structure their
 *   reader sees ({@link visibleStructure}, conditions evaluated with the claims of the lookup that
 *   issued the token, none without one), so a site space or
 *   section hidden by a condition is neither searched nor named; a member searches the structure as
 *   stored.
 * - Where ({@link siteSearchScope}): every site space (`all`); the default site space of each
 *   section, and the current one (`default`); the site spaces named (`specific`). The older
 *   `mode`/`siteSpaceIds`/`siteSpaceId` members say the same (`current` is `default` with
 *   `currentSiteSpace`).
 * - What: each site space's space at its current revision (what the site shows), searched once
 *   per space however many site spaces show it, its best {@link PAGES_PER_SPACE} pages grouped
 *   under the space (`id` is the space's id, as in an organization search: the renderer matches
 *   groups to site spaces by it), groups ordered by their best page's score.
 */

/** The most site spaces a `specific` scope names. */
export const MAX_SITE_SPACES_NAMED = 1000;

const siteSpaceIds = z.array(boundedId()).min(1).max(MAX_SITE_SPACES_NAMED);

/** The reference's `SiteSearchScope`. */
const siteSearchScope = z.discriminatedUnion("mode", [
  z.object({ mode: z.literal("default"), currentSiteSpace: boundedId().optional() }),
  z.object({ mode: z.literal("specific"), siteSpaceIds }),
  z.object({ mode: z.literal("all") }),
]);

const siteSearchBody = z.object({
  query: z.string().min(1).max(SEARCH_QUERY_LENGTH),
  scope: siteSearchScope.optional(),
  // The older form of the scope, deprecated by the reference but still sent by renderers.
  mode: z.enum(["all", "current", "specific"]).optional(),
  siteSpaceIds: siteSpaceIds.optional(),
  siteSpaceId: boundedId().optional(),
});

/** Which site spaces to search, with the body field that named them (for its 400s). */
type Where =
  | { readonly kind: "all" }
  | { readonly kind: "default"; readonly current?: { readonly id: string; readonly field: string } }
  | { readonly kind: "specific"; readonly ids: readonly string[]; readonly field: string };

/** The scope a body asks for, from `scope` or the older members; 400 naming the field at fault. */
function whereOf(body: z.infer<typeof siteSearchBody>): Where {
  const { scope } = body;
  if (scope) {
    const older = (["mode", "siteSpaceIds", "siteSpaceId"] as const).find((key) => body[key] !== undefined);
    if (older) throw badRequest(`body.${older}: not allowed with body.scope (the older form of it)`);
    if (scope.mode === "all") return { kind: "all" };
    if (scope.mode === "specific")
      return { kind: "specific", ids: scope.siteSpaceIds, field: "body.scope.siteSpaceIds" };
    return scope.currentSiteSpace === undefined
      ? { kind: "default" }
      : { kind: "default", current: { id: scope.currentSiteSpace, field: "body.scope.currentSiteSpace" } };
  }
  switch (body.mode) {
    case "all":
      return { kind: "all" };
    case "current":
      if (body.siteSpaceId === undefined) throw badRequest('body.siteSpaceId: required with mode "current"');
      return { kind: "default", current: { id: body.siteSpaceId, field: "body.siteSpaceId" } };
    default:
      if (body.siteSpaceIds !== undefined)
        return { kind: "specific", ids: body.siteSpaceIds, field: "body.siteSpaceIds" };
      throw badRequest(
        body.mode === "specific"
          ? 'body.siteSpaceIds: required with mode "specific"'
          : "body.scope: required (or the older body.mode)",
      );
  }
}

/** The site spaces of a structure, section by section (one list without sections), in structure order. */
function placedSiteSpaces(structure: StoredStructure): (readonly SiteSpaceRecord[])[] {
  if (structure.sections.length === 0) return [structure.siteSpaces.get("") ?? []];
  return walk(structure.children, "")
    .filter((node) => node.kind === "section")
    .map((section) => structure.siteSpaces.get(section.id) ?? []);
}

/** The live spaces the site spaces show, each read once. */
async function spacesShown(
  tx: ReadTransaction,
  siteSpaces: readonly SiteSpaceRecord[],
): Promise<Map<string, SpaceRecord>> {
  const spaces = new Map<string, SpaceRecord>();
  for (const id of new Set(siteSpaces.map((siteSpace) => siteSpace.space))) {
    const space = await tx.get(spacesTable, id);
    if (space?.state === "live") spaces.set(id, space);
  }
  return spaces;
}

/**
 * The site spaces `where` selects, in structure order. A site space named that the reader does not
 * see answers as one that does not exist: 400 naming the field.
 */
function selectSiteSpaces(
  structure: StoredStructure,
  spaces: ReadonlyMap<string, SpaceRecord>,
  where: Where,
): SiteSpaceRecord[] {
  const sections = placedSiteSpaces(structure);
  const all = sections.flat();
  const byId = new Map(all.map((siteSpace) => [siteSpace.id, siteSpace]));
  const require = (id: string, field: string) => {
    const siteSpace = byId.get(id);
    if (!siteSpace) throw badRequest(`${field}: no site space "${id}" in this site`);
    return siteSpace;
  };
  if (where.kind === "all") return all;
  if (where.kind === "specific") {
    const named = new Set(where.ids.map((id) => require(id, where.field).id));
    return all.filter((siteSpace) => named.has(siteSpace.id));
  }
  const current = where.current && require(where.current.id, where.current.field);
  // With a language, the current site space's, each section stands by its site space in that
  // language (its translation; the current one in its own section) rather than its default.
  const language = current && spaces.get(current.space)?.language;
  const chosen = new Set<string>(current ? [current.id] : []);
  for (const siteSpaces of sections) {
    const spoken =
      language === undefined
        ? undefined
        : siteSpaces.includes(current!)
          ? current
          : siteSpaces.find((siteSpace) => spaces.get(siteSpace.space)?.language === language);
    const pick = spoken ?? siteSpaces.find((siteSpace) => siteSpace.default);
    if (pick) chosen.add(pick.id);
  }
  return all.filter((siteSpace) => chosen.has(siteSpace.id));
}

export const searchSiteContent = defineOperation({
  id: "searchSiteContent",
  method: "post",
  path: "/orgs/{organizationId}/sites/{siteId}/search",
  tag: "sites",
  summary:
    "Search the site spaces of a site as its readers see them: results grouped per space, the best space first",
  params: siteParams,
  access: onSiteForReadersOrToken(),
  transaction: "read",
  query: z.object({ ...pageQuery, ...shareKeyQuery }),
  body: siteSearchBody,
  response: listOf(spaceResultSchema),
  async run(scope, { query, body }) {
    const { tx, site, reader } = scope;
    const where = whereOf(body);
    const stored = await loadStructure(tx, site);
    // A member who can view the site holds a role in its organization, which reads every space of
    // it (docs/permissions.md): they search the structure as stored, as they read it.
    const structure = reader.kind === "member" ? stored : visibleStructure(stored, reader.claims ?? {});
    const spaces = await spacesShown(tx, placedSiteSpaces(structure).flat());
    const found: { siteSpace: SiteSpaceRecord; space: SpaceRecord; content: Revision; hits: PageHit[] }[] =
      [];
    const searched = new Set<string>();
    for (const siteSpace of selectSiteSpaces(structure, spaces, where)) {
      // A space shown by several site spaces is searched once, under the first of them.
      const space = spaces.get(siteSpace.space);
      if (!space || searched.has(space.id)) continue;
      searched.add(space.id);
      const content = await requireRevision(tx, scope, space.revision);
      const hits = await withSearchIndex(tx, scope, content, (index) => {
        const ranking = rankPages(index, body.query, PAGES_PER_SPACE);
        const shown = Math.min(ranking.slots.length, PAGES_PER_SPACE);
        return Array.from({ length: shown }, (_, rank) => pageHit(index, ranking, rank));
      });
      if (hits.length > 0) found.push({ siteSpace, space, content, hits });
    }
    const score = (entry: (typeof found)[number]) => entry.hits[0]!.score;
    found.sort((a, b) => score(b) - score(a) || (a.siteSpace.id < b.siteSpace.id ? -1 : 1));
    const page = paginateSorted(found, query, {
      scope: `site-search:${site.id}:${body.query}`,
      position: (entry) => [-score(entry), entry.siteSpace.id],
    });
    return {
      ...page,
      items: await Promise.all(
        page.items.map(({ space, content, hits }) => presentSpaceResult(scope, space, content, hits)),
      ),
    };
  },
});
