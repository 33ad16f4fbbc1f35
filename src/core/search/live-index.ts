import { diffRevisions, loadRevision, type Revision } from "../content-tree/revisions.js";
import type { World } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import {
  applyDiff,
  buildSearchIndex,
  estimateBytes,
  searchPages,
  type PageHit,
  type SearchIndex,
} from "./search-index.js";

/**
 * One live search index per space, moved in place from the revision it indexes to the revision a
 * query asks for by the pages that changed between them (docs/api.md, "Search"). A one-page edit
 * of a 10,000-page space then costs its first query the diff and that page's documents, not a
 * build of the whole space.
 *
 * - The live index is kept in `world.cache` under `search:space:<spaceId>` and set again after each
 *   move, so that a cache that weighs its entries weighs it as it is now.
 * - A revision is reached by moving when the pages that differ are at most
 *   {@link MOVE_LIMIT} or half the pages indexed, whichever is more: past that, removing and adding
 *   them costs about as much as building afresh.
 * - A revision out of reach is built afresh. It becomes the live index when it is at least as new
 *   as the live one (a space's content jumped, say by a merge of many pages); an older one (a read
 *   that began before later edits) is kept under `search:<revisionId>` for the queries that ask
 *   for it, as before this index moved, so that it never drags the live index back and forth.
 * - Each query runs synchronously right after the index reaches its revision
 *   ({@link withSearchIndex}): no other query can move the index between the two.
 */

/** Pages moved without a fresh build, at least (see above). */
export const MOVE_LIMIT = 64;
/** Moves tried before building afresh, when other queries keep moving the live index away. */
const ATTEMPTS = 3;

const liveKey = (space: string) => `search:space:${space}`;
const revisionKey = (revision: string) => `search:${revision}`;

/**
 * Calls `use` with an index of `content`, synchronously (see above), and returns what it returns.
 *
 * @example
 * ```ts
 * const hits = await withSearchIndex(tx, world, content, (index) => searchPages(index, "deploy"));
 * ```
 */
export async function withSearchIndex<T>(
  tx: ReadTransaction,
  world: World,
  content: Revision,
  use: (index: SearchIndex) => T,
): Promise<T> {
  const { id, space } = content.record;
  const kept = world.cache.get(revisionKey(id)) as SearchIndex | undefined;
  if (kept) return use(kept);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const live = world.cache.get(liveKey(space)) as SearchIndex | undefined;
    if (!live) break;
    const from = live.at;
    if (from.id === id) return use(live);
    const origin = await loadRevision(tx, world, from.id);
    if (!origin) break;
    const diff = await diffRevisions(origin, content);
    // Another query moved it while the diff was computed: diff again from where it is now.
    if (live.at !== from) continue;
    if (diff.pages.size > Math.max(MOVE_LIMIT, live.pages.size / 2)) break;
    applyDiff(world, live, diff, content.record);
    world.cache.set(liveKey(space), live, estimateBytes(live));
    return use(live);
  }
  const built = buildSearchIndex(world, await content.full());
  const live = world.cache.get(liveKey(space)) as SearchIndex | undefined;
  const bytes = estimateBytes(built);
  if (!live || live.at.seq <= content.record.seq) world.cache.set(liveKey(space), built, bytes);
  else world.cache.set(revisionKey(id), built, bytes);
  return use(built);
}

/**
 * Every page of `content` matching `query`, best first, with its sections (see search-index.ts):
 * for tests and small spaces; the search operations rank, then list the sections of the pages
 * they show only, within {@link withSearchIndex}.
 */
export const searchRevision = (
  tx: ReadTransaction,
  world: World,
  content: Revision,
  query: string,
): Promise<PageHit[]> => withSearchIndex(tx, world, content, (index) => searchPages(index, query));
