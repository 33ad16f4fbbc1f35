import { z } from "zod";
import { defineOperation } from "../registry.js";
import { notFound } from "../shared/errors.js";
import { listOf, pageQuery, paginateSorted } from "../shared/pagination.js";
import { pathParam, queryBoolean } from "../shared/schema.js";
import type { Context } from "../shared/world.js";
import {
  fileSchema,
  orderedFiles,
  pageSchema,
  presentFile,
  presentPage,
  presentRevision,
  revisionSchema,
} from "./present.js";
import { pageBody, pageBodyQuery } from "./page-body.js";
import { openContent, type ContentSelector } from "./target.js";
import { pageTree } from "./tree.js";

/**
 * Content reads in three families that differ only in which content they name (SPEC.md, "Space
 * content", "Change requests and their content", and the reference's revision reads): a space's
 * current revision, a change request's head, or a revision by id.
 */

/** `metadata` and `computed` (default true): there is no git metadata or computed content yet. */
const revisionQuery = { metadata: queryBoolean().optional(), computed: queryBoolean().optional() };

interface Family {
  readonly ids: {
    revision: string;
    pages: string;
    files: string;
    file: string;
    page: string;
    path: string;
  };
  readonly prefix: string;
  readonly params: z.ZodObject<z.ZodRawShape>;
  readonly tag: string;
  readonly selector: (params: Record<string, string>) => ContentSelector;
  readonly revisionPath: string;
  readonly pagesPath: string;
}

function readOperations(family: Family) {
  const open = (context: Context, params: Record<string, string>) =>
    context.storage.read(async (tx) => openContent(tx, context, family.selector(params)));

  const revision = defineOperation({
    id: family.ids.revision,
    method: "get",
    path: family.revisionPath,
    tag: family.tag,
    summary: "The revision: its page tree and files",
    params: family.params,
    query: z.object(revisionQuery),
    response: revisionSchema,
    async run(context, { params }) {
      const { access, content } = await open(context, params as Record<string, string>);
      return presentRevision(context, access.space, content);
    },
  });

  const pages = defineOperation({
    id: family.ids.pages,
    method: "get",
    path: family.pagesPath,
    tag: family.tag,
    summary: "The page tree",
    params: family.params,
    query: z.object(revisionQuery),
    response: z.object({ pages: z.array(pageSchema) }),
    async run(context, { params }) {
      const { access, content } = await open(context, params as Record<string, string>);
      return {
        pages: pageTree(content).roots.map((node) =>
          presentPage(context, access.space, node, { children: true }),
        ),
      };
    },
  });

  const files = defineOperation({
    id: family.ids.files,
    method: "get",
    path: `${family.prefix}/files`,
    tag: family.tag,
    summary: "The files, by name",
    params: family.params,
    query: z.object({ ...pageQuery, ...revisionQuery }),
    response: listOf(fileSchema),
    async run(context, { params, query }) {
      const { access, content } = await open(context, params as Record<string, string>);
      const page = paginateSorted(orderedFiles(content), query, {
        scope: `files:${access.space.id}`,
        position: ([id, version]) => [version.name, id],
      });
      return { ...page, items: page.items.map(([id, version]) => presentFile(context, id, version)) };
    },
  });

  const file = defineOperation({
    id: family.ids.file,
    method: "get",
    path: `${family.prefix}/files/{fileId}`,
    tag: family.tag,
    summary: "One file",
    params: family.params.extend({ fileId: pathParam() }),
    query: z.object(revisionQuery),
    response: fileSchema,
    async run(context, { params }) {
      const { content } = await open(context, params as Record<string, string>);
      const version = content.files.get(params.fileId as string);
      if (!version) throw notFound(`File "${String(params.fileId)}" not found`);
      return presentFile(context, params.fileId as string, version);
    },
  });

  const pageById = defineOperation({
    id: family.ids.page,
    method: "get",
    path: `${family.prefix}/page/{pageId}`,
    tag: family.tag,
    summary: "One page, as markdown or as a JSON document",
    params: family.params.extend({ pageId: pathParam() }),
    query: z.object({ ...pageBodyQuery, ...revisionQuery }),
    response: pageSchema,
    async run(context, { params, query }) {
      const { access, content } = await open(context, params as Record<string, string>);
      const node = pageTree(content).byId.get(params.pageId as string);
      if (!node) throw notFound(`Page "${String(params.pageId)}" not found`);
      return presentPage(context, access.space, node, { children: true, body: pageBody(query) });
    },
  });

  const pageByPath = defineOperation({
    id: family.ids.path,
    method: "get",
    path: `${family.prefix}/path/{pagePath}`,
    restParam: "pagePath",
    tag: family.tag,
    summary: "One page by its path (URL-encoded, e.g. guides%2Finstall)",
    params: family.params.extend({ pagePath: pathParam() }),
    query: z.object({ ...pageBodyQuery, ...revisionQuery }),
    response: pageSchema,
    async run(context, { params, query }) {
      const { access, content } = await open(context, params as Record<string, string>);
      const path = (params.pagePath as string).replace(/^\/+|\/+$/g, "");
      const node = pageTree(content).byPath.get(path);
      if (!node) throw notFound(`No page at path "${path}"`);
      return presentPage(context, access.space, node, { children: true, body: pageBody(query) });
    },
  });

  return [revision, pages, files, file, pageById, pageByPath] as const;
}

