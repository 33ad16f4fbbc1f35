import * as z from "zod";
import { readableWithReaderToken } from "../permissions/reader-token.js";
import { keyed, defineOperation } from "../registry.js";
import { notFound } from "../shared/errors.js";
import { listOf, pageQuery, paginateSorted } from "../shared/pagination.js";
import { MAX_URL_LENGTH, pathParam, queryBoolean } from "../shared/schema.js";
import { onContent, pathParamOf, type ContentAt } from "./access.js";
import {
  fileSchema,
  orderedFiles,
  pageSchema,
  presentFile,
  presentPage,
  presentRevision,
  revisionSchema,
  subtreeVersions,
} from "./present.js";
import { renderingFor } from "../link-references/markdown-links.js";
import { presentedMergedFrom } from "../change-requests/merged-from.js";
import { changeRequestSchema } from "../change-requests/schemas.js";
import { includesFor, pageBody, pageBodyQuery, writtenLinksFor } from "./page-body.js";
import { pageTree } from "../content-tree/tree.js";

/**
 * Content reads in three families that differ only in which content they name (space
 * content, change-request content, and the reference's revision reads): a space's
 * current revision, a change request's head, or a revision by id. The access rule of each family
 * (`onContent`) loads that content before `run`.
 */

/** `metadata` and `computed` (default true): there is no git metadata or computed content yet. */
const revisionQuery = { metadata: queryBoolean().optional(), computed: queryBoolean().optional() };

/** The operation ids of one family, each written out where the family is declared. */
interface ReadIds {
  readonly revision: string;
  readonly pages: string;
  readonly files: string;
  readonly file: string;
  readonly page: string;
  readonly path: string;
}

interface Family<Ids extends ReadIds, Shape extends z.ZodRawShape> {
  readonly ids: Ids;
  readonly at: ContentAt;
  /** The path parameters naming the content. */
  readonly params: Shape;
  readonly tag: string;
  readonly prefix: string;
  readonly revisionPath: string;
  readonly pagesPath: string;
  /** Whether a reader token may call the family's operations (`readableWithReaderToken`). */
  readonly readerToken: boolean;
}

function readOperations<const Ids extends ReadIds, Shape extends z.ZodRawShape>(family: Family<Ids, Shape>) {
  // Each `id` is asserted as `Ids[...]`: read from a generic object, the compiler would widen it to
  // `string` and `Client<Operations>` would lose the family's ids.
  const view = onContent(family.at, "view");
  const access = family.readerToken ? readableWithReaderToken(view) : view;

  const revision = defineOperation({
    id: family.ids.revision as Ids["revision"],
    method: "get",
    path: family.revisionPath,
    tag: family.tag,
    summary: "The revision: its page tree and files",
    access,
    params: z.object(family.params),
    query: z.object(revisionQuery),
    // On a `merge` revision: the change request it merged (the reference requires it there).
    response: revisionSchema.extend({ mergedFrom: changeRequestSchema.optional() }),
    async run(scope) {
      const [full, mergedFrom] = await Promise.all([
        scope.content.full(),
        presentedMergedFrom(scope, scope.content.record, scope.space),
      ]);
      const links = await renderingFor(scope, scope.content, full.pages.values());
      return presentRevision(scope, scope.space, full, links, mergedFrom);
    },
  });

  const pages = defineOperation({
    id: family.ids.pages as Ids["pages"],
    method: "get",
    path: family.pagesPath,
    tag: family.tag,
    summary: "The page tree",
    access,
    params: z.object(family.params),
    query: z.object(revisionQuery),
    response: z.object({ pages: z.array(pageSchema) }),
    async run(scope) {
      const full = await scope.content.full();
      const links = await renderingFor(scope, scope.content, full.pages.values());
      return {
        pages: pageTree(full).roots.map((node) =>
          presentPage(scope, scope.space, node, { children: true, links }),
        ),
      };
    },
  });

  const files = defineOperation({
    id: family.ids.files as Ids["files"],
    method: "get",
    path: `${family.prefix}/files`,
    tag: family.tag,
    summary: "The files, by name",
    access,
    params: z.object(family.params),
    query: z.object({ ...pageQuery, ...revisionQuery }),
    response: listOf(fileSchema),
    async run(scope, { query }) {
      const page = paginateSorted(orderedFiles({ files: await scope.content.files() }), query, {
        scope: `files:${scope.space.id}`,
        position: ([id, version]) => [version.name, id],
      });
      return { ...page, items: page.items.map(([id, version]) => presentFile(scope, id, version)) };
    },
  });

  const file = defineOperation({
    id: family.ids.file as Ids["file"],
    method: "get",
    path: `${family.prefix}/files/{fileId}`,
    tag: family.tag,
    summary: "One file",
    access,
    params: z.object({ ...family.params, fileId: pathParam() }),
    query: z.object(revisionQuery),
    response: fileSchema,
    async run(scope, { params }) {
      const fileId = pathParamOf(params, "fileId");
      const version = await scope.content.file(fileId);
      if (!version) throw notFound(`File "${fileId}" not found`);
      return presentFile(scope, fileId, version);
    },
  });

  const pageById = defineOperation({
    id: family.ids.page as Ids["page"],
    method: "get",
    path: `${family.prefix}/page/{pageId}`,
    tag: family.tag,
    summary: "One page, as markdown or as a JSON document",
    access,
    params: z.object({ ...family.params, pageId: pathParam() }),
    query: z.object({ ...pageBodyQuery, ...revisionQuery }),
    response: pageSchema,
    async run(scope, { params, query }) {
      const pageId = pathParamOf(params, "pageId");
      const node = await scope.content.node(pageId, { children: true });
      if (!node) throw notFound(`Page "${pageId}" not found`);
      const links = await renderingFor(scope, scope.content, subtreeVersions(node), writtenLinksFor(query));
      const includes = await includesFor(query, scope.content, subtreeVersions(node));
      const body = pageBody(query, links, scope.cache, includes);
      return presentPage(scope, scope.space, node, { children: true, links, body });
    },
  });

  const pageByPath = defineOperation({
    id: family.ids.path as Ids["path"],
    method: "get",
    path: `${family.prefix}/path/{pagePath}`,
    restParam: "pagePath",
    tag: family.tag,
    summary: "One page by its path (URL-encoded, e.g. guides%2Finstall)",
    access,
    // A path of slugs, not an id: bounded as a URL is (docs/api.md, "Limits").
    params: z.object({ ...family.params, pagePath: pathParam(MAX_URL_LENGTH) }),
    query: z.object({ ...pageBodyQuery, ...revisionQuery }),
    response: pageSchema,
    async run(scope, { params, query }) {
      const path = pathParamOf(params, "pagePath").replace(/^\/+|\/+$/g, "");
      const found = path ? await scope.content.pageAtPath(path) : undefined;
      const node = found && (await scope.content.node(found.page, { children: true }));
      if (!node) throw notFound(`No page at path "${path}"`);
      const links = await renderingFor(scope, scope.content, subtreeVersions(node), writtenLinksFor(query));
      const includes = await includesFor(query, scope.content, subtreeVersions(node));
      const body = pageBody(query, links, scope.cache, includes);
      return presentPage(scope, scope.space, node, { children: true, links, body });
    },
  });

  return keyed([revision, pages, files, file, pageById, pageByPath]);
}

