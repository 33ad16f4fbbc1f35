import { generateKeyBetween } from "fractional-indexing";
import { same } from "../content-tree/merge.js";
import type { ContentChanges, Revision } from "../content-tree/revisions.js";
import type { FileVersionRecord, PageVersionRecord } from "../content-tree/tables.js";
import { slugify } from "../content-tree/tree.js";
import { fileVersionOf, optionalPageFields } from "../content/versions.js";
import { resolverFor } from "../link-references/lookup.js";
import { storeWrittenMarkdown } from "../link-references/markdown-links.js";
import { badRequest, conflict } from "../shared/errors.js";
import type { World } from "../shared/world.js";
import type { WriteTransaction } from "../storage/port.js";
import type { PagePush, PushBody } from "./push-schemas.js";

/**
 * The content changes of a push (pushes.ts) on top of `content`: each entry is the whole new
 * state of a page or file, so applying a push to content that already holds it changes nothing.
 *
 * A deleted page takes its descendants along, except those whose own entry keeps them (moved
 * elsewhere, with their own descendants). A page keeps its place when its parent is unchanged;
 * a new or moved page goes last under its parent, in the order of the entries. The result must
 * be a tree: every parent present (400), no cycle (400), no slug twice among siblings (409).
 */

type PageState = Exclude<PagePush, { deleted: true }>;

/** The changes of the body's entries over `content`; throws on a result that is not a tree. */
export async function pushChanges(
  tx: WriteTransaction,
  world: Pick<World, "ids" | "clock">,
  content: Revision,
  body: PushBody,
): Promise<ContentChanges> {
  return {
    pages: await pageChanges(world, content, body.pages ?? []),
    files: await fileChanges(tx, world, content, body.files ?? []),
  };
}

async function pageChanges(
  world: Pick<World, "ids" | "clock">,
  content: Revision,
  entries: readonly PagePush[],
): Promise<Map<string, PageVersionRecord | null>> {
  const states = new Map<string, { state: PageState; index: number }>();
  entries.forEach((entry, index) => {
    if (entry.deleted !== true) states.set(entry.id, { state: entry, index });
  });

  // The pages of `content` that go: each deleted page's subtree, but for the branches kept.
  const removed = new Set<string>();
  const remove = async (id: string): Promise<void> => {
    if (states.has(id)) return;
    removed.add(id);
    for (const child of await content.children(id)) await remove(child.page);
  };
  for (const entry of entries)
    if (entry.deleted === true && (await content.hasPage(entry.id))) await remove(entry.id);

  const exists = async (id: string) => states.has(id) || (!removed.has(id) && (await content.hasPage(id)));
  const parentOf = async (id: string) => {
    const entry = states.get(id);
    return entry ? (entry.state.parent ?? "") : ((await content.page(id))?.parent ?? "");
  };

  const changes = new Map<string, PageVersionRecord | null>([...removed].map((id) => [id, null]));
  const taken = new Map<string, string>();
  const lastPosition = new Map<string, string | null>();
  const now = world.clock().toISOString();
  for (const [id, { state, index }] of states) {
    const field = `body.pages.${index}`;
    const parent = state.parent ?? "";
    if (parent && !(await exists(parent))) {
      throw badRequest(`${field}.parent: no page "${parent}" in the content this push makes`);
    }
    const seen = new Set<string>();
    for (let above = parent; above && !seen.has(above); above = await parentOf(above)) {
      if (above === id) throw badRequest(`${field}.parent: a page cannot be under itself or its descendants`);
      seen.add(above);
    }
    const current = await content.page(id);
    const slug = state.slug ?? current?.slug ?? slugify(state.title);
    const key = `${parent}\u0000${slug}`;
    // A page of `content` leaves its slug when it goes or when its own entry states its place.
    const holder = taken.get(key) ?? (await content.childBySlug(parent, slug));
    if (
      holder !== undefined &&
      holder !== id &&
      (taken.has(key) || !(removed.has(holder) || states.has(holder)))
    ) {
      throw conflict(`${field}.slug: "${slug}" is already used by a sibling page`);
    }
    taken.set(key, id);

    let position = current?.position;
    if (!current || current.parent !== parent) {
      if (!lastPosition.has(parent))
        lastPosition.set(parent, (await content.lastChild(parent))?.position ?? null);
      position = generateKeyBetween(lastPosition.get(parent) ?? null, null);
      lastPosition.set(parent, position);
    }
    // Links are stored as references by id (link-references/references.ts), resolved in `content`.
    const place = { parent, slug, ...(current ? { page: id } : {}) };
    const next: PageVersionRecord = {
      ...current,
      id: world.ids(),
      page: id,
      parent,
      position: position!,
      type: "document",
      title: state.title,
      slug,
      markdown: await storeWrittenMarkdown(resolverFor(content), state.markdown, place),
      hidden: state.hidden ?? false,
      createdAt: current?.createdAt ?? now,
      updatedAt: now,
    };
    delete next.emoji;
    delete next.description;
    delete next.variables;
    Object.assign(next, optionalPageFields(state));
    if (!current || !same({ ...next, id: current.id, updatedAt: current.updatedAt }, current)) {
      changes.set(id, next);
    }
  }
  return changes;
}

async function fileChanges(
  tx: WriteTransaction,
  world: Pick<World, "ids" | "clock">,
  content: Revision,
  entries: NonNullable<PushBody["files"]>,
): Promise<Map<string, FileVersionRecord | null>> {
  const changes = new Map<string, FileVersionRecord | null>();
  for (const entry of entries) {
    const current = await content.file(entry.id);
    if (entry.deleted === true) {
      if (current) changes.set(entry.id, null);
      continue;
    }
    const next = await fileVersionOf(tx, world, entry, entry.id);
    const unchanged =
      current?.blob === next.blob && current.name === next.name && current.contentType === next.contentType;
    if (!unchanged) changes.set(entry.id, next);
  }
  return changes;
}
