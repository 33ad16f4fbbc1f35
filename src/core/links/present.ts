import * as z from "zod";
import {
  fileSchema,
  pageSchema,
  presentFile,
  presentPage,
  type File,
  type Page,
} from "../content/present.js";
import type { ContentScope } from "../content/access.js";
import { pageTree } from "../content-tree/tree.js";
import { organizationSchema, type Organization } from "../organizations/schemas.js";
import { listOf } from "../shared/pagination.js";
import type { Context } from "../shared/world.js";
import { spaceSchema, type Space } from "../spaces/schemas.js";
import type { ReadTransaction } from "../storage/port.js";
import type { LinkItem } from "./graph.js";
import { renderingFor } from "../link-references/markdown-links.js";
import { presentSpaceWith } from "../spaces/present.js";
import { presentOrganization } from "../organizations/present.js";

/**
 * The reference shapes of links (ContentReferenceUsage) and of the places they point at or appear
 * in (ContentLocation): a page or a file location carries its organization, space and page or file
 * as the caller sees them; a URL location carries the URL.
 *
 * - A broken link's `targetReference` is a URL location holding the path it names, resolved from
 *   the space root (`guides/missing.md`, `.gitbook/assets/gone.png`): the target no longer exists
 *   as content, and the path is what to fix. A stored reference to a deleted page or file names it
 *   by id: `.gitbook/missing/page/<id>`, `.gitbook/missing/file/<id>`, as the markdown shows it.
 * - Locations have no `versionContext`: a list is computed on the content its request names (the
 *   space's current revision or the change request's head), and the reference `versionContext`
 *   would repeat the whole Revision in every location.
 * - A location's page is the page alone (`pages: []`) without its body: `markdown` is "". A
 *   location points at its page, so a list weighs what its links do, not what the pages holding
 *   them do. The body cannot be left out altogether: the reference's page is also a Document,
 *   markdown or JSON (its third, empty, variant admits no other property, so no page matches it).
 */

const pageLocationSchema = z.object({
  kind: z.literal("page"),
  organization: organizationSchema,
  space: spaceSchema,
  page: pageSchema,
});
const fileLocationSchema = z.object({
  kind: z.literal("file"),
  organization: organizationSchema,
  space: spaceSchema,
  file: fileSchema,
});
const urlLocationSchema = z.object({ kind: z.literal("url"), url: z.string() });

export const contentLocationSchema = z.discriminatedUnion("kind", [
  pageLocationSchema,
  fileLocationSchema,
  urlLocationSchema,
]);
export type ContentLocation = z.infer<typeof contentLocationSchema>;

export const linkStatusSchema = z.enum(["ok", "broken", "in-app"]);

export const linkUsageSchema = z.object({
  status: linkStatusSchema,
  relation: z.enum(["reference", "dependsOn"]),
  targetReference: contentLocationSchema.optional(),
  locationReferences: z.array(contentLocationSchema),
});

export const linkStatsSchema = z.object({
  total: z.number(),
  broken: z.object({ total: z.number(), changeRequest: z.number().optional() }),
});

export const linksListSchema = listOf(linkUsageSchema).extend({ stats: linkStatsSchema });
export const backlinksListSchema = listOf(contentLocationSchema);

const NO_BODY = { markdown: "" };

/** Presents locations in one content view; shared objects are built once per request. */
export interface LocationPresenter {
  presentPageLocation(id: string): ContentLocation;
  presentFileLocation(id: string): ContentLocation;
  presentLinkUsage(item: LinkItem): z.infer<typeof linkUsageSchema>;
}

/** What the presenter reads: an operation's scope under `onContent` (content/access.ts). */
export type ContentReadScope = Context & ContentScope & { readonly tx: ReadTransaction };

/** A presenter of locations in the scope's content. */
export async function locationPresenter(scope: ContentReadScope): Promise<LocationPresenter> {
  const content = await scope.content.full();
  const organization: Organization = await presentOrganization(scope.tx, scope, scope.membership);
  const space: Space = presentSpaceWith(scope, scope.space, scope.permissions);
  const tree = pageTree(content);
  // No body is rendered, so no page's links are: a rendering for none.
  const links = await renderingFor(scope, scope.content, []);
  const presentedPages = new Map<string, Page>();
  const files = new Map<string, File>();

  const presentPageLocation = (id: string): ContentLocation => {
    let presented = presentedPages.get(id);
    if (!presented) {
      const node = tree.byId.get(id);
      if (!node) throw new Error(`Page ${id} is not in revision ${content.record.id}`);
      presented = presentPage(scope, scope.space, node, { children: false, links, body: () => NO_BODY });
      presentedPages.set(id, presented);
    }
    return { kind: "page", organization, space, page: presented };
  };
  const presentFileLocation = (id: string): ContentLocation => {
    let presented = files.get(id);
    if (!presented) {
      const version = content.files.get(id);
      if (!version) throw new Error(`File ${id} is not in revision ${content.record.id}`);
      presented = presentFile(scope, id, version);
      files.set(id, presented);
    }
    return { kind: "file", organization, space, file: presented };
  };
  const target = (item: LinkItem): ContentLocation => {
    switch (item.target.kind) {
      case "page":
        return presentPageLocation(item.target.page);
      case "file":
        return presentFileLocation(item.target.file);
      case "url":
        return { kind: "url", url: item.target.url };
      case "missing":
        return { kind: "url", url: item.target.path };
    }
  };
  return {
    presentPageLocation,
    presentFileLocation,
    presentLinkUsage: (item) => ({
      status: item.status,
      relation: item.relation,
      targetReference: target(item),
      locationReferences: item.sources.map(presentPageLocation),
    }),
  };
}