/** Reads of a space's current content. */
export const spaceContentReads = readOperations({
  ids: {
    revision: "getCurrentRevision",
    pages: "listPages",
    files: "listFiles",
    file: "getFileById",
    page: "getPageById",
    path: "getPageByPath",
  },
  at: "space",
  params: { spaceId: pathParam() },
  tag: "content",
  prefix: "/spaces/{spaceId}/content",
  revisionPath: "/spaces/{spaceId}/content",
  pagesPath: "/spaces/{spaceId}/content/pages",
  readerToken: true,
});

/** Reads of a change request's content (its head revision). */
export const changeRequestContentReads = readOperations({
  ids: {
    revision: "getRevisionOfChangeRequestById",
    pages: "listPagesInChangeRequest",
    files: "listFilesInChangeRequestById",
    file: "getFileInChangeRequestById",
    page: "getPageInChangeRequestById",
    path: "getPageInChangeRequestByPath",
  },
  at: "changeRequest",
  params: { spaceId: pathParam(), changeRequestId: pathParam() },
  tag: "change-requests",
  prefix: "/spaces/{spaceId}/change-requests/{changeRequestId}/content",
  revisionPath: "/spaces/{spaceId}/change-requests/{changeRequestId}/content",
  pagesPath: "/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages",
  readerToken: false,
});

/** Reads of any revision of a space, by id. */
export const revisionReads = readOperations({
  ids: {
    revision: "getRevisionById",
    pages: "listPagesInRevisionById",
    files: "listFilesInRevisionById",
    file: "getFileInRevisionById",
    page: "getPageInRevisionById",
    path: "getPageInRevisionByPath",
  },
  at: "revision",
  params: { spaceId: pathParam(), revisionId: pathParam() },
  tag: "revisions",
  prefix: "/spaces/{spaceId}/revisions/{revisionId}",
  revisionPath: "/spaces/{spaceId}/revisions/{revisionId}",
  pagesPath: "/spaces/{spaceId}/revisions/{revisionId}/pages",
  // Only the revision the token was issued with (permissions/reader-token.ts).
  readerToken: true,
});

export const contentReadOperations = { ...spaceContentReads, ...changeRequestContentReads, ...revisionReads };
