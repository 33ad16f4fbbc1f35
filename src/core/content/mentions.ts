import { mentionsIn } from "../document/index.js";
import type { Revision } from "../content-tree/revisions.js";

/**
 * The users a revision's content mentions (its pages and reusable contents), read by the check of
 * a reader token's `{user}` access (permissions/reader-token.ts), once per revision.
 *
 * A memo keyed by revision id in the derived cache, rather than an index written with each
 * revision: a revision never changes, so the set computed from it is right on every instance and
 * adapter and never needs invalidating, and nothing is written for the many revisions no reader
 * token asks about. Computing it reads every page version of the revision once (memoized as well)
 * and parses only the pages whose markdown holds a mention link; later checks of that revision
 * read nothing. The entry is a few bytes per user and leaves with the least recently used entries
 * of the cache, to be computed again if asked.
 */
export async function revisionMentions(revision: Revision): Promise<ReadonlySet<string>> {
  const key = `mentions:${revision.id}`;
  const cached = revision.world.cache.get(key) as ReadonlySet<string> | undefined;
  if (cached) return cached;
  const content = await revision.full();
  const users = new Set<string>();
  for (const version of [...content.pages.values(), ...content.reusableContents.values()]) {
    mentionScans.bodies += 1;
    for (const user of mentionsIn(version.markdown)) users.add(user);
  }
  mentionScans.revisions += 1;
  let bytes = 64;
  for (const user of users) bytes += 2 * user.length + 64;
  revision.world.cache.set(key, users, bytes);
  return users;
}

/**
 * How many revisions {@link revisionMentions} computed in this process, and how many page and
 * reusable content bodies it looked at: tests count them to show that a check reads each revision
 * once.
 */
export const mentionScans = { revisions: 0, bodies: 0 };
