import { generateKeyBetween } from "fractional-indexing";
import { imageSize } from "image-size";
import { z } from "zod";
import { defineOperation, deleted } from "../registry.js";
import { badRequest, conflict, notFound } from "../shared/errors.js";
import { pathParam } from "../shared/schema.js";
import type { Context } from "../shared/world.js";
import type { WriteTransaction } from "../storage/port.js";
import { tables, type BlobRecord, type FileVersionRecord, type PageVersionRecord } from "../tables.js";
import { fileSchema, pageSchema, presentFile, presentPage } from "./present.js";
import type { RevisionContent } from "./revisions.js";
import { openDraft } from "./target.js";
import { pageTree, siblingsOf, slugify, subtreeOf } from "./tree.js";
import { createPageBody, updatePageBody, uploadFileBody } from "./write-bodies.js";

/**
 * Content writes (DESIGN.md, "Extensions beyond SPEC.md"): create, update, move and delete pages,
 * upload and delete files, on a live space and inside a change request. Each write commits a new
 * immutable revision holding only what changed.
 */

/** The sibling slug rule: a page's slug is unique among the pages of its parent. */
function requireFreeSlug(content: RevisionContent, parent: string, candidate: string, page?: string): void {
  if (siblingsOf(content, parent).some((sibling) => sibling.slug === candidate && sibling.page !== page)) {
    throw conflict(`body.slug: "${candidate}" is already used by a sibling page`);
  }
}

