import { jsonBytes } from "../shared/cache.js";
import { orderedFiles } from "../content/present.js";
import type { FullContent } from "../content-tree/revisions.js";
import { pageTree } from "../content-tree/tree.js";
import type { World } from "../shared/world.js";
import { extractLinks, type LinkRelation, type RawLink } from "./extract.js";
import {
  hostsOf,
  pageDirectory,
  resolveLink,
  type LinkStatus,
  type LinkTarget,
  type ResolveIndex,
} from "./resolve.js";

/**
 * The link graph of a revision: every link of every page, resolved against that revision, grouped
 * by target. A revision never changes, so the graph is computed once per revision and kept in
 * `world.cache` under `links:<revisionId>`.
 */

/** One target with the pages that link to it, in reading order. */
export interface LinkItem {
  /** Target key and relation: unique in a list. */
  readonly key: string;
  readonly targetKey: string;
  readonly status: LinkStatus;
  readonly relation: LinkRelation;
  readonly target: LinkTarget;
  /** Source page ids, each once, in reading order. */
  readonly sources: readonly string[];
  /** The list order: pages, files, missing content, then URLs; each by path, name or URL. */
  readonly position: [number, string, string];
}

export interface LinkGraph {
  /** Every target of the revision, in list order. */
  readonly items: readonly LinkItem[];
  /** The links of each page, as items whose only source is that page, in list order. */
  readonly bySource: ReadonlyMap<string, readonly LinkItem[]>;
  /** Pages linking to `page:<id>` or `file:<id>`, each once, in reading order. */
  readonly backlinks: ReadonlyMap<string, readonly string[]>;
}

const KIND_ORDER: Record<LinkTarget["kind"], number> = { page: 0, file: 1, missing: 2, url: 3 };

export const linkGraphCacheKey = (revisionId: string) => `links:${revisionId}`;

export function linkGraph(world: World, content: FullContent): LinkGraph {
  const key = linkGraphCacheKey(content.record.id);
  const cached = world.cache.get(key) as LinkGraph | undefined;
  if (cached) return cached;
  const graph = buildLinkGraph(world, content);
  world.cache.set(key, graph, graphBytes(graph));
  return graph;
}

/** An estimate of a graph's memory: its items dominate. */
const graphBytes = (graph: LinkGraph) => graph.items.length * 400 + graph.backlinks.size * 120 + 256;

/** The raw links of a page version, parsed once: versions are immutable and shared by revisions. */
function pageLinks(world: World, versionId: string, markdown: string): readonly RawLink[] {
  const key = `page-links:${versionId}`;
  let links = world.cache.get(key) as RawLink[] | undefined;
  if (!links) {
    links = extractLinks(markdown);
    world.cache.set(key, links, jsonBytes(links));
  }
  return links;
}

function buildLinkGraph(world: World, content: FullContent): LinkGraph {
  const tree = pageTree(content);
  const filesByName = new Map<string, string>();
  for (const [id, version] of orderedFiles(content))
    if (!filesByName.has(version.name)) filesByName.set(version.name, id);
  const index: ResolveIndex = {
    tree,
    filesByName,
    appHosts: hostsOf(world.appUrl, world.baseUrl),
    hasFile: (id) => content.files.has(id),
  };
  const sortValue = (target: LinkTarget): string => {
    switch (target.kind) {
      case "page":
        return tree.byId.get(target.page)?.path ?? "";
      case "file":
        return content.files.get(target.file)?.name ?? "";
      case "missing":
        return target.path;
      case "url":
        return target.url;
    }
  };

  const all = new Map<string, { item: LinkItem; sources: string[] }>();
  const bySource = new Map<string, LinkItem[]>();
  const backlinks = new Map<string, string[]>();
  for (const node of tree.ordered) {
    const source = node.version.page;
    const directory = pageDirectory(node);
    const own = new Map<string, LinkItem>();
    for (const link of pageLinks(world, node.version.id, node.version.markdown)) {
      const resolved = resolveLink(link.href, directory, index, link.literal);
      const itemKey = `${resolved.key} ${link.relation}`;
      if (own.has(itemKey)) continue;
      const item: LinkItem = {
        key: itemKey,
        targetKey: resolved.key,
        status: resolved.status,
        relation: link.relation,
        target: resolved.target,
        sources: [source],
        position: [KIND_ORDER[resolved.target.kind], sortValue(resolved.target), itemKey],
      };
      own.set(itemKey, item);
      const shared = all.get(itemKey);
      if (shared) shared.sources.push(source);
      else all.set(itemKey, { item, sources: [source] });
      if (resolved.target.kind === "page" || resolved.target.kind === "file") {
        const linking = backlinks.get(resolved.key) ?? [];
        if (linking.at(-1) !== source) linking.push(source);
        backlinks.set(resolved.key, linking);
      }
    }
    if (own.size > 0) bySource.set(source, sortItems([...own.values()]));
  }
  const items = sortItems([...all.values()].map(({ item, sources }) => ({ ...item, sources })));
  return { items, bySource, backlinks };
}

function sortItems(items: LinkItem[]): LinkItem[] {
  return items.sort((a, b) => comparePositions(a.position, b.position));
}

function comparePositions(a: LinkItem["position"], b: LinkItem["position"]): number {
  if (a[0] !== b[0]) return a[0] - b[0];
  if (a[1] !== b[1]) return a[1] < b[1] ? -1 : 1;
  return a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0;
}

export interface LinkStats {
  total: number;
  broken: { total: number; changeRequest?: number };
}

/**
 * Counts of a list of items. `introduced`, for a change request, tells which broken items the
 * change request broke (absent, or not broken, in the content it started from).
 */
export function linkStats(items: readonly LinkItem[], introduced?: (item: LinkItem) => boolean): LinkStats {
  const broken = items.filter((item) => item.status === "broken");
  return {
    total: items.length,
    broken: {
      total: broken.length,
      ...(introduced ? { changeRequest: broken.filter(introduced).length } : {}),
    },
  };
}
