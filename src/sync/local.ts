import { generateNKeysBetween } from "fractional-indexing";
import { type MergeConflict } from "../core/content-tree/merge.js";
import { mergeRevisions } from "../core/content-tree/merge-revisions.js";
import {
  type ContentChanges,
  Revision,
  applyChanges,
  diffRevisions,
  recordRevision,
} from "../core/content-tree/revisions.js";
import {
  type BlobRecord,
  type FileVersionRecord,
  type PageVersionRecord,
  blobsTable,
} from "../core/content-tree/tables.js";
import { linkSites } from "../core/link-references/references.js";
import { renderingFor, storeWrittenMarkdown } from "../core/link-references/markdown-links.js";
import { resolverFor } from "../core/link-references/lookup.js";
import { conflict } from "../core/shared/errors.js";
import type { World } from "../core/shared/world.js";
import type { WriteTransaction, ReadTransaction } from "../core/storage/port.js";
import type { RemotePage } from "./remote.js";

/**
 * The local half of a replica: remote content written as local revisions (with the remote's page
 * and file ids), the three-way rebase of pending work, and the pending changes as a push body.
 * Everything here runs inside one storage transaction and does no network call.
 */

/** A remote file as the pull found it: unchanged (the version already local), or new bytes. */
export type PulledFile =
  | { readonly id: string; readonly unchanged: true }
  | {
      readonly id: string;
      readonly name: string;
      readonly contentType: string;
      readonly hash: string;
      readonly data: string;
      readonly size: number;
    };

/** The page fields a push carries and a pull compares: a page's whole state but its position. */
const sameFields = (version: PageVersionRecord, page: RemotePage, parent: string) =>
  version.parent === parent &&
  version.title === page.title &&
  version.slug === page.slug &&
  (version.emoji ?? "") === (page.emoji ?? "") &&
  (version.description ?? "") === (page.description ?? "") &&
  version.hidden === (page.hidden ?? false) &&
  JSON.stringify(version.variables ?? {}) === JSON.stringify(page.variables ?? {});

/** A revision over a tree that has no record (yet): for lookups and merges inside a transaction. */
function transient(tx: ReadTransaction, world: World, like: Revision, tree: Revision["tree"]): Revision {
  return new Revision(tx, world, { ...like.record, id: `transient:${world.ids()}`, tree });
}

/**
 * Writes the remote content (`pages`: the remote page tree, each page with its markdown as the API
 * renders it; `files`: every remote file) as a new local revision on top of `base` (the previous
 * mirror, or null on a first pull). A page whose state equals its version in `base` keeps that
 * version; positions of `base` are kept where they agree with the remote order, others are new
 * keys between them. Links in markdown become references by id, as a content write stores them.
 */
