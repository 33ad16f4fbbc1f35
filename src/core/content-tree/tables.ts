import * as z from "zod";
import { defineTable } from "../storage/table.js";

export const contentMap = z.object({
  pages: z.record(z.string(), z.string()),
  files: z.record(z.string(), z.string()),
});
export type ContentMap = z.infer<typeof contentMap>;

export const contentDelta = z.object({
  pages: z.record(z.string(), z.string().nullable()),
  files: z.record(z.string(), z.string().nullable()),
});
export type ContentDelta = z.infer<typeof contentDelta>;

/**
 * The root hashes of a revision's content trees (content-tree/revisions.ts; "" is an empty map).
 * `slugs` is absent from revisions written before issue 29; the first commit on one builds it.
 */
export const revisionTree = z.object({
  pages: z.string(),
  files: z.string(),
  children: z.string(),
  slugs: z.string().optional(),
  /** Reusable content id → reusable content version id; absent (empty) before issue 23. */
  reusableContents: z.string().optional(),
});
export type RevisionTree = z.infer<typeof revisionTree>;

/**
 * An immutable revision of a space's content: its content trees (`tree`, see content-tree/revisions.ts),
 * whose unchanged nodes and versions it shares with every other revision.
 *
 * Before issue 8 a revision stored its whole map (`snapshot`) or what changed since `base`
 * (`delta`, with `depth` counting deltas since the last snapshot). Those fields are read once, by
 * the migration that gives such a revision its `tree` when a storage opens (content-tree/migrate.ts).
 */
export const revisionRecord = z.object({
  id: z.string(),
  space: z.string(),
  /** Insertion order (see shared/sequence.ts). */
  seq: z.number(),
  parents: z.array(z.string()),
  createdAt: z.string(),
  type: z.enum(["edits", "merge", "update"]),
  /**
   * The change request a `merge` revision merged (its id); absent for other revisions, for merges
   * written before it was recorded, and for a replica's local rebases (sync/local.ts).
   */
  changeRequest: z.string().optional(),
  tree: revisionTree.optional(),
  snapshot: contentMap.optional(),
  base: z.string().optional(),
  delta: contentDelta.optional(),
  depth: z.number().optional(),
});
export type RevisionRecord = z.infer<typeof revisionRecord>;

export const revisionsTable = defineTable({
  name: "revisions",
  key: "id",
  indexes: { bySpace: ["space", "seq"] },
  record: revisionRecord,
});

/** One immutable version of a page: its content and its place in the tree. */
export const pageVersionRecord = z.object({
  /** Version id. */
  id: z.string(),
  /** Stable page id, the same across versions. Versions carry no space: duplicates share them. */
  page: z.string(),
  /** Parent page id, or "" at the root. */
  parent: z.string(),
  /** Fractional-index key among siblings. */
  position: z.string(),
  type: z.literal("document"),
  title: z.string(),
  slug: z.string(),
  emoji: z.string().optional(),
  description: z.string().optional(),
  markdown: z.string(),
  hidden: z.boolean(),
  noIndex: z.boolean().optional(),
  noRobotsIndex: z.boolean().optional(),
  layout: z.record(z.string(), z.unknown()).optional(),
  cover: z.record(z.string(), z.unknown()).optional(),
  variables: z.record(z.string(), z.string()).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PageVersionRecord = z.infer<typeof pageVersionRecord>;

export const pageVersionsTable = defineTable({
  name: "pageVersions",
  key: "id",
  indexes: {},
  record: pageVersionRecord,
});

/** One immutable version of a file. Its bytes live in `blobs`, shared by content hash. */
export const fileVersionRecord = z.object({
  id: z.string(),
  file: z.string(),
  name: z.string(),
  contentType: z.string(),
  /** SHA-256 of the bytes, hex: the key of the blob. */
  blob: z.string(),
  size: z.number(),
  dimensions: z.object({ width: z.number(), height: z.number() }).optional(),
  createdAt: z.string(),
});
export type FileVersionRecord = z.infer<typeof fileVersionRecord>;

export const fileVersionsTable = defineTable({
  name: "fileVersions",
  key: "id",
  indexes: {},
  record: fileVersionRecord,
});

/**
 * One immutable version of a reusable content: a document kept once in a space and included by
 * pages (a `reusable-content` block). Its body is markdown, as a page's is.
 */
export const reusableContentVersionRecord = z.object({
  /** Version id: also the id of its document (`getDocumentById`). */
  id: z.string(),
  /** Stable reusable content id, the same across versions. */
  reusableContent: z.string(),
  title: z.string(),
  markdown: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ReusableContentVersionRecord = z.infer<typeof reusableContentVersionRecord>;

export const reusableContentVersionsTable = defineTable({
  name: "reusableContentVersions",
  key: "id",
  indexes: {},
  record: reusableContentVersionRecord,
});

export const blobRecord = z.object({
  hash: z.string(),
  /** The bytes, base64. */
  data: z.string(),
  size: z.number(),
});
export type BlobRecord = z.infer<typeof blobRecord>;

export const blobsTable = defineTable({ name: "blobs", key: "hash", indexes: {}, record: blobRecord });
