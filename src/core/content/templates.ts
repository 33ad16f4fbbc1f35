import { generateNKeysBetween } from "fractional-indexing";
import * as z from "zod";
import { defineOperation, Reply } from "../registry.js";
import { badRequest, DocsbaseError } from "../shared/errors.js";
import { boundedId, pathParam } from "../shared/schema.js";
import type { Context, World } from "../shared/world.js";
import { onSpace } from "../spaces/access.js";
import { findSpace } from "../spaces/permissions.js";
import type { ReadTransaction } from "../storage/port.js";
import type { FileVersionRecord, PageVersionRecord } from "../content-tree/tables.js";
import { orderedFiles } from "./present.js";
import {
  requireRevision,
  type ContentChanges,
  type FullContent,
  type Revision,
} from "../content-tree/revisions.js";
import {
  changeRequestContent,
  commitDraft,
  findChangeRequest,
  requireOpenChangeRequest,
  spaceContent,
} from "./target.js";
import { pageTree, siblingsOf } from "../content-tree/tree.js";
import { remapPageReferences } from "../link-references/markdown-links.js";

/**
 * Templates (`POST /spaces/{spaceId}/content/template`, and the `template` of a new
 * change request). A template is a space: its id is the space's id, and applying it copies the
 * template's current pages and files into the target content.
 *
 * - Pages get new ids and go after the target's root pages, in the template's order, with slugs
 *   made unique among their new siblings; child pages keep their slugs and order, under the copies
 *   of their parents.
 * - Files keep their ids and share their immutable versions (and bytes) with the template. A file
 *   the target already holds under the same id stays as it is.
 * - Links between template pages are references by id (link-references/references.ts): they are renamed to
 *   the copies' ids, so they link the copies, wherever those land.
 * - `params.contentRefs` maps a template file name to a file of the target space (`{kind: "file",
 *   file, space?}`): that template file is not copied, and page text naming it (its id or its
 *   download path) is rewritten to name the referenced file.
 * - The caller needs read access to the template space. A template that is unknown or unreadable,
 *   a name that is not a template file and a reference to a file the target does not hold each
 *   answer 400 naming the field (the request is well formed but names nothing usable; 404 stays
 *   for the target space itself).
 */

const contentRefFile = z.object({
  kind: z.literal("file", { error: 'only file references ({kind: "file", file}) are supported' }),
  file: boundedId(),
  space: boundedId().optional(),
});

export const templateParams = z.object({
  contentRefs: z
    .record(z.string().min(1).max(255), contentRefFile)
    .refine((refs) => Object.keys(refs).length <= 1000, { error: "Too big: expected at most 1000 entries" })
    .optional(),
});

/** A template reference as in `createChangeRequest`'s `template`. */
export const templateReference = z.object({ id: boundedId(), params: templateParams.optional() });
export type TemplateReference = z.infer<typeof templateReference>;

interface Replacement {
  readonly file: string;
  readonly version: FileVersionRecord;
}

/**
 * The changes that copy template `reference` into `target` (content of space `spaceId`). `field`
 * is the body path of the reference, for messages (`body` or `body.template`).
 */
export async function templateChanges(
  tx: ReadTransaction,
  context: Context,
  reference: TemplateReference,
  target: { spaceId: string; content: Revision },
  field: string,
): Promise<ContentChanges> {
  const access = await findSpace(tx, context, reference.id).catch((error: unknown) => {
    if (error instanceof DocsbaseError && error.code === "not_found") return undefined;
    throw error;
  });
  if (!access) throw badRequest(`${field}.id: no template space "${reference.id}" that you can read`);
  const template = await (await requireRevision(tx, context, access.space.revision)).full();
  const into = await target.content.full();
  const replacements = new Map<string, Replacement>();
  for (const [name, ref] of Object.entries(reference.params?.contentRefs ?? {})) {
    const where = `${field}.params.contentRefs.${name}`;
    const source = orderedFiles(template).find(([, version]) => version.name === name);
    if (!source) throw badRequest(`${where}: the template has no file named "${name}"`);
    if (ref.space && ref.space !== target.spaceId) {
      throw badRequest(`${where}.space: must be the target space "${target.spaceId}"`);
    }
    const version = into.files.get(ref.file);
    if (!version) throw badRequest(`${where}.file: no file "${ref.file}" in the target content`);
    replacements.set(source[0], { file: ref.file, version });
  }
  return copyTemplate(template, into, context, replacements);
}

