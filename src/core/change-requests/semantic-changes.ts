import * as z from "zod";
import { DEFAULT_LAYOUT, downloadUrl } from "../content/present.js";
import { diffRevisions, type Revision } from "../content-tree/revisions.js";
import type {
  FileVersionRecord,
  PageVersionRecord,
  ReusableContentVersionRecord,
} from "../content-tree/tables.js";
import type { World } from "../shared/world.js";

/**
 * What one revision changes against another, as the reference's `RevisionSemanticChange` list:
 * pages created, edited (with the attributes that differ), deleted and moved; files created,
 * edited and deleted; and reusable contents created, edited (`title`, `document`) and deleted.
 *
 * It reads what differs only: the two revisions' trees are compared subtree by subtree
 * (`diffRevisions`, content-tree/revisions.ts), the versions of the changed pages, files and
 * reusable contents are loaded, and each changed page's ancestors for its path and place in the
 * order. A change request that edited 3 pages of a space of 10,000 reads about 3 pages' worth.
 *
 * Order (stable): pages first, in reading order (the order of the table of contents: a deleted
 * page where it stood in `from`, any other where it stands in `to`), a page's move before its
 * edit; then files by name, then id (the order of `listFiles`); then reusable contents by title,
 * then id (the order of a revision's `reusableContents`), a deleted one by the title it had.
 *
 * `document` names a version of a page or of a reusable content (an opaque id); a reusable
 * content's version id is also the id of its document (`getDocumentById`).
 */

const changedPage = z.object({
  id: z.string(),
  type: z.literal("document"),
  title: z.string(),
  path: z.string().optional(),
});
type ChangedPage = z.infer<typeof changedPage>;

const changedFile = z.object({
  id: z.string(),
  name: z.string(),
  contentType: z.string(),
  downloadURL: z.string(),
});

/** The reference `ChangedRevisionReusableContent`. */
const changedReusableContent = z.object({
  id: z.string(),
  title: z.string(),
  document: z.string().optional(),
});

/** `ChangeAttribute*`: the value before and after, each absent where the attribute is unset. */
const attribute = <T extends z.ZodType>(value: T) =>
  z.object({ before: value.optional(), after: value.optional() });

const dimensions = z.object({ width: z.number(), height: z.number() });

export const semanticChangeSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("page_created"), page: changedPage }),
  z.object({
    type: z.literal("page_edited"),
    page: changedPage,
    // `RevisionPageDocumentChangeAttributes`: pages here are documents.
    attributes: z.object({
      title: attribute(z.string()).optional(),
      description: attribute(z.string()).optional(),
      slug: attribute(z.string()).optional(),
      document: attribute(z.string()).optional(),
      emoji: attribute(z.string()).optional(),
      cover: attribute(z.record(z.string(), z.unknown())).optional(),
      layout: attribute(z.record(z.string(), z.unknown())).optional(),
      variables: attribute(z.record(z.string(), z.string())).optional(),
    }),
  }),
  z.object({ type: z.literal("page_deleted"), page: changedPage }),
  z.object({
    type: z.literal("page_moved"),
    page: changedPage,
    parent: z.object({ before: changedPage.optional(), after: changedPage.optional() }),
  }),
  z.object({ type: z.literal("file_created"), file: changedFile }),
  z.object({
    type: z.literal("file_edited"),
    file: changedFile,
    attributes: z.object({
      name: attribute(z.string()).optional(),
      downloadURL: attribute(z.string()).optional(),
      size: attribute(z.number()).optional(),
      contentType: attribute(z.string()).optional(),
      dimensions: attribute(dimensions).optional(),
    }),
  }),
  z.object({ type: z.literal("file_deleted"), file: changedFile }),
  z.object({ type: z.literal("reusable_content_created"), reusableContent: changedReusableContent }),
  z.object({
    type: z.literal("reusable_content_edited"),
    reusableContent: changedReusableContent,
    // `RevisionReusableContentChangeAttributes`.
    attributes: z.object({
      title: attribute(z.string()).optional(),
      document: attribute(z.string()).optional(),
    }),
  }),
  z.object({ type: z.literal("reusable_content_deleted"), reusableContent: changedReusableContent }),
]);
export type SemanticChange = z.infer<typeof semanticChangeSchema>;
type PageEditedAttributes = Extract<SemanticChange, { type: "page_edited" }>["attributes"];
type FileEditedAttributes = Extract<SemanticChange, { type: "file_edited" }>["attributes"];
type ReusableContentEditedAttributes = Extract<
  SemanticChange,
  { type: "reusable_content_edited" }
