import * as z from "zod";
import { created, defineOperation, deleted, keyed } from "../registry.js";
import { badRequest, conflict, notFound } from "../shared/errors.js";
import { pathParam } from "../shared/schema.js";
import type { PageVersionRecord } from "../content-tree/tables.js";
import { fileSchema, pageSchema, presentFile, presentPage, subtreeVersions } from "./present.js";
import { renderingFor, storeWrittenMarkdown } from "../link-references/markdown-links.js";
import { resolverFor } from "../link-references/lookup.js";
import type { Revision } from "../content-tree/revisions.js";
import { onDraft, pathParamOf } from "./access.js";
import { commitDraft } from "./target.js";
import { slugify } from "../content-tree/tree.js";
import { createPageBody, updatePageBody, uploadFileBody } from "./write-bodies.js";
import { endOf, fileVersionOf, optionalPageFields } from "./versions.js";

/**
 * Content writes, docsbase's own operations (the reference has none): create, update, move and delete pages,
 * upload and delete files, on a live space and inside a change request. Each write commits a new
 * immutable revision holding only what changed.
 */

/** The sibling slug rule: a page's slug is unique among the pages of its parent. */
async function requireFreeSlug(
  content: Revision,
  parent: string,
  candidate: string,
  page?: string,
): Promise<void> {
  const holder = await content.childBySlug(parent, candidate);
  if (holder !== undefined && holder !== page) {
    throw conflict(`body.slug: "${candidate}" is already used by a sibling page`);
  }
}

/**
 * A slug derived from the title, made unique among siblings with a numeric suffix. Each candidate
 * is one lookup in the revision's slug index, not a read of the siblings.
 */
async function freeSlug(content: Revision, parent: string, base: string): Promise<string> {
  if ((await content.childBySlug(parent, base)) === undefined) return base;
  for (let n = 2; ; n++)
    if ((await content.childBySlug(parent, `${base}-${n}`)) === undefined) return `${base}-${n}`;
}

async function requireParentPage(content: Revision, parent: string | undefined): Promise<string> {
  if (!parent) return "";
  if (!(await content.hasPage(parent))) throw badRequest(`body.parent: no page "${parent}" in this content`);
  return parent;
}

/** The operation ids of one family, each written out where the family is declared. */
interface WriteIds {
  readonly createPage: string;
  readonly updatePage: string;
  readonly deletePage: string;
  readonly uploadFile: string;
  readonly deleteFile: string;
}

/**
 * One family of write operations: on a space's live content, or inside a change request (also the
 * family of reusable-content writes, reusable-contents.ts, with ids of its own).
 */
export interface WriteFamily<Ids extends object, Shape extends z.ZodRawShape> {
  readonly ids: Ids;
  readonly at: "space" | "changeRequest";
  readonly prefix: string;
  /** The path parameters naming the content: `spaceId`, and `changeRequestId` in a change request. */
  readonly params: Shape;
  readonly tag: string;
}