export async function writeMirror(
  tx: WriteTransaction,
  world: World,
  space: string,
  base: Revision | null,
  pages: readonly RemotePage[],
  files: readonly PulledFile[],
): Promise<Revision> {
  const now = world.clock().toISOString();
  const existing = base ? await base.full() : undefined;
  const rendering = base && existing ? await renderingFor(world, base, existing.pages.values()) : undefined;
  const changes = new Map<string, PageVersionRecord | null>();
  const seen = new Set<string>();
  const place = (siblings: readonly RemotePage[], parent: string) => {
    const current = siblings.map((page) => {
      const version = existing?.pages.get(page.id);
      return version && version.parent === parent ? version.position : undefined;
    });
    // Keep the positions that still ascend in the remote order; the others get keys between them.
    const kept: (string | undefined)[] = [];
    let last: string | undefined;
    for (const position of current) {
      const keep = position !== undefined && (last === undefined || position > last);
      kept.push(keep ? position : undefined);
      if (keep) last = position;
    }
    const positions: string[] = [];
    for (let index = 0; index < siblings.length;) {
      if (kept[index] !== undefined) {
        positions.push(kept[index]!);
        index++;
        continue;
      }
      let end = index;
      while (end < siblings.length && kept[end] === undefined) end++;
      const before = positions.at(-1) ?? null;
      positions.push(...generateNKeysBetween(before, kept[end] ?? null, end - index));
      index = end;
    }
    siblings.forEach((page, index) => {
      seen.add(page.id);
      const markdown = page.markdown ?? "";
      const version = existing?.pages.get(page.id);
      const position = positions[index]!;
      const unchanged =
        version?.position === position &&
        sameFields(version, page, parent) &&
        rendering?.markdown(version) === markdown;
      if (!unchanged) {
        changes.set(page.id, {
          id: world.ids(),
          page: page.id,
          parent,
          position,
          type: "document",
          title: page.title,
          slug: page.slug,
          ...(page.emoji ? { emoji: page.emoji } : {}),
          ...(page.description ? { description: page.description } : {}),
          markdown,
          hidden: page.hidden ?? false,
          ...(page.variables && Object.keys(page.variables).length > 0 ? { variables: page.variables } : {}),
          createdAt: version?.createdAt ?? now,
          updatedAt: page.updatedAt ?? now,
        });
      }
      place(page.pages ?? [], page.id);
    });
  };
  place(pages, "");
  for (const id of existing?.pages.keys() ?? []) if (!seen.has(id)) changes.set(id, null);

  const fileChanges = new Map<string, FileVersionRecord | null>();
  const remoteFiles = new Set<string>();
  for (const file of files) {
    remoteFiles.add(file.id);
    if ("unchanged" in file) continue;
    if (!(await tx.get(blobsTable, file.hash))) {
      const blob: BlobRecord = { hash: file.hash, data: file.data, size: file.size };
      await tx.put(blobsTable, blob);
    }
    fileChanges.set(file.id, {
      id: world.ids(),
      file: file.id,
      name: file.name,
      contentType: file.contentType,
      blob: file.hash,
      size: file.size,
      createdAt: now,
    });
  }
  for (const id of existing?.files.keys() ?? []) if (!remoteFiles.has(id)) fileChanges.set(id, null);

  // Links are stored as references by id: resolved once every page has its place in the tree.
  let tree = await applyChanges(tx, world, base, { pages: changes, files: fileChanges });
  const placed = transient(tx, world, base ?? (await emptyLike(tx, world, space, tree)), tree);
  const lookup = resolverFor(placed);
  const linked = new Map<string, PageVersionRecord>();
  for (const [id, version] of changes) {
    if (!version || linkSites(version.markdown).length === 0) continue;
    const markdown = await storeWrittenMarkdown(lookup, version.markdown, { ...version, page: id });
    if (markdown !== version.markdown) linked.set(id, { ...version, id: world.ids(), markdown });
  }
  if (linked.size > 0) tree = await applyChanges(tx, world, placed, { pages: linked });
  return recordRevision(tx, world, { space, parents: base ? [base.id] : [], type: "edits", tree });
}

/** A revision-shaped stand-in for the lookups of a first pull (no earlier revision to take after). */
async function emptyLike(
  tx: ReadTransaction,
  world: World,
  space: string,
  tree: Revision["tree"],
): Promise<Revision> {
  return new Revision(tx, world, {
    id: `transient:${world.ids()}`,
    space,
    seq: 0,
    parents: [],
    createdAt: world.clock().toISOString(),
    type: "edits",
    tree,
  });
}

/**
 * `ours` (local work made on `base`) replayed on `theirs`: a three-way merge. Where both changed an
 * entry in ways that collide, the local version wins here (`collided`: it stays pending, and the
 * replica then pushes against the remote revision from before, so that the server's update of the
 * change request reports the conflict to reviewers); nothing pending is lost. A
 * collision the local side cannot take (a slug taken by a page new on both sides) is refused.
 */
export async function rebase(
  tx: WriteTransaction,
  world: World,
  base: Revision,
  ours: Revision,
  theirs: Revision,
): Promise<{ readonly revision: Revision; readonly collided: boolean }> {
  if (ours.id === base.id) return { revision: theirs, collided: false };
  if (theirs.id === base.id) return { revision: ours, collided: false };
  let merged = await mergeRevisions(tx, world, base, ours, theirs);
  const collided = "conflicts" in merged;
  if ("conflicts" in merged) {
    const changes = await oursOf(base, ours, merged.conflicts);
    const patched = transient(tx, world, theirs, await applyChanges(tx, world, theirs, changes));
    merged = await mergeRevisions(tx, world, base, ours, patched);
    if ("conflicts" in merged) {
      const ids = merged.conflicts.map((entry) => Object.values(entry)[0]).join(", ");
      throw conflict(`The local changes cannot be rebased on the remote revision (conflicts: ${ids})`);
    }
  }
  const revision = await recordRevision(tx, world, {
    space: ours.record.space,
    parents: [ours.id, theirs.id],
    type: "merge",
    tree: merged.tree,
  });
  return { revision, collided };
}