>["attributes"];

/**
 * Where a change sorts: its page's place in the tree (or its file's name, or its reusable
 * content's title), then its kind.
 */
interface Sorted {
  readonly change: SemanticChange;
  readonly key: readonly string[];
  readonly rank: number;
}

/**
 * The semantic changes from revision `from` to revision `to`, in the order described above; with
 * `from` null (a space's first revision), everything in `to` is created.
 */
export async function semanticChanges(
  world: World,
  from: Revision | null,
  to: Revision,
): Promise<SemanticChange[]> {
  const diff = await diffRevisions(from, to);
  const pages = await Promise.all(
    // A page with a version before the change is in `from`, so `from` is set wherever it is read.
    [...diff.pages].map(([id, { before, after }]) => pageChanges(from!, to, id, before, after)),
  );
  const files = [...diff.files].flatMap(([id, { before, after }]) => fileChanges(world, id, before, after));
  const reusable = [...diff.reusableContents].flatMap(([id, { before, after }]) =>
    reusableContentChanges(id, before, after),
  );
  return [...pages.flat().sort(byKey), ...files.sort(byKey), ...reusable.sort(byKey)].map(
    (sorted) => sorted.change,
  );
}

/**
 * The changes of one page, keyed by the page's place (see {@link placeOf}) and ranked by kind:
 * deleted, created, moved, edited.
 */
async function pageChanges(
  from: Revision,
  to: Revision,
  id: string,
  before: PageVersionRecord | undefined,
  after: PageVersionRecord | undefined,
): Promise<Sorted[]> {
  if (!after) {
    const place = await placeOf(from, id);
    return [{ change: { type: "page_deleted", page: await describe(from, before!) }, key: place, rank: 0 }];
  }
  const [place, page] = await Promise.all([placeOf(to, id), describe(to, after)]);
  if (!before) return [{ change: { type: "page_created", page }, key: place, rank: 1 }];
  const changes: Sorted[] = [];
  if (before.parent !== after.parent || before.position !== after.position) {
    const [was, is] = await Promise.all([parentOf(from, before), parentOf(to, after)]);
    const parent = { ...(was ? { before: was } : {}), ...(is ? { after: is } : {}) };
    changes.push({ change: { type: "page_moved", page, parent }, key: place, rank: 2 });
  }
  const attributes = pageAttributes(before, after);
  if (Object.keys(attributes).length > 0) {
    changes.push({ change: { type: "page_edited", page, attributes }, key: place, rank: 3 });
  }
  return changes;
}

/**
 * The attributes of the reference that differ between two versions of a page. `document` names
 * the two page versions (opaque ids) when the body changed. Flags the reference has no attribute
 * for (`hidden`, `noIndex`) are not reported.
 */
function pageAttributes(before: PageVersionRecord, after: PageVersionRecord): PageEditedAttributes {
  const attributes: PageEditedAttributes = {};
  for (const key of ["title", "description", "slug", "emoji"] as const) {
    if (before[key] !== after[key]) attributes[key] = change(before[key], after[key]);
  }
  if (before.markdown !== after.markdown) attributes.document = { before: before.id, after: after.id };
  const layout = (version: PageVersionRecord) => ({ ...DEFAULT_LAYOUT, ...version.layout });
  if (differ(layout(before), layout(after))) attributes.layout = change(layout(before), layout(after));
  if (differ(before.cover, after.cover)) attributes.cover = change(before.cover, after.cover);
  if (differ(before.variables ?? {}, after.variables ?? {})) {
    attributes.variables = change(before.variables, after.variables);
  }
  return attributes;
}

