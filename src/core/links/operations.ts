import * as z from "zod";
import { readableWithReaderToken } from "../permissions/reader-token.js";
import { loadRevision } from "../content-tree/revisions.js";
import type { ChangeRequestRecord } from "../change-requests/tables.js";
import { onContent, pathParamOf, type ContentScope } from "../content/access.js";
import { pageTree } from "../content-tree/tree.js";
import { defineOperation, keyed } from "../registry.js";
import { notFound } from "../shared/errors.js";
import { pageQuery, paginateSorted, type PageRequest } from "../shared/pagination.js";
import { pathParam } from "../shared/schema.js";
import { linkGraph, linkStats, type LinkItem } from "./graph.js";
import {
  backlinksListSchema,
  linksListSchema,
  linkStatusSchema,
  locationPresenter,
  type ContentReadScope,
} from "./present.js";

/**
 * Links and backlinks, in two families that differ only in the
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

/** The operation ids of one family, each written out where the family is declared. */
interface LinkIds {
  readonly links: string;
  readonly pageLinks: string;
  readonly pageBacklinks: string;
  readonly fileBacklinks: string;
}

interface Family<Ids extends LinkIds, Shape extends z.ZodRawShape> {
  readonly ids: Ids;
  readonly at: "space" | "changeRequest";
  /** Path of the links list, and prefix of the content paths. */
  readonly linksPath: string;
  readonly contentPrefix: string;
  /** The path parameters naming the content. */
  readonly params: Shape;
  /** Whether a reader token may call the family's operations (`readableWithReaderToken`). */
  readonly readerToken: boolean;
}

const tag = "links";

type LinksRequest = PageRequest & {
  status?: LinkItem["status"] | undefined;
  brokenContext?: "change-request" | "space" | undefined;
};
const statusQuery = { status: linkStatusSchema.optional() };

/** Pages a list of items, with stats on the whole list. */
async function linksPage(
  scope: ContentReadScope,
  request: LinksRequest,
  key: string,
  items: readonly LinkItem[],
  baseItems: (graph: ReturnType<typeof linkGraph>) => readonly LinkItem[],
) {
  const introduced = scope.changeRequest
    ? await introducedBy(scope, scope.changeRequest, baseItems)
    : undefined;
  let listed = request.status ? items.filter((item) => item.status === request.status) : items;
  if (introduced && request.brokenContext === "change-request") {
    listed = listed.filter((item) => item.status !== "broken" || introduced(item));
  }
  const page = paginateSorted(listed, request, {
    scope: `${key}:${request.status ?? ""}:${request.brokenContext ?? ""}`,
    position: (item) => item.position,
  });
  const presenter = await locationPresenter(scope);
  return { ...page, items: page.items.map(presenter.presentLinkUsage), stats: linkStats(items, introduced) };
}

function linkFamily<const Ids extends LinkIds, Shape extends z.ZodRawShape>(family: Family<Ids, Shape>) {
  // Each `id` is asserted as `Ids[...]`: read from a generic object, the compiler would widen it to
  // `string` and `Client<Operations>` would lose the family's ids.
  const view = onContent(family.at, "view");
  const access = family.readerToken ? readableWithReaderToken(view) : view;

  const links = defineOperation({
    id: family.ids.links as Ids["links"],
    method: "get",
    path: family.linksPath,
    tag,
    summary: "The links of every page, by target, with their status",
    access,
    params: z.object(family.params),
    query: z.object({
      ...pageQuery,
      ...statusQuery,
      ...(family.at === "changeRequest"
        ? { brokenContext: z.enum(["change-request", "space"]).optional() }
        : {}),
    }),
    response: linksListSchema,
    run: async (scope, { query }) =>
      linksPage(
        scope,
        query as LinksRequest,
        scopeOf(scope),
        linkGraph(scope, await scope.content.full()).items,
        (graph) => graph.items,
      ),
  });

  const pageLinks = defineOperation({
    id: family.ids.pageLinks as Ids["pageLinks"],
    method: "get",
    path: `${family.contentPrefix}/page/{pageId}/links`,
    tag,
    summary: "The links of one page, by target, with their status",
    access,
    params: z.object({ ...family.params, pageId: pathParam() }),
    query: z.object({ ...pageQuery, ...statusQuery }),
    response: linksListSchema,
    run: async (scope, { params, query }) => {
      const pageId = await requirePage(scope, pathParamOf(params, "pageId"));
      const items = linkGraph(scope, await scope.content.full()).bySource.get(pageId) ?? [];
      const key = `${scopeOf(scope)}:page:${pageId}`;
      return linksPage(scope, query, key, items, (graph) => graph.bySource.get(pageId) ?? []);
    },
  });

  const pageBacklinks = defineOperation({
    id: family.ids.pageBacklinks as Ids["pageBacklinks"],
    method: "get",
    path: `${family.contentPrefix}/page/{pageId}/backlinks`,
    tag,
    summary: "The pages that link to a page",
    access,
    params: z.object({ ...family.params, pageId: pathParam() }),
    query: z.object(pageQuery),
    response: backlinksListSchema,
    run: async (scope, { params, query }) => {
      const pageId = await requirePage(scope, pathParamOf(params, "pageId"));
      return backlinksPage(scope, query, `page:${pageId}`);
    },
  });

  const fileBacklinks = defineOperation({
    id: family.ids.fileBacklinks as Ids["fileBacklinks"],
    method: "get",
    path: `${family.contentPrefix}/files/{fileId}/backlinks`,
    tag,
    summary: "The pages that link to or embed a file",
    access,
    params: z.object({ ...family.params, fileId: pathParam() }),
    query: z.object(pageQuery),
    response: backlinksListSchema,
    run: async (scope, { params, query }) => {
      const fileId = pathParamOf(params, "fileId");
      if (!(await scope.content.file(fileId))) throw notFound(`File "${fileId}" not found`);
      return backlinksPage(scope, query, `file:${fileId}`);
    },
  });

  return keyed([links, pageLinks, pageBacklinks, fileBacklinks]);
}

