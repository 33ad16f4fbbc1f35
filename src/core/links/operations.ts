import { z } from "zod";
import { loadRevision } from "../content/revisions.js";
import { openContent, type ContentSelector, type ContentView } from "../content/target.js";
import { pageTree } from "../content/tree.js";
import { defineOperation } from "../registry.js";
import { notFound } from "../shared/errors.js";
import { pageQuery, paginateSorted, type PageRequest } from "../shared/pagination.js";
import { pathParam } from "../shared/schema.js";
import type { Context } from "../shared/world.js";
import type { ReadTransaction } from "../storage/port.js";
import { linkGraph, linkStats, type LinkItem } from "./graph.js";
import { backlinksListSchema, linksListSchema, linkStatusSchema, locationPresenter } from "./present.js";

/**
 * Links and backlinks (SPEC.md, "Links and backlinks"), in two families that differ only in the
 * content they read: a space's current revision, or a change request's head.
 *
 * - A links list has one item per target and relation, with the pages that link there; `status`
 *   keeps one status. `stats` counts the whole list, whatever the filter.
 * - In a change request, `stats.broken.changeRequest` counts the broken items that the change
 *   request broke: not broken in the content it started from (its last update from the space, else
 *   its initial revision). `brokenContext=change-request` keeps only those among broken items;
 *   `space` (the default) keeps every broken item.
 * - Backlinks are the pages of the same content that link to the page or file, by path. A page or
 *   file absent from the content answers 404.
 */

interface Family {
  readonly ids: { links: string; pageLinks: string; pageBacklinks: string; fileBacklinks: string };
  /** Path of the links list, and prefix of the content paths. */
  readonly linksPath: string;
  readonly contentPrefix: string;
  readonly params: z.ZodObject<z.ZodRawShape>;
  readonly changeRequest: boolean;
  readonly selector: (params: Record<string, string>) => ContentSelector;
}

const tag = "links";

type LinksRequest = PageRequest & {
  status?: LinkItem["status"] | undefined;
  brokenContext?: "change-request" | "space" | undefined;
};
const statusQuery = { status: linkStatusSchema.optional() };

function linkFamily(family: Family) {
  const read = <T>(
    context: Context,
    params: unknown,
    fn: (tx: ReadTransaction, view: ContentView) => Promise<T>,
  ) =>
    context.storage.read(async (tx) =>
      fn(tx, await openContent(tx, context, family.selector(params as Record<string, string>))),
    );

  /** Pages a list of items, with stats on the whole list. */
  async function linksPage(
    tx: ReadTransaction,
    context: Context,
    view: ContentView,
    request: LinksRequest,
    scope: string,
    items: readonly LinkItem[],
    baseItems: (graph: ReturnType<typeof linkGraph>) => readonly LinkItem[],
  ) {
    const introduced = view.changeRequest ? await introducedBy(tx, context, view, baseItems) : undefined;
    let listed = request.status ? items.filter((item) => item.status === request.status) : items;
    if (introduced && request.brokenContext === "change-request") {
      listed = listed.filter((item) => item.status !== "broken" || introduced(item));
    }
    const page = paginateSorted(listed, request, {
      scope: `${scope}:${request.status ?? ""}:${request.brokenContext ?? ""}`,
      position: (item) => item.position,
    });
    const presenter = await locationPresenter(tx, context, view);
    return { ...page, items: page.items.map(presenter.usage), stats: linkStats(items, introduced) };
  }

  const links = defineOperation({
    id: family.ids.links,
    method: "get",
    path: family.linksPath,
    tag,
    summary: "The links of every page, by target, with their status",
    params: family.params,
    query: z.object({
      ...pageQuery,
      ...statusQuery,
      ...(family.changeRequest ? { brokenContext: z.enum(["change-request", "space"]).optional() } : {}),
    }),
    response: linksListSchema,
    run: (context, { params, query }) =>
      read(context, params, (tx, view) =>
        linksPage(
          tx,
          context,
          view,
          query as LinksRequest,
          scopeOf(view),
          linkGraph(context, view.content).items,
          (graph) => graph.items,
        ),
      ),
  });

  const pageLinks = defineOperation({
    id: family.ids.pageLinks,
    method: "get",
    path: `${family.contentPrefix}/page/{pageId}/links`,
    tag,
    summary: "The links of one page, by target, with their status",
    params: family.params.extend({ pageId: pathParam() }),
    query: z.object({ ...pageQuery, ...statusQuery }),
    response: linksListSchema,
    run: (context, { params, query }) =>
      read(context, params, (tx, view) => {
        const pageId = requirePage(view, params.pageId as string);
        const items = linkGraph(context, view.content).bySource.get(pageId) ?? [];
        const scope = `${scopeOf(view)}:page:${pageId}`;
        return linksPage(tx, context, view, query, scope, items, (graph) => graph.bySource.get(pageId) ?? []);
      }),
  });

  const pageBacklinks = defineOperation({
    id: family.ids.pageBacklinks,
    method: "get",
    path: `${family.contentPrefix}/page/{pageId}/backlinks`,
    tag,
    summary: "The pages that link to a page",
    params: family.params.extend({ pageId: pathParam() }),
    query: z.object(pageQuery),
    response: backlinksListSchema,
    run: (context, { params, query }) =>
      read(context, params, (tx, view) => {
        const pageId = requirePage(view, params.pageId as string);
        return backlinksPage(tx, context, view, query, `page:${pageId}`);
      }),
  });

  const fileBacklinks = defineOperation({
    id: family.ids.fileBacklinks,
    method: "get",
    path: `${family.contentPrefix}/files/{fileId}/backlinks`,
    tag,
    summary: "The pages that link to or embed a file",
    params: family.params.extend({ fileId: pathParam() }),
    query: z.object(pageQuery),
    response: backlinksListSchema,
    run: (context, { params, query }) =>
      read(context, params, (tx, view) => {
        const fileId = params.fileId as string;
        if (!view.content.files.has(fileId)) throw notFound(`File "${fileId}" not found`);
        return backlinksPage(tx, context, view, query, `file:${fileId}`);
      }),
  });

  return [links, pageLinks, pageBacklinks, fileBacklinks] as const;
}

