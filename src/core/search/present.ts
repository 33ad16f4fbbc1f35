import type { Revision } from "../content-tree/revisions.js";
import type { World } from "../shared/world.js";
import type { SpaceRecord } from "../spaces/tables.js";
import type { PageResult, SpaceResult } from "./schemas.js";
import { excerpt, sectionsOf, type PageHit } from "./search-index.js";

/** A page the search found, with its matching sections (`hit`) and an excerpt of each. */
export async function presentPageResult(
  world: World,
  space: SpaceRecord,
  content: Revision,
  hit: PageHit,
): Promise<PageResult> {
  const { version, path, ancestors } = await placeOf(content, hit.page);
  const sections = sectionsOf(world, version);
  const app = `${world.appUrl}/s/${space.id}/${path}`;
  return {
    id: version.page,
    title: version.title,
    path,
    sections: hit.sections.map(({ section: index, terms }) => {
      const section = sections[index]!;
      const anchor = section.anchor === undefined ? "" : `#${section.anchor}`;
      return {
        id: `${version.page}${anchor}`,
        title: section.title,
        path: `${path}${anchor}`,
        body: excerpt(section.body, terms),
        urls: { app: `${app}${anchor}` },
      };
    }),
    ancestors: ancestors.map(({ title }) => ({ title })),
    urls: { app },
  };
}

/**
 * A page's path and ancestors in a revision, read up its chain of parents: for the hits shown
 * only, so a query never derives the whole tree. As in content-tree/tree.ts, a page whose parent is
 * missing sits at the root.
 */
async function placeOf(content: Revision, page: string) {
  const lineage = (await content.lineage(page))!;
  const version = lineage.at(-1)!;
  const ancestors = lineage.slice(0, -1);
  const path = lineage.map(({ slug }) => slug).join("/");
  return { version, path, ancestors };
}

/** A space the organization search found, with the pages of `hits`. */
export async function presentSpaceResult(
  world: World,
  space: SpaceRecord,
  content: Revision,
  hits: readonly PageHit[],
): Promise<SpaceResult> {
  return {
    id: space.id,
    title: space.title,
    pages: await Promise.all(hits.map((hit) => presentPageResult(world, space, content, hit))),
  };
}