function writeOperations<const Ids extends WriteIds, Shape extends z.ZodRawShape>(
  family: WriteFamily<Ids, Shape>,
) {
  // Each `id` is asserted as `Ids[...]`: read from a generic object, the compiler would widen it to
  // `string` and `Client<Operations>` would lose the family's ids.
  const where = family.at === "changeRequest" ? "in a change request" : "in a live space";
  const access = onDraft(family.at);
  const pageParams = z.object({ ...family.params, pageId: pathParam() });
  const fileParams = z.object({ ...family.params, fileId: pathParam() });

  const createPage = defineOperation({
    id: family.ids.createPage as Ids["createPage"],
    method: "post",
    path: `${family.prefix}/pages`,
    tag: family.tag,
    summary: `Create a page ${where}; it goes last among its siblings`,
    access,
    params: z.object(family.params),
    body: createPageBody,
    response: pageSchema,
    status: 201,
    async run(scope, { params, body }) {
      const parent = await requireParentPage(scope.content, body.parent);
      if (body.slug) await requireFreeSlug(scope.content, parent, body.slug);
      const now = scope.clock().toISOString();
      const slug = body.slug ?? (await freeSlug(scope.content, parent, slugify(body.title)));
      // Links to pages and files are stored as references by id (link-references/references.ts).
      const markdown = await storeWrittenMarkdown(resolverFor(scope.content), body.markdown ?? "", {
        parent,
        slug,
      });
      const version: PageVersionRecord = {
        id: scope.ids(),
        page: scope.ids(),
        parent,
        position: await endOf(scope.content, parent),
        type: "document",
        title: body.title,
        slug,
        markdown,
        hidden: body.hidden ?? false,
        ...optionalPageFields(body),
        createdAt: now,
        updatedAt: now,
      };
      const next = await commitDraft(scope, { pages: new Map([[version.page, version]]) });
      const node = (await next.node(version.page, { children: true }))!;
      const links = await renderingFor(scope, next, subtreeVersions(node));
      const page = presentPage(scope, scope.space, node, { children: true, links });
      return created(scope, page, `${family.prefix}/page/{pageId}`, { ...params, pageId: version.page });
    },
  });

  const updatePage = defineOperation({
    id: family.ids.updatePage as Ids["updatePage"],
    method: "patch",
    path: `${family.prefix}/page/{pageId}`,
    tag: family.tag,
    summary: `Update or move a page ${where}`,
    access,
    params: pageParams,
    body: updatePageBody,
    response: pageSchema,
    async run(scope, { params, body }) {
      const { content } = scope;
      const pageId = pathParamOf(params, "pageId");
      const current = await content.page(pageId);
      if (!current) throw notFoundPage(pageId);
      const next: PageVersionRecord = {
        ...current,
        id: scope.ids(),
        updatedAt: scope.clock().toISOString(),
      };
      if (body.parent !== undefined && (body.parent ?? "") !== current.parent) {
        const parent = await requireParentPage(content, body.parent ?? undefined);
        if (parent && (await content.isWithin(parent, current.page))) {
          throw badRequest("body.parent: a page cannot move under itself or its descendants");
        }
        next.parent = parent;
        next.position = await endOf(content, parent);
      }
      if (body.title !== undefined) next.title = body.title;
      if (body.hidden !== undefined) next.hidden = body.hidden;
      if (body.variables !== undefined) next.variables = body.variables;
      if (body.emoji === null) delete next.emoji;
      else if (body.emoji !== undefined) next.emoji = body.emoji;
      if (body.description === null) delete next.description;
      else if (body.description !== undefined) next.description = body.description;
      if (body.slug !== undefined) next.slug = body.slug;
      if (body.slug !== undefined || next.parent !== current.parent) {
        if (body.slug !== undefined) await requireFreeSlug(content, next.parent, next.slug, next.page);
        else next.slug = await freeSlug(content, next.parent, next.slug);
      }
      if (body.markdown !== undefined) {
        // Relative links start from the page's new place when the same write moves it.
        next.markdown = await storeWrittenMarkdown(resolverFor(content), body.markdown, next);
      }
      const committed = await commitDraft(scope, { pages: new Map([[next.page, next]]) });
      const node = (await committed.node(next.page, { children: true }))!;
      const links = await renderingFor(scope, committed, subtreeVersions(node));
      return presentPage(scope, scope.space, node, { children: true, links });
    },
  });

  const deletePage = defineOperation({
    id: family.ids.deletePage as Ids["deletePage"],
    method: "delete",
    path: `${family.prefix}/page/{pageId}`,
    tag: family.tag,
    summary: `Delete a page and its descendants ${where}`,
    access,
    params: pageParams,
    emptyStatuses: [204, 205],
    async run(scope, { params }) {
      const removed = await scope.content.subtree(pathParamOf(params, "pageId"));
      if (removed.length === 0) return deleted(false);
      await commitDraft(scope, { pages: new Map(removed.map((page) => [page, null])) });
      return deleted(true);
    },
  });

  const uploadFile = defineOperation({
    id: family.ids.uploadFile as Ids["uploadFile"],
    method: "post",
    path: `${family.prefix}/files`,
    tag: family.tag,
    summary: `Upload a file ${where} (bytes as base64)`,
    access,
    params: z.object(family.params),
    body: uploadFileBody,
    response: fileSchema,
    status: 201,
    async run(scope, { params, body }) {
      const version = await fileVersionOf(scope.tx, scope, body);
      await commitDraft(scope, { files: new Map([[version.file, version]]) });
      const file = presentFile(scope, version.file, version);
      return created(scope, file, `${family.prefix}/files/{fileId}`, { ...params, fileId: version.file });
    },
  });

  const deleteFile = defineOperation({
    id: family.ids.deleteFile as Ids["deleteFile"],
    method: "delete",
    path: `${family.prefix}/files/{fileId}`,
    tag: family.tag,
    summary: `Delete a file ${where}`,
    access,
    params: fileParams,
    emptyStatuses: [204, 205],
    async run(scope, { params }) {
      const fileId = pathParamOf(params, "fileId");
      if (!(await scope.content.file(fileId))) return deleted(false);
      await commitDraft(scope, { files: new Map([[fileId, null]]) });
      return deleted(true);
    },
  });

  return keyed([createPage, updatePage, deletePage, uploadFile, deleteFile]);
}

const notFoundPage = (id: string) => notFound(`Page "${id}" not found`);

/** Writes to a space's live content. */
export const spaceContentWrites = writeOperations({
  ids: {
    createPage: "createPage",
    updatePage: "updatePage",
    deletePage: "deletePage",
    uploadFile: "uploadFile",
    deleteFile: "deleteFile",
  },
  at: "space",
  prefix: "/spaces/{spaceId}/content",
  params: { spaceId: pathParam() },
  tag: "content",
});

/** Writes to a change request's content. */
export const changeRequestContentWrites = writeOperations({
  ids: {
    createPage: "createPageInChangeRequest",
    updatePage: "updatePageInChangeRequest",
    deletePage: "deletePageInChangeRequest",
    uploadFile: "uploadFileInChangeRequest",
    deleteFile: "deleteFileInChangeRequest",
  },
  at: "changeRequest",
  prefix: "/spaces/{spaceId}/change-requests/{changeRequestId}/content",
  params: { spaceId: pathParam(), changeRequestId: pathParam() },
  tag: "change-requests",
});

export const contentWriteOperations = { ...spaceContentWrites, ...changeRequestContentWrites };