function requirePage(view: ContentView, pageId: string): string {
  if (!view.content.pages.has(pageId)) throw notFound(`Page "${pageId}" not found`);
  return pageId;
}

const scopeOf = (view: ContentView) =>
  `links:${view.access.space.id}:${view.changeRequest ? view.changeRequest.id : ""}`;

async function backlinksPage(
  tx: ReadTransaction,
  context: Context,
  view: ContentView,
  request: PageRequest,
  targetKey: string,
) {
  const tree = pageTree(view.content);
  const sources = (linkGraph(context, view.content).backlinks.get(targetKey) ?? [])
    .map((id) => ({ id, path: tree.byId.get(id)?.path ?? "" }))
    .sort((a, b) => (a.path !== b.path ? (a.path < b.path ? -1 : 1) : a.id < b.id ? -1 : 1));
  const page = paginateSorted(sources, request, {
    scope: `backlinks:${scopeOf(view)}:${targetKey}`,
    position: (source) => [source.path, source.id],
  });
  const presenter = await locationPresenter(tx, context, view);
  return { ...page, items: page.items.map((source) => presenter.page(source.id)) };
}

/**
 * Which broken items a change request broke: those whose key is not broken in the content the
 * change request started from.
 */
async function introducedBy(
  tx: ReadTransaction,
  context: Context,
  view: ContentView,
  baseItems: (graph: ReturnType<typeof linkGraph>) => readonly LinkItem[],
): Promise<(item: LinkItem) => boolean> {
  const changeRequest = view.changeRequest!;
  const base = await loadRevision(
    tx,
    context,
    changeRequest.revisionMergedAncestor ?? changeRequest.revisionInitial,
  );
  const brokenBefore = new Set(
    base
      ? baseItems(linkGraph(context, base))
          .filter((item) => item.status === "broken")
          .map((item) => item.key)
      : [],
  );
  return (item) => item.status === "broken" && !brokenBefore.has(item.key);
}

const [space, changeRequest] = [
  linkFamily({
    ids: {
      links: "listSpaceLinks",
      pageLinks: "listPageLinksInSpace",
      pageBacklinks: "listSpacePageBacklinks",
      fileBacklinks: "listSpaceFileBacklinks",
    },
    linksPath: "/spaces/{spaceId}/links",
    contentPrefix: "/spaces/{spaceId}/content",
    params: z.object({ spaceId: pathParam() }),
    changeRequest: false,
    selector: (params) => ({ spaceId: params["spaceId"]! }),
  }),
  linkFamily({
    ids: {
      links: "listChangeRequestLinks",
      pageLinks: "listPageLinksInChangeRequest",
      pageBacklinks: "listChangeRequestPageBacklinks",
      fileBacklinks: "listChangeRequestFileBacklinks",
    },
    linksPath: "/spaces/{spaceId}/change-requests/{changeRequestId}/links",
    contentPrefix: "/spaces/{spaceId}/change-requests/{changeRequestId}/content",
    params: z.object({ spaceId: pathParam(), changeRequestId: pathParam() }),
    changeRequest: true,
    selector: (params) => ({ spaceId: params["spaceId"]!, changeRequestId: params["changeRequestId"]! }),
  }),
];

/** The link operations, keyed by operationId (spread into the registry). */
export const linkOperations = {
  listSpaceLinks: space[0],
  listPageLinksInSpace: space[1],
  listSpacePageBacklinks: space[2],
  listSpaceFileBacklinks: space[3],
  listChangeRequestLinks: changeRequest[0],
  listPageLinksInChangeRequest: changeRequest[1],
  listChangeRequestPageBacklinks: changeRequest[2],
  listChangeRequestFileBacklinks: changeRequest[3],
};
