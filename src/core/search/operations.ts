import * as z from "zod";
import { readableWithReaderToken } from "../permissions/reader-token.js";
import { requireRevision, type Revision } from "../content-tree/revisions.js";
import { defineOperation } from "../registry.js";
import { onContent } from "../content/access.js";
import { contentRole, viewsAllContent } from "../permissions/membership.js";
import { visibleContent } from "../permissions/visible.js";
import { inOrganization } from "../permissions/organization.js";
import { DEFAULT_PAGE_SIZE, listOf, pageQuery, paginateSorted } from "../shared/pagination.js";
import { pathParam } from "../shared/schema.js";
import { spacePermissions } from "../spaces/permissions.js";
import { type SpaceRecord, spacesTable } from "../spaces/tables.js";
import { withSearchIndex } from "./live-index.js";
import { presentPageResult, presentSpaceResult } from "./present.js";
import { pageResultSchema, spaceResultSchema } from "./schemas.js";
import { pageAt, pageHit, rankPages, type PageHit } from "./search-index.js";

/**
 * Search: full text over page titles and sections, in one space or
 * across the spaces of an organization that the caller can read. A space the caller cannot read
 * contributes nothing, so its pages never show. Ranking and indexing: see search-index.ts.
 *
 * - Space search lists pages, best first; each page lists its matching sections, best first, with
 *   an excerpt of their text around the first match.
 * - Organization search lists spaces, the space with the best page first, each with its best
 *   {@link PAGES_PER_SPACE} pages (search the space itself for all of them).
 *
 * A query ranks the best pages up to its window (typed arrays, see search-index.ts: only the
 * documents that can reach them are scored), counts every page it matches without scoring them,
 * and lists the sections of the pages it shows only, synchronously with the ranking (see
 * live-index.ts): what it costs and allocates beyond counting follows the window, not the pages
 * matched. A window further down (a `page` cursor) ranks deeper, four times at a time.
 */

/** Pages listed per space in an organization search. */
export const PAGES_PER_SPACE = 10;

/** The longest search query, in characters. */
export const SEARCH_QUERY_LENGTH = 512;

const tag = "search";
const searchQuery = z.object({ query: z.string().min(1).max(SEARCH_QUERY_LENGTH), ...pageQuery });

export const searchSpaceContent = defineOperation({
  id: "searchSpaceContent",
  method: "get",
  path: "/spaces/{spaceId}/search",
  tag,
  summary: "Search the pages of a space",
  access: readableWithReaderToken(onContent("space", "view")),
  params: z.object({ spaceId: pathParam() }),
  query: searchQuery,
  response: listOf(pageResultSchema),
  async run(scope, { query }) {
    const { space, content } = scope;
    const page = await withSearchIndex(scope.tx, scope, content, (index) => {
      const limit = query.limit ?? DEFAULT_PAGE_SIZE;
      // The best pages up to one past the window; deeper (four times) while the window's cursor
      // lies past them.
      for (let depth = limit + 1; ; depth *= 4) {
        const ranking = rankPages(index, query.query, depth);
        const window = paginateSorted(ranks(ranking.slots.length), query, {
          scope: `search:${space.id}:${query.query}`,
          position: (rank) => [-ranking.scores[rank]!, pageAt(index, ranking, rank)],
        });
        if (ranking.complete || limit === 0 || window.next)
          return {
            ...window,
            count: ranking.count,
            items: window.items.map((rank) => pageHit(index, ranking, rank)),
          };
      }
    });
    return {
      ...page,
      items: await Promise.all(page.items.map((hit) => presentPageResult(scope, space, content, hit))),
    };
  },
});

export const searchOrganizationContent = defineOperation({
  id: "searchOrganizationContent",
  method: "get",
  path: "/orgs/{organizationId}/search",
  tag,
  summary: "Search the pages of every space of an organization that the caller can read",
  access: inOrganization("member"),
  params: z.object({ organizationId: pathParam() }),
  query: searchQuery,
  response: listOf(spaceResultSchema),
  async run(scope, { query }) {
    const { tx, membership } = scope;
    // A guest's spaces are the visible set their grants give, not the organization's.
    const spaces = viewsAllContent(membership)
      ? await tx.list(spacesTable, { index: "byOrganization", where: [membership.organization.id, "live"] })
      : (await visibleContent(tx, membership)).spaces;
    const found: { space: SpaceRecord; content: Revision; score: number; hits: PageHit[] }[] = [];
    for (const space of spaces) {
      if (!spacePermissions(await contentRole(tx, membership, space), space).view) continue;
      const content = await requireRevision(tx, scope, space.revision);
      const hits = await withSearchIndex(tx, scope, content, (index) => {
        const ranking = rankPages(index, query.query, PAGES_PER_SPACE);
        const shown = Math.min(ranking.slots.length, PAGES_PER_SPACE);
        return Array.from({ length: shown }, (_, rank) => pageHit(index, ranking, rank));
      });
      if (hits.length === 0) continue;
      found.push({ space, content, score: hits[0]!.score, hits });
    }
    found.sort((a, b) => b.score - a.score || (a.space.id < b.space.id ? -1 : 1));
    const page = paginateSorted(found, query, {
      scope: `search:${membership.organization.id}:${query.query}`,
      position: (entry) => [-entry.score, entry.space.id],
    });
    return {
      ...page,
      items: await Promise.all(
        page.items.map(({ space, content, hits }) => presentSpaceResult(scope, space, content, hits)),
      ),
    };
  },
});

/** The ranks 0 to `count` - 1: a ranking's best pages as a list to page through. */
function ranks(count: number): number[] {
  const list = new Array<number>(count);
  for (let rank = 0; rank < count; rank++) list[rank] = rank;
  return list;
}

export const searchOperations = { searchSpaceContent, searchOrganizationContent };
