import * as z from "zod";
import { jsonBytes } from "../shared/cache.js";
import { type ReusableContentVersionRecord, reusableContentVersionsTable } from "../content-tree/tables.js";
import { markdownToDocument } from "../document/index.js";
import { documentLinkRef } from "../link-references/references.js";
import { readableWithReaderToken } from "../permissions/reader-token.js";
import { created, defineOperation, deleted, keyed } from "../registry.js";
import { conflict, notFound } from "../shared/errors.js";
import { pathParam, queryBoolean } from "../shared/schema.js";
import type { DerivedCache } from "../shared/world.js";
import { type ContentAt, onContent, onDraft, pathParamOf } from "./access.js";
import { type PageBodyQuery, evaluated, pageBodyQuery } from "./page-body.js";
import { documentSchema } from "./page-document.js";
import { presentReusableContent, reusableContentSchema } from "./present.js";
import { commitDraft } from "./target.js";
import { createReusableContentBody, updateReusableContentBody } from "./write-bodies.js";
import type { WriteFamily } from "./writes.js";

/**
 * Reusable contents: a document kept once in a space and included by pages (a `reusable-content`
 * block, written `{% include "<id>" %}` in markdown). They live in revisions as pages and files
 * do (content-tree/revisions.ts, the `reusableContents` map), so a revision keeps the version it
 * was made with, and a change request edits them and merges them like files (whole: changed
 * differently on both sides is a conflict).
 *
 * The reference reads them (`getReusableContentById` and its change-request and revision
 * forms, `getReusableContentDocumentInRevisionById`); the writes are docsbase's own, beside the
 * page writes. The `document` of a reusable content is the id of its current version: a document
 * id never names two contents, and `getDocumentById` answers it.
 */

/** At most this many reusable contents in one space's content (or change request). */
export const MAX_REUSABLE_CONTENTS = 1000;

/**
 * The JSON document of a reusable content version, converted once per version and evaluation
 * mode and kept in `cache` (a version never changes). Expressions see the space's variables only.
 */
export function reusableContentDocument(
  version: ReusableContentVersionRecord,
  evaluation: PageBodyQuery["evaluated"],
  cache?: DerivedCache,
): z.infer<typeof documentSchema> {
  const key = `reusable-document:${version.id}:${String(evaluation ?? false)}`;
  let document = cache?.get(key) as z.infer<typeof documentSchema> | undefined;
  if (!document) {
    const text = evaluated(version.markdown, {}, evaluation);
    document = markdownToDocument(text, { linkRef: documentLinkRef(text) }) as unknown as z.infer<
      typeof documentSchema
    >;
    cache?.set(key, document, jsonBytes(document));
  }
  return document;
}

/** `metadata` and `computed` (reference parameters): there is no git metadata or computed content. */
const revisionQuery = z.object({ metadata: queryBoolean().optional(), computed: queryBoolean().optional() });

const notFoundIn = (id: string) => notFound(`Reusable content "${id}" not found`);

interface ReadFamily<Id extends string, Shape extends z.ZodRawShape> {
  readonly id: Id;
  readonly at: ContentAt;
  readonly prefix: string;
  readonly params: Shape;
  readonly tag: string;
  readonly readerToken: boolean;
}

/** `get<...>ById`: one reusable content of the content a family names. */
function readOperation<const Id extends string, Shape extends z.ZodRawShape>(family: ReadFamily<Id, Shape>) {
  const view = onContent(family.at, "view");
  return defineOperation({
    id: family.id,
    method: "get",
    path: `${family.prefix}/reusable-contents/{reusableContentId}`,
    tag: family.tag,
    summary: "One reusable content: its title and the id of its document",
    access: family.readerToken ? readableWithReaderToken(view) : view,
    params: z.object({ ...family.params, reusableContentId: pathParam() }),
    query: revisionQuery,
    response: reusableContentSchema,
    async run(scope, { params }) {
      const id = pathParamOf(params, "reusableContentId");
      const version = await scope.content.reusableContent(id);
      if (!version) throw notFoundIn(id);
      return presentReusableContent(version);
    },
  });
}

const getReusableContentById = readOperation({
  id: "getReusableContentById",
  at: "space",
  prefix: "/spaces/{spaceId}/content",
  params: { spaceId: pathParam() },
  tag: "content",
  readerToken: true,
});

const getReusableContentInChangeRequestById = readOperation({
  id: "getReusableContentInChangeRequestById",
  at: "changeRequest",
  prefix: "/spaces/{spaceId}/change-requests/{changeRequestId}/content",
  params: { spaceId: pathParam(), changeRequestId: pathParam() },
  tag: "change-requests",
  readerToken: false,
});

const getReusableContentInRevisionById = readOperation({
  id: "getReusableContentInRevisionById",
  at: "revision",
  prefix: "/spaces/{spaceId}/revisions/{revisionId}",
  params: { spaceId: pathParam(), revisionId: pathParam() },
  tag: "revisions",
  // Only the revision the token was issued with (permissions/reader-token.ts).
  readerToken: true,
});

/** The JSON document of a reusable content in a revision, as `getPageDocumentInRevisionById` for pages. */
const getReusableContentDocumentInRevisionById = defineOperation({
  id: "getReusableContentDocumentInRevisionById",
  method: "get",
  path: "/spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}/document",
  tag: "revisions",
  summary: "The JSON document of one reusable content of a revision",
  access: readableWithReaderToken(onContent("revision", "view")),
  params: z.object({ spaceId: pathParam(), revisionId: pathParam(), reusableContentId: pathParam() }),
  query: z.object({ evaluated: pageBodyQuery.evaluated }),
  response: documentSchema,
  async run(scope, { params, query }) {
    const version = await scope.content.reusableContent(params.reusableContentId);
    if (!version) throw notFoundIn(params.reusableContentId);
    return reusableContentDocument(version, query.evaluated, scope.cache);
  },
});