/** A slug derived from the title, made unique among siblings with a numeric suffix. */
function freeSlug(content: RevisionContent, parent: string, base: string): string {
  const taken = new Set(siblingsOf(content, parent).map((sibling) => sibling.slug));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

function requireParentPage(content: RevisionContent, parent: string | undefined): string {
  if (!parent) return "";
  if (!content.pages.has(parent)) throw badRequest(`body.parent: no page "${parent}" in this content`);
  return parent;
}

const endOf = (content: RevisionContent, parent: string) =>
  generateKeyBetween(siblingsOf(content, parent).at(-1)?.position ?? null, null);

/** One family of write operations: on a space's live content, or inside a change request. */
interface Family {
  readonly suffix: "" | "InChangeRequest";
  readonly prefix: string;
  /** `spaceId`, and `changeRequestId` in the change-request family. */
  readonly params:
    | z.ZodObject<{ spaceId: z.ZodString }>
    | z.ZodObject<{ spaceId: z.ZodString; changeRequestId: z.ZodString }>;
  readonly tag: string;
}

const families: readonly Family[] = [
  {
    suffix: "",
    prefix: "/spaces/{spaceId}/content",
    params: z.object({ spaceId: pathParam() }),
    tag: "content",
  },
  {
    suffix: "InChangeRequest",
    prefix: "/spaces/{spaceId}/change-requests/{changeRequestId}/content",
    params: z.object({ spaceId: pathParam(), changeRequestId: pathParam() }),
    tag: "change-requests",
  },
];

function writeOperations(family: Family) {
  const where = family.suffix ? "in a change request" : "in a live space";
  const open = (
    tx: WriteTransaction,
    context: Context,
    params: { spaceId: string; changeRequestId?: unknown },
  ) =>
    openDraft(tx, context, {
      spaceId: params.spaceId,
      ...(typeof params.changeRequestId === "string" ? { changeRequestId: params.changeRequestId } : {}),
    });
  const pageParams = family.params.extend({ pageId: pathParam() });
  const fileParams = family.params.extend({ fileId: pathParam() });

  const createPage = defineOperation({
    id: `createPage${family.suffix}`,
    method: "post",
    path: `${family.prefix}/pages`,
    tag: family.tag,
    summary: `Create a page ${where}; it goes last among its siblings`,
    params: family.params,
    body: createPageBody,
    response: pageSchema,
    status: 201,
    async run(context, { params, body }) {
      return context.storage.write(async (tx) => {
        const draft = await open(tx, context, params);
        const parent = requireParentPage(draft.content, body.parent);
        if (body.slug) requireFreeSlug(draft.content, parent, body.slug);
        const now = context.clock().toISOString();
        const version: PageVersionRecord = {
          id: context.ids(),
          page: context.ids(),
          parent,
          position: endOf(draft.content, parent),
          type: "document",
          title: body.title,
          slug: body.slug ?? freeSlug(draft.content, parent, slugify(body.title)),
          markdown: body.markdown ?? "",
          hidden: body.hidden ?? false,
          ...(body.emoji ? { emoji: body.emoji } : {}),
          ...(body.description ? { description: body.description } : {}),
          ...(body.variables ? { variables: body.variables } : {}),
          createdAt: now,
          updatedAt: now,
        };
        const next = await draft.commit({ pages: new Map([[version.page, version]]) });
        const node = pageTree(next).byId.get(version.page)!;
        return presentPage(context, draft.access.space, node, { children: true });
      });
    },
  });

  const updatePage = defineOperation({
    id: `updatePage${family.suffix}`,
    method: "patch",
    path: `${family.prefix}/page/{pageId}`,
    tag: family.tag,
    summary: `Update or move a page ${where}`,
    params: pageParams,
    body: updatePageBody,
    response: pageSchema,
    async run(context, { params, body }) {
      return context.storage.write(async (tx) => {
        const draft = await open(tx, context, params);
        const current = draft.content.pages.get(params.pageId);
        if (!current) throw notFoundPage(params.pageId);
        const next: PageVersionRecord = {
          ...current,
          id: context.ids(),
          updatedAt: context.clock().toISOString(),
        };
        if (body.parent !== undefined && (body.parent ?? "") !== current.parent) {
          const parent = requireParentPage(draft.content, body.parent ?? undefined);
          if (subtreeOf(draft.content, current.page).includes(parent)) {
            throw badRequest("body.parent: a page cannot move under itself or its descendants");
          }
          next.parent = parent;
          next.position = endOf(draft.content, parent);
        }
        if (body.title !== undefined) next.title = body.title;
        if (body.markdown !== undefined) next.markdown = body.markdown;
        if (body.hidden !== undefined) next.hidden = body.hidden;
        if (body.variables !== undefined) next.variables = body.variables;
        if (body.emoji === null) delete next.emoji;
        else if (body.emoji !== undefined) next.emoji = body.emoji;
        if (body.description === null) delete next.description;
        else if (body.description !== undefined) next.description = body.description;
        if (body.slug !== undefined) next.slug = body.slug;
        if (body.slug !== undefined || next.parent !== current.parent) {
          if (body.slug !== undefined) requireFreeSlug(draft.content, next.parent, next.slug, next.page);
          else next.slug = freeSlug(draft.content, next.parent, next.slug);
        }
        const committed = await draft.commit({ pages: new Map([[next.page, next]]) });
        return presentPage(context, draft.access.space, pageTree(committed).byId.get(next.page)!, {
          children: true,
        });
      });
    },
  });

  const deletePage = defineOperation({
    id: `deletePage${family.suffix}`,
    method: "delete",
    path: `${family.prefix}/page/{pageId}`,
    tag: family.tag,
    summary: `Delete a page and its descendants ${where}`,
    params: pageParams,
    emptyStatuses: [204, 205],
    async run(context, { params }) {
      return context.storage.write(async (tx) => {
        const draft = await open(tx, context, params);
        const removed = subtreeOf(draft.content, params.pageId);
        if (removed.length === 0) return deleted(false);
        await draft.commit({ pages: new Map(removed.map((page) => [page, null])) });
        return deleted(true);
      });
    },
  });

  const uploadFile = defineOperation({
    id: `uploadFile${family.suffix}`,
    method: "post",
    path: `${family.prefix}/files`,
    tag: family.tag,
    summary: `Upload a file ${where} (bytes as base64)`,
    params: family.params,
    body: uploadFileBody,
    response: fileSchema,
    status: 201,
    async run(context, { params, body }) {
      const bytes = Uint8Array.from(atob(body.data), (char) => char.charCodeAt(0));
      const hash = await sha256(bytes);
      return context.storage.write(async (tx) => {
        const draft = await open(tx, context, params);
        if (!(await tx.get(tables.blobs.name, hash))) {
          const blob: BlobRecord = { hash, data: body.data, size: bytes.length };
          await tx.put(tables.blobs.name, blob);
        }
        const dimensions = body.contentType.startsWith("image/") ? measure(bytes) : undefined;
        const version: FileVersionRecord = {
          id: context.ids(),
          file: context.ids(),
          name: body.name,
          contentType: body.contentType,
          blob: hash,
          size: bytes.length,
          ...(dimensions ? { dimensions } : {}),
          createdAt: context.clock().toISOString(),
        };
        await draft.commit({ files: new Map([[version.file, version]]) });
        return presentFile(context, version.file, version);
      });
    },
  });

  const deleteFile = defineOperation({
    id: `deleteFile${family.suffix}`,
    method: "delete",
    path: `${family.prefix}/files/{fileId}`,
    tag: family.tag,
    summary: `Delete a file ${where}`,
    params: fileParams,
    emptyStatuses: [204, 205],
    async run(context, { params }) {
      return context.storage.write(async (tx) => {
        const draft = await open(tx, context, params);
        if (!draft.content.files.has(params.fileId)) return deleted(false);
        await draft.commit({ files: new Map([[params.fileId, null]]) });
        return deleted(true);
      });
    },
  });

  return { createPage, updatePage, deletePage, uploadFile, deleteFile };
}

const notFoundPage = (id: string) => notFound(`Page "${id}" not found`);

/** Image dimensions from the bytes, or undefined for formats image-size does not know. */
function measure(bytes: Uint8Array): { width: number; height: number } | undefined {
  try {
    const { width, height } = imageSize(bytes);
    return width && height ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

const [space, changeRequest] = [writeOperations(families[0]!), writeOperations(families[1]!)];

export const contentWriteOperations = {
  createPage: space.createPage,
  updatePage: space.updatePage,
  deletePage: space.deletePage,
  uploadFile: space.uploadFile,
  deleteFile: space.deleteFile,
  createPageInChangeRequest: changeRequest.createPage,
  updatePageInChangeRequest: changeRequest.updatePage,
  deletePageInChangeRequest: changeRequest.deletePage,
  uploadFileInChangeRequest: changeRequest.uploadFile,
  deleteFileInChangeRequest: changeRequest.deleteFile,
};