/** Ours' versions of the conflicting entries (a deletion where ours deleted what base had). */
async function oursOf(base: Revision, ours: Revision, conflicts: readonly MergeConflict[]) {
  const pages = new Map<string, PageVersionRecord | null>();
  const files = new Map<string, FileVersionRecord | null>();
  const stored = new Set<string>();
  for (const entry of conflicts) {
    if ("page" in entry) {
      const version = (await ours.page(entry.page)) ?? ((await base.hasPage(entry.page)) ? null : undefined);
      if (version !== undefined) pages.set(entry.page, version);
      if (version) stored.add(version.id);
    } else if ("file" in entry) {
      const version = (await ours.file(entry.file)) ?? ((await base.file(entry.file)) ? null : undefined);
      if (version !== undefined) files.set(entry.file, version);
      if (version) stored.add(version.id);
    }
  }
  return { pages, files, stored } satisfies ContentChanges;
}

/** What changed from `from` to `to`, by kind, as ids. */
export interface PendingChanges {
  readonly pages: { created: string[]; updated: string[]; deleted: string[] };
  readonly files: { created: string[]; updated: string[]; deleted: string[] };
}

export async function pendingBetween(from: Revision, to: Revision): Promise<PendingChanges> {
  const pending: PendingChanges = {
    pages: { created: [], updated: [], deleted: [] },
    files: { created: [], updated: [], deleted: [] },
  };
  if (from.id === to.id) return pending;
  const diff = await diffRevisions(from, to);
  for (const [kind, changes] of [
    ["pages", diff.pages],
    ["files", diff.files],
  ] as const) {
    for (const [id, change] of changes) {
      const list = !change.before ? "created" : !change.after ? "deleted" : "updated";
      pending[kind][list].push(id);
    }
    for (const list of Object.values(pending[kind])) list.sort();
  }
  return pending;
}

/** The body of a push: the whole new state of every page and file that changed from `from` to `to`. */
export interface PushBody {
  revision?: string;
  changeRequest?: string;
  subject?: string;
  pages?: Record<string, unknown>[];
  files?: Record<string, unknown>[];
}

export async function pushEntries(
  tx: ReadTransaction,
  world: World,
  from: Revision,
  to: Revision,
): Promise<Pick<PushBody, "pages" | "files">> {
  const diff = await diffRevisions(from, to);
  const changed = [...diff.pages.values()].flatMap((change) => (change.after ? [change.after] : []));
  const rendering = await renderingFor(world, to, changed);
  // New pages go last under their parent on the server: sent in local order, they keep it.
  const ordered = [...diff.pages].sort(([, a], [, b]) =>
    (a.after?.position ?? "") < (b.after?.position ?? "") ? -1 : 1,
  );
  const pages = ordered.map(([id, { after }]) =>
    after
      ? {
          id,
          parent: after.parent || null,
          title: after.title,
          markdown: rendering.markdown(after),
          slug: after.slug,
          ...(after.emoji ? { emoji: after.emoji } : {}),
          ...(after.description ? { description: after.description } : {}),
          ...(after.hidden ? { hidden: true } : {}),
          ...(after.variables ? { variables: after.variables } : {}),
        }
      : { id, deleted: true },
  );
  const files = await Promise.all(
    [...diff.files].map(async ([id, { after }]) => {
      if (!after) return { id, deleted: true };
      const blob = await tx.get(blobsTable, after.blob);
      if (!blob) throw new Error(`Missing blob ${after.blob} of file ${id}`);
      return { id, name: after.name, contentType: after.contentType, data: blob.data };
    }),
  );
  return { ...(pages.length ? { pages } : {}), ...(files.length ? { files } : {}) };
}