async function requirePage(scope: ContentScope, pageId: string): Promise<string> {
  if (!(await scope.content.hasPage(pageId))) throw notFound(`Page "${pageId}" not found`);
  return pageId;
}

const scopeOf = (scope: ContentScope) =>
  `links:${scope.space.id}:${scope.changeRequest ? scope.changeRequest.id : ""}`;

async function backlinksPage(scope: ContentReadScope, request: PageRequest, targetKey: string) {
  const content = await scope.content.full();
  const tree = pageTree(content);
  const sources = (linkGraph(scope, content).backlinks.get(targetKey) ?? [])
    .map((id) => ({ id, path: tree.byId.get(id)?.path ?? "" }))
    .sort((a, b) => (a.path !== b.path ? (a.path < b.path ? -1 : 1) : a.id < b.id ? -1 : 1));
  const page = paginateSorted(sources, request, {
    scope: `backlinks:${scopeOf(scope)}:${targetKey}`,
    position: (source) => [source.path, source.id],
  });
  const presenter = await locationPresenter(scope);
  return { ...page, items: page.items.map((source) => presenter.presentPageLocation(source.id)) };
}

/**
 * Which broken items a change request broke: those whose key is not broken in the content the
 * change request started from.
 */
async function introducedBy(
  scope: ContentReadScope,
  changeRequest: ChangeRequestRecord,
  baseItems: (graph: ReturnType<typeof linkGraph>) => readonly LinkItem[],
): Promise<(item: LinkItem) => boolean> {
  const base = await loadRevision(
    scope.tx,
    scope,
    changeRequest.revisionMergedAncestor ?? changeRequest.revisionInitial,
  );
  const brokenBefore = new Set(
    base
      ? baseItems(linkGraph(scope, await base.full()))
          .filter((item) => item.status === "broken")
          .map((item) => item.key)
      : [],
  );
  return (item) => item.status === "broken" && !brokenBefore.has(item.key);
}

/** Links and backlinks in a space's current content. */
export const spaceLinkOperations = linkFamily({
  ids: {
    links: "listSpaceLinks",
    pageLinks: "listPageLinksInSpace",
    pageBacklinks: "listSpacePageBacklinks",
    fileBacklinks: "listSpaceFileBacklinks",
  },
  at: "space",
  linksPath: "/spaces/{spaceId}/links",
  contentPrefix: "/spaces/{spaceId}/content",
  params: { spaceId: pathParam() },
  readerToken: true,
});

/** Links and backlinks in a change request's content. */
export const changeRequestLinkOperations = linkFamily({
  ids: {
    links: "listChangeRequestLinks",
    pageLinks: "listPageLinksInChangeRequest",
    pageBacklinks: "listChangeRequestPageBacklinks",
    fileBacklinks: "listChangeRequestFileBacklinks",
  },
  at: "changeRequest",
  linksPath: "/spaces/{spaceId}/change-requests/{changeRequestId}/links",
  contentPrefix: "/spaces/{spaceId}/change-requests/{changeRequestId}/content",
  params: { spaceId: pathParam(), changeRequestId: pathParam() },
  readerToken: false,
});

/** The link operations, keyed by operationId. */
export const linkOperations = { ...spaceLinkOperations, ...changeRequestLinkOperations };