function fileChanges(
  world: World,
  id: string,
  before: FileVersionRecord | undefined,
  after: FileVersionRecord | undefined,
): Sorted[] {
  const version = (after ?? before)!;
  const key = [version.name, id];
  const file = {
    id,
    name: version.name,
    contentType: version.contentType,
    downloadURL: downloadUrl(world, version),
  };
  if (!before) return [{ change: { type: "file_created", file }, key, rank: 0 }];
  if (!after) return [{ change: { type: "file_deleted", file }, key, rank: 0 }];
  const attributes: FileEditedAttributes = {};
  for (const field of ["name", "size", "contentType"] as const) {
    if (before[field] !== after[field])
      Object.assign(attributes, { [field]: change(before[field], after[field]) });
  }
  // A new version is served at a new URL even when its bytes are the same.
  if (before.blob !== after.blob) {
    attributes.downloadURL = change(downloadUrl(world, before), downloadUrl(world, after));
  }
  if (differ(before.dimensions, after.dimensions)) {
    attributes.dimensions = change(before.dimensions, after.dimensions);
  }
  if (Object.keys(attributes).length === 0) return [];
  return [{ change: { type: "file_edited", file, attributes }, key, rank: 0 }];
}

/**
 * The change of one reusable content, keyed by its title (the one it had, when deleted) and id.
 * `document` changes with the markdown: a new version with the same title and markdown is no change.
 */
function reusableContentChanges(
  id: string,
  before: ReusableContentVersionRecord | undefined,
  after: ReusableContentVersionRecord | undefined,
): Sorted[] {
  const version = (after ?? before)!;
  const key = [version.title, id];
  const reusableContent = { id, title: version.title, document: version.id };
  if (!before) return [{ change: { type: "reusable_content_created", reusableContent }, key, rank: 0 }];
  if (!after) return [{ change: { type: "reusable_content_deleted", reusableContent }, key, rank: 0 }];
  const attributes: ReusableContentEditedAttributes = {};
  if (before.title !== after.title) attributes.title = change(before.title, after.title);
  if (before.markdown !== after.markdown) attributes.document = change(before.id, after.id);
  if (Object.keys(attributes).length === 0) return [];
  return [{ change: { type: "reusable_content_edited", reusableContent, attributes }, key, rank: 0 }];
}

/** `{before, after}` without the sides that are unset. */
const change = <T>(before: T | undefined, after: T | undefined) => ({
  ...(before !== undefined ? { before } : {}),
  ...(after !== undefined ? { after } : {}),
});

const differ = (a: unknown, b: unknown) => JSON.stringify(a) !== JSON.stringify(b);

/** The reference `ChangedRevisionPage` of a version, with its path in `revision`. */
async function describe(revision: Revision, version: PageVersionRecord): Promise<ChangedPage> {
  const path = await revision.path(version.page);
  return { id: version.page, type: "document", title: version.title, ...(path ? { path } : {}) };
}

async function parentOf(revision: Revision, version: PageVersionRecord): Promise<ChangedPage | undefined> {
  const parent = version.parent ? await revision.page(version.parent) : undefined;
  return parent ? describe(revision, parent) : undefined;
}

/**
 * A page's place in reading order: the position and id of each page from the root down to it, so
 * that comparing places element by element orders pages as the table of contents does.
 */
async function placeOf(revision: Revision, id: string): Promise<string[]> {
  const lineage = (await revision.lineage(id)) ?? [];
  return lineage.flatMap((version) => [version.position, version.page]);
}

function byKey(a: Sorted, b: Sorted): number {
  for (let i = 0; i < Math.min(a.key.length, b.key.length); i++) {
    if (a.key[i] !== b.key[i]) return a.key[i]! < b.key[i]! ? -1 : 1;
  }
  // An ancestor (a prefix) comes before what is below it; one page's changes by rank.
  return a.key.length - b.key.length || a.rank - b.rank;
}
