import * as z from "zod";
import type { LinkRendering } from "../link-references/markdown-links.js";
import type { World } from "../shared/world.js";
import { downloadBase } from "./download.js";
import type {
  FileVersionRecord,
  PageVersionRecord,
  ReusableContentVersionRecord,
} from "../content-tree/tables.js";
import type { SpaceRecord } from "../spaces/tables.js";
import type { FullContent } from "../content-tree/revisions.js";
import { pageTree, type TreeNode } from "../content-tree/tree.js";

/**
 * The reference shapes of content (Revision, RevisionPageDocument, RevisionFile), built from
 * revisions. Page bodies appear as `markdown`, or as the JSON `document` when asked.
 */

/** The layout of a page that sets none of its own (the reference `RevisionPageLayoutOptions`). */
export const DEFAULT_LAYOUT = {
  width: "default",
  cover: true,
  coverSize: "hero",
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
} as const;

export const fileSchema = z.object({
  id: z.string(),
  name: z.string(),
  contentType: z.string(),
  downloadURL: z.string(),
  size: z.number(),
  dimensions: z.object({ width: z.number(), height: z.number() }).optional(),
});
export type File = z.infer<typeof fileSchema>;

export interface Page {
  id: string;
  title: string;
  kind: "sheet";
  type: "document";
  urls: { app: string };
  slug: string;
  path: string;
  pages: Page[];
  layout: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  emoji?: string;
  description?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  cover?: Record<string, unknown>;
  variables?: Record<string, string>;
  markdown?: string;
  document?: Record<string, unknown>;
}

export const pageSchema: z.ZodType<Page> = z.lazy(() =>
  z.object({
    id: z.string(),
    title: z.string(),
    kind: z.literal("sheet"),
    type: z.literal("document"),
    urls: z.object({ app: z.string() }),
    slug: z.string(),
    path: z.string(),
    pages: z.array(pageSchema),
    layout: z.record(z.string(), z.unknown()),
    createdAt: z.string(),
    updatedAt: z.string(),
    emoji: z.string().optional(),
    description: z.string().optional(),
    hidden: z.boolean().optional(),
    noIndex: z.boolean().optional(),
    noRobotsIndex: z.boolean().optional(),
    cover: z.record(z.string(), z.unknown()).optional(),
    variables: z.record(z.string(), z.string()).optional(),
    markdown: z.string().optional(),
    document: z.record(z.string(), z.unknown()).optional(),
  }),
);

/**
 * The reference `RevisionReusableContent`: `document` is the id of its current version's document
 * (`getDocumentById`).
 */
export const reusableContentSchema = z.object({
  id: z.string(),
  title: z.string(),
  document: z.string().optional(),
});
export type ReusableContent = z.infer<typeof reusableContentSchema>;

export const presentReusableContent = (version: ReusableContentVersionRecord): ReusableContent => ({
  id: version.reusableContent,
  title: version.title,
  document: version.id,
});

/** Reusable contents of a revision ordered by title then id. */
export function orderedReusableContents(
  versions: ReadonlyMap<string, ReusableContentVersionRecord>,
): ReusableContentVersionRecord[] {
  return [...versions.values()].sort((a, b) =>
    a.title !== b.title ? (a.title < b.title ? -1 : 1) : a.reusableContent < b.reusableContent ? -1 : 1,
  );
}

export const revisionSchema = z.object({
  object: z.literal("revision"),
  id: z.string(),
  type: z.enum(["edits", "merge", "update"]),
  parents: z.array(z.string()),
  pages: z.array(pageSchema),
  files: z.array(fileSchema),
  reusableContents: z.array(reusableContentSchema),
  variables: z.record(z.string(), z.string()),
  createdAt: z.string(),
  urls: z.object({ app: z.string() }),
});

