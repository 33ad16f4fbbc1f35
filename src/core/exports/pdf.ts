import * as z from "zod";
import { pageTree, type TreeNode } from "../content-tree/tree.js";
import { downloadBase } from "../content/download.js";
import { loadRevision } from "../content-tree/revisions.js";
import { onContent } from "../content/access.js";
import type { JobHandler } from "../jobs/index.js";
import { scheduleJob } from "../jobs/index.js";
import { defineOperation } from "../registry.js";
import { notFound } from "../shared/errors.js";
import { boundedId, pathParam, queryBoolean } from "../shared/schema.js";
import type { World } from "../shared/world.js";
import { renderingFor } from "../link-references/markdown-links.js";
import { includesFor, inlineIncludes } from "../content/page-body.js";
import { type ExportRecord, exportsTable } from "./tables.js";

/**
 * PDF export of a change request (`GET .../pdf`). The operation answers `{url}`; the URL
 * names an export record with a random id, valid for {@link EXPORT_TTL_MS}, so a browser can open
 * it without a bearer token. The PDF is rendered on first download and memoized per revision,
 * page and `only`, since revisions never change.
 */
export const EXPORT_TTL_MS = 24 * 60 * 60 * 1000;
export const EXPIRE_EXPORT_JOB = "expireExport";

export const getChangeRequestPDF = defineOperation({
  id: "getChangeRequestPDF",
  method: "get",
  path: "/spaces/{spaceId}/change-requests/{changeRequestId}/pdf",
  tag: "change-requests",
  summary: "A URL of the change request's content as PDF, valid for 24 hours",
  params: z.object({ spaceId: pathParam(), changeRequestId: pathParam() }),
  access: onContent("changeRequest", "view"),
  // A GET that stores the export record: its transaction writes. Rendering happens later, on
  // download (`readExport`), outside any transaction.
  transaction: "write",
  query: z
    .object({ only: queryBoolean().optional(), page: boundedId().optional() })
    // Checked with the query, before access, as every malformed input is.
    .refine((query) => !query.only || query.page !== undefined, {
      path: ["page"],
      message: "required when only is true",
    }),
  response: z.object({ url: z.string() }),
  async run(scope, { query }) {
    const { tx, space, changeRequest, content } = scope;
    if (query.page && !(await content.hasPage(query.page))) {
      throw notFound(`query.page: no page "${query.page}" in this change request`);
    }
    const now = scope.clock();
    const record: ExportRecord = {
      id: scope.ids(),
      space: space.id,
      revision: content.record.id,
      title: `${space.title}: ${changeRequest.subject || `change request #${changeRequest.number}`}`,
      ...(query.page ? { page: query.page } : {}),
      only: query.only ?? false,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + EXPORT_TTL_MS).toISOString(),
    };
    await tx.put(exportsTable, record);
    await scheduleJob(tx, scope, space.organization, EXPIRE_EXPORT_JOB, new Date(record.expiresAt), {
      export: record.id,
    });
    return { url: `${downloadBase(scope)}/v1/exports/${record.id}.pdf` };
  },
});

/** Removes an export once it expired. */
export const expireExport: JobHandler = async (world, payload) => {
  const id = payload["export"];
  if (typeof id === "string") await world.storage.write((tx) => tx.delete(exportsTable, id));
};

/** The PDF behind an export URL, or undefined when unknown or expired. */
export async function readExport(
  world: World,
  id: string,
): Promise<{ name: string; bytes: Uint8Array } | undefined> {
  const found = await world.storage.read(async (tx) => {
    const record = await tx.get(exportsTable, id);
    if (!record || record.expiresAt <= world.clock().toISOString()) return undefined;
    const key = `pdf:${record.revision}:${record.page ?? ""}:${record.only}`;
    const cached = world.cache.get(key) as Uint8Array | undefined;
    if (cached) return { record, key, cached, pages: undefined };
    const revision = await loadRevision(tx, world, record.revision);
    if (!revision) return undefined;
    const tree = pageTree(await revision.full());
    const start = record.page ? tree.byId.get(record.page) : undefined;
    const nodes = start ? (record.only ? [start] : subtree(start)) : tree.ordered;
    // Links render to paths in this revision, read while its transaction is open.
    const links = await renderingFor(
      world,
      revision,
      nodes.map((node) => node.version),
    );
    // What a page includes is shown where it includes it (content/page-body.ts).
    const versions = nodes.map((node) => node.version);
    const includes = await includesFor({ dereferenced: "reusable-contents" }, revision, versions);
    const base = start?.depth ?? 0;
    const pages = nodes.map((node) => ({
      title: node.version.title,
      markdown: inlineIncludes(links.markdown(node.version), includes),
      depth: node.depth - base,
    }));
    return { record, key, cached: undefined, pages };
  });
  if (!found) return undefined;
  const { record, key } = found;
  let bytes = found.cached;
  if (!bytes && found.pages) {
    // The renderer (pdf-lib and its fonts, a third of a browser bundle) loads on the first export.
    const { renderPagesPdf } = await import("../pdf/index.js");
    bytes = await renderPagesPdf({ title: record.title, pages: found.pages });
    world.cache.set(key, bytes, bytes.byteLength + 64);
  }
  if (!bytes) return undefined;
  return { name: `${record.id}.pdf`, bytes };
}

function subtree(node: TreeNode): TreeNode[] {
  return [node, ...node.children.flatMap(subtree)];
}