/**
 * `getDocumentById`: a document of the space by id. Documents with an id are those of reusable
 * contents (`document` in their presentation, the id of one version; a page's body is read with
 * the page). The version must belong to a reusable content the space's current content holds: a
 * deleted reusable content's documents are gone with it.
 */
const getDocumentById = defineOperation({
  id: "getDocumentById",
  method: "get",
  path: "/spaces/{spaceId}/documents/{documentId}",
  tag: "content",
  summary: "A document of the space by id (the `document` of a reusable content)",
  access: readableWithReaderToken(onContent("space", "view")),
  params: z.object({ spaceId: pathParam(), documentId: pathParam() }),
  query: z.object({ schema: z.enum(["current", "next"]).optional() }),
  response: documentSchema,
  async run(scope, { params }) {
    const version = await scope.tx.get(reusableContentVersionsTable, params.documentId);
    if (!version || !(await scope.content.reusableContent(version.reusableContent))) {
      throw notFound(`Document "${params.documentId}" not found in this space`);
    }
    return reusableContentDocument(version, undefined, scope.cache);
  },
});

interface WriteIds {
  readonly create: string;
  readonly update: string;
  readonly delete: string;
}

/** Create, update and delete a reusable content, in a live space or in a change request. */
function writeOperations<const Ids extends WriteIds, Shape extends z.ZodRawShape>(
  family: WriteFamily<Ids, Shape>,
) {
  const where = family.at === "changeRequest" ? "in a change request" : "in a live space";
  const access = onDraft(family.at);
  const itemPath = `${family.prefix}/reusable-contents/{reusableContentId}`;
  const itemParams = z.object({ ...family.params, reusableContentId: pathParam() });

  const create = defineOperation({
    id: family.ids.create as Ids["create"],
    method: "post",
    path: `${family.prefix}/reusable-contents`,
    tag: family.tag,
    summary: `Create a reusable content ${where}`,
    access,
    params: z.object(family.params),
    body: createReusableContentBody,
    response: reusableContentSchema,
    status: 201,
    async run(scope, { params, body }) {
      if ((await scope.content.reusableContentCount()) >= MAX_REUSABLE_CONTENTS) {
        throw conflict(`A space holds at most ${MAX_REUSABLE_CONTENTS} reusable contents`);
      }
      const now = scope.clock().toISOString();
      const version: ReusableContentVersionRecord = {
        id: scope.ids(),
        reusableContent: scope.ids(),
        title: body.title,
        markdown: body.markdown ?? "",
        createdAt: now,
        updatedAt: now,
      };
      await commitDraft(scope, { reusableContents: new Map([[version.reusableContent, version]]) });
      return created(scope, presentReusableContent(version), itemPath, {
        ...params,
        reusableContentId: version.reusableContent,
      });
    },
  });

  const update = defineOperation({
    id: family.ids.update as Ids["update"],
    method: "patch",
    path: itemPath,
    tag: family.tag,
    summary: `Update the title or the markdown of a reusable content ${where}`,
    access,
    params: itemParams,
    body: updateReusableContentBody,
    response: reusableContentSchema,
    async run(scope, { params, body }) {
      const id = pathParamOf(params, "reusableContentId");
      const current = await scope.content.reusableContent(id);
      if (!current) throw notFoundIn(id);
      const next: ReusableContentVersionRecord = {
        ...current,
        id: scope.ids(),
        ...(body.title !== undefined ? { title: body.title } : {}),
        ...(body.markdown !== undefined ? { markdown: body.markdown } : {}),
        updatedAt: scope.clock().toISOString(),
      };
      await commitDraft(scope, { reusableContents: new Map([[id, next]]) });
      return presentReusableContent(next);
    },
  });

  const remove = defineOperation({
    id: family.ids.delete as Ids["delete"],
    method: "delete",
    path: itemPath,
    tag: family.tag,
    summary: `Delete a reusable content ${where}; pages that include it show nothing in its place`,
    access,
    params: itemParams,
    emptyStatuses: [204, 205],
    async run(scope, { params }) {
      const id = pathParamOf(params, "reusableContentId");
      if (!(await scope.content.reusableContent(id))) return deleted(false);
      await commitDraft(scope, { reusableContents: new Map([[id, null]]) });
      return deleted(true);
    },
  });

  return keyed([create, update, remove]);
}

const spaceWrites = writeOperations({
  ids: {
    create: "createReusableContent",
    update: "updateReusableContent",
    delete: "deleteReusableContent",
  },
  at: "space",
  prefix: "/spaces/{spaceId}/content",
  params: { spaceId: pathParam() },
  tag: "content",
});

const changeRequestWrites = writeOperations({
  ids: {
    create: "createReusableContentInChangeRequest",
    update: "updateReusableContentInChangeRequest",
    delete: "deleteReusableContentInChangeRequest",
  },
  at: "changeRequest",
  prefix: "/spaces/{spaceId}/change-requests/{changeRequestId}/content",
  params: { spaceId: pathParam(), changeRequestId: pathParam() },
  tag: "change-requests",
});

export const reusableContentOperations = {
  ...keyed([
    getReusableContentById,
    getReusableContentInChangeRequestById,
    getReusableContentInRevisionById,
    getReusableContentDocumentInRevisionById,
    getDocumentById,
  ]),
  ...spaceWrites,
  ...changeRequestWrites,
};