export interface PageOptions {
  /** Include child pages (the tree) or not (a single page read lists none). */
  readonly children: boolean;
  /** Turns the stored markdown into the body to return (document conversion, evaluation). */
  readonly body?: (node: TreeNode) => { markdown: string } | { document: Record<string, unknown> };
  /**
   * Renders the stored links of the markdown (references by id) as current paths; prepared for
   * every page presented (link-references/markdown-links.ts).
   */
  readonly links: LinkRendering;
}

export function presentPage(world: World, space: SpaceRecord, node: TreeNode, options: PageOptions): Page {
  const { version } = node;
  return {
    id: version.page,
    title: version.title,
    kind: "sheet",
    type: "document",
    urls: { app: `${world.appUrl}/s/${space.id}/${node.path}` },
    slug: version.slug,
    path: node.path,
    pages: options.children ? node.children.map((child) => presentPage(world, space, child, options)) : [],
    layout: { ...DEFAULT_LAYOUT, ...version.layout },
    createdAt: version.createdAt,
    updatedAt: version.updatedAt,
    ...(version.emoji ? { emoji: version.emoji } : {}),
    ...(version.description ? { description: version.description } : {}),
    ...(version.hidden ? { hidden: true } : {}),
    ...(version.noIndex ? { noIndex: true } : {}),
    ...(version.noRobotsIndex ? { noRobotsIndex: true } : {}),
    ...(version.cover ? { cover: version.cover } : {}),
    ...(version.variables ? { variables: version.variables } : {}),
    // The reference page is a Document: markdown, a JSON document, or nothing at all.
    ...(options.body ? options.body(node) : { markdown: options.links.markdown(version) }),
  };
}

/** File bytes are served at a capability URL: the version id is random and never reused. */
export function downloadUrl(world: World, version: FileVersionRecord): string {
  return `${downloadBase(world)}/v1/files/${version.id}/${encodeURIComponent(version.name)}`;
}

export function presentFile(world: World, fileId: string, version: FileVersionRecord): File {
  return {
    id: fileId,
    name: version.name,
    contentType: version.contentType,
    downloadURL: downloadUrl(world, version),
    size: version.size,
    ...(version.dimensions ? { dimensions: version.dimensions } : {}),
  };
}

/** The page versions of a node and its descendants: what presenting it with children shows. */
export function subtreeVersions(node: TreeNode): PageVersionRecord[] {
  return [node.version, ...node.children.flatMap(subtreeVersions)];
}

/** Files of a revision ordered by name then id, the order of `listFiles`. */
export function orderedFiles(content: Pick<FullContent, "files">): [string, FileVersionRecord][] {
  return [...content.files].sort(([idA, a], [idB, b]) =>
    a.name !== b.name ? (a.name < b.name ? -1 : 1) : idA < idB ? -1 : 1,
  );
}

/**
 * A revision as the reference's `Revision`. A `merge` is one with `mergedFrom`, the change request
 * it merged, as the reference requires; a merge revision shown without one (to a lookup's reader
 * token, which reads no change request, or a replica's local rebase, which merged none) is shown
 * as the `edits` it is to that reader.
 */
export function presentRevision<M extends object = never>(
  world: World,
  space: SpaceRecord,
  content: FullContent,
  links: LinkRendering,
  mergedFrom?: M,
) {
  const tree = pageTree(content);
  const { type } = content.record;
  return {
    object: "revision" as const,
    id: content.record.id,
    ...(mergedFrom ? { type: "merge" as const, mergedFrom } : { type: type === "merge" ? "edits" : type }),
    parents: content.record.parents,
    pages: tree.roots.map((node) => presentPage(world, space, node, { children: true, links })),
    files: orderedFiles(content).map(([id, version]) => presentFile(world, id, version)),
    reusableContents: orderedReusableContents(content.reusableContents).map(presentReusableContent),
    variables: {},
    createdAt: content.record.createdAt,
    urls: { app: `${world.appUrl}/s/${space.id}/~/revisions/${content.record.id}` },
  };
}