/**
 * Copies the pages and files of `template` into `target`; `replacements` maps template file ids to
 * files of the target that stand in for them.
 */
export function copyTemplate(
  template: FullContent,
  target: FullContent,
  world: Pick<World, "ids" | "clock">,
  replacements: ReadonlyMap<string, Replacement> = new Map(),
): Required<Pick<ContentChanges, "pages" | "files">> {
  const now = world.clock().toISOString();
  const tree = pageTree(template);
  const ids = new Map(tree.ordered.map((node) => [node.version.page, world.ids()]));
  const rootSiblings = siblingsOf(target, "");
  const positions = generateNKeysBetween(rootSiblings.at(-1)?.position ?? null, null, tree.roots.length);
  const takenSlugs = new Set(rootSiblings.map((sibling) => sibling.slug));
  const rewrite = textRewriter(template, replacements);

  const pages = new Map<string, PageVersionRecord | null>();
  for (const node of tree.ordered) {
    const source = node.version;
    const atRoot = node.depth === 0;
    const page = ids.get(source.page)!;
    const version: PageVersionRecord = {
      ...source,
      id: world.ids(),
      page,
      parent: atRoot ? "" : ids.get(source.parent)!,
      position: atRoot ? positions[tree.roots.indexOf(node)]! : source.position,
      slug: atRoot ? uniqueSlug(takenSlugs, source.slug) : source.slug,
      // References to the template's pages follow them to their copies (link-references/references.ts).
      markdown: remapPageReferences(rewrite(source.markdown), ids),
      createdAt: now,
      updatedAt: now,
    };
    if (atRoot) takenSlugs.add(version.slug);
    pages.set(page, version);
  }
  const files = new Map<string, FileVersionRecord | null>();
  for (const [id, version] of template.files) {
    if (!replacements.has(id) && !target.files.has(id)) files.set(id, version);
  }
  return { pages, files };
}

function uniqueSlug(taken: ReadonlySet<string>, base: string): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** Rewrites mentions of replaced template files (their id, their download path) in page text. */
function textRewriter(template: FullContent, replacements: ReadonlyMap<string, Replacement>) {
  const pairs: [string, string][] = [];
  const path = (version: FileVersionRecord) => `/files/${version.id}/${encodeURIComponent(version.name)}`;
  for (const [id, replacement] of replacements) {
    const source = template.files.get(id)!;
    pairs.push([path(source), path(replacement.version)], [id, replacement.file]);
  }
  return (text: string) => pairs.reduce((result, [from, to]) => result.split(from).join(to), text);
}

export const applyTemplateToSpace = defineOperation({
  id: "applyTemplateToSpace",
  method: "post",
  path: "/spaces/{spaceId}/content/template",
  tag: "content",
  summary:
    "Copy a template space's pages and files into a space's live content, or into a change request's " +
    "content with changeRequestId",
  access: onSpace("edit"),
  params: z.object({ spaceId: pathParam() }),
  body: templateReference.extend({ changeRequestId: boundedId().optional() }),
  emptyStatuses: [201],
  async run(scope, { body }) {
    const { tx, space } = scope;
    const changeRequest = body.changeRequestId
      ? await findChangeRequest(tx, space.id, body.changeRequestId)
      : undefined;
    if (body.changeRequestId && !changeRequest) {
      throw badRequest(`body.changeRequestId: no change request "${body.changeRequestId}" in this space`);
    }
    if (changeRequest) requireOpenChangeRequest(changeRequest);
    const content = changeRequest
      ? await changeRequestContent(tx, scope, changeRequest)
      : await spaceContent(tx, scope, space);
    const changes = await templateChanges(tx, scope, body, { spaceId: space.id, content }, "body");
    await commitDraft({ ...scope, content, changeRequest }, changes);
    const where = changeRequest
      ? `/spaces/${space.id}/change-requests/${changeRequest.id}/content`
      : `/spaces/${space.id}/content`;
    return new Reply<never>(201, undefined, { location: `${scope.baseUrl}/v1${where}` });
  },
});

export const templateOperations = { applyTemplateToSpace };