const spaceParams = z.object({ spaceId: pathParam() });
const changeRequestParams = z.object({ spaceId: pathParam(), changeRequestId: pathParam() });
const revisionParams = z.object({ spaceId: pathParam(), revisionId: pathParam() });

const families = [
  readOperations({
    ids: {
      revision: "getCurrentRevision",
      pages: "listPages",
      files: "listFiles",
      file: "getFileById",
      page: "getPageById",
      path: "getPageByPath",
    },
    prefix: "/spaces/{spaceId}/content",
    revisionPath: "/spaces/{spaceId}/content",
    pagesPath: "/spaces/{spaceId}/content/pages",
    params: spaceParams,
    tag: "content",
    selector: (params) => ({ spaceId: params["spaceId"]! }),
  }),
  readOperations({
    ids: {
      revision: "getRevisionOfChangeRequestById",
      pages: "listPagesInChangeRequest",
      files: "listFilesInChangeRequestById",
      file: "getFileInChangeRequestById",
      page: "getPageInChangeRequestById",
      path: "getPageInChangeRequestByPath",
    },
    prefix: "/spaces/{spaceId}/change-requests/{changeRequestId}/content",
    revisionPath: "/spaces/{spaceId}/change-requests/{changeRequestId}/content",
    pagesPath: "/spaces/{spaceId}/change-requests/{changeRequestId}/content/pages",
    params: changeRequestParams,
    tag: "change-requests",
    selector: (params) => ({ spaceId: params["spaceId"]!, changeRequestId: params["changeRequestId"]! }),
  }),
  readOperations({
    ids: {
      revision: "getRevisionById",
      pages: "listPagesInRevisionById",
      files: "listFilesInRevisionById",
      file: "getFileInRevisionById",
      page: "getPageInRevisionById",
      path: "getPageInRevisionByPath",
    },
    prefix: "/spaces/{spaceId}/revisions/{revisionId}",
    revisionPath: "/spaces/{spaceId}/revisions/{revisionId}",
    pagesPath: "/spaces/{spaceId}/revisions/{revisionId}/pages",
    params: revisionParams,
    tag: "revisions",
    selector: (params) => ({ spaceId: params["spaceId"]!, revisionId: params["revisionId"]! }),
  }),
];

export const contentReadOperations = Object.fromEntries(
  families.flat().map((operation) => [operation.id, operation]),
) as Record<string, (typeof families)[number][number]>;
