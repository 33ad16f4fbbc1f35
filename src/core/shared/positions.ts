import { generateKeyBetween, generateNKeysBetween } from "fractional-indexing";
import * as z from "zod";
import type { ReadTransaction } from "../storage/port.js";
import { type CollectionRecord, collectionsTable } from "../collections/tables.js";
import { type SpaceRecord, spacesTable } from "../spaces/tables.js";
import { badRequest, conflict } from "./errors.js";
import { boundedId } from "./schema.js";

/**
 * The order of collections and spaces (their `position` field).
 *
 * Each organization has one fractional-index key space (`fractional-indexing`), shared by its
 * collections and its spaces, live or deleted, and keys are unique within it. Siblings (the items
 * of one parent: a collection, or the organization root) are ordered by key. Sharing one key space
 * means an item never has to be renumbered when it changes parent, and uniqueness means two
 * siblings can never tie (a tie would leave no key between them for a later move).
 *
 * - A new item gets a key after the organization-wide greatest key, so it comes last among its
 *   siblings whatever its parent.
 * - A move takes a key between its new neighbours among the destination's siblings.
 * - Items carried to another organization get keys after that organization's greatest key, in
 *   their previous relative order.
 */

export type ContentKind = "space" | "collection";

/** A collection or a live space, as the ordering sees it. */
export interface ContentItem {
  readonly kind: ContentKind;
  readonly id: string;
  /** Parent collection id, or "" at the root. */
  readonly parent: string;
  readonly position: string;
}

const contentPointer = z.discriminatedUnion("type", [
  z.object({ type: z.literal("space"), space: boundedId() }),
  z.object({ type: z.literal("collection"), collection: boundedId() }),
]);
export type ContentPointer = z.infer<typeof contentPointer>;

/** `ContentPosition`: insert after `after` and/or before `before`, two siblings at the destination. */
export const contentPosition = z.object({
  before: contentPointer.optional(),
  after: contentPointer.optional(),
});
export type ContentPosition = z.infer<typeof contentPosition>;

/** The body of `moveSpace` and `moveCollection`: at least one property (the reference's minProperties). */
export const moveBody = z
  .object({
    /** A collection id, `null` for the organization root; omitted keeps the current parent. */
    parent: boundedId().nullable().optional(),
    position: contentPosition.optional(),
  })
  .refine((body) => body.parent !== undefined || body.position !== undefined, {
    error: "Expected at least one of parent or position",
  });

export const itemOf = (kind: ContentKind, record: CollectionRecord | SpaceRecord): ContentItem => ({
  kind,
  id: record.id,
  parent: record.parent,
  position: record.position,
});

const sameItem = (a: ContentItem | undefined, b: ContentItem | undefined) =>
  a?.kind === b?.kind && a?.id === b?.id;

function byPosition(a: ContentItem, b: ContentItem): number {
  if (a.position !== b.position) return a.position < b.position ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The collections and live spaces directly under `parent` ("" for the root), in order. */
export async function listSiblings(
  tx: ReadTransaction,
  organization: string,
  parent: string,
): Promise<ContentItem[]> {
  const collections = await tx.list(collectionsTable, {
    index: "byParent",
    where: [organization, parent],
  });
  const spaces = await tx.list(spacesTable, {
    index: "byParent",
    where: [organization, parent, "live"],
  });
  return [
    ...collections.map((record) => itemOf("collection", record)),
    ...spaces.map((record) => itemOf("space", record)),
  ].sort(byPosition);
}

/** The greatest key in use in the organization (collections and spaces, live or deleted). */
async function lastPosition(tx: ReadTransaction, organization: string): Promise<string | null> {
  const last = [
    ...(await tx.list(collectionsTable, {
      index: "byOrganization",
      where: [organization],
      reverse: true,
      limit: 1,
    })),
    ...(await tx.list(spacesTable, {
      index: "byOrganization",
      where: [organization, "live"],
      reverse: true,
      limit: 1,
    })),
    ...(await tx.list(spacesTable, {
      index: "byOrganization",
      where: [organization, "deleted"],
      reverse: true,
      limit: 1,
    })),
  ].map((record) => record.position);
  return last.reduce<string | null>((max, key) => (max === null || key > max ? key : max), null);
}

/** `count` new keys after every key of the organization, ascending. */
export async function endPositions(
  tx: ReadTransaction,
  organization: string,
  count: number,
): Promise<string[]> {
  return generateNKeysBetween(await lastPosition(tx, organization), null, count);
}

/** A new key after every key of the organization: the place of a new item. */
export async function endPosition(tx: ReadTransaction, organization: string): Promise<string> {
  return generateKeyBetween(await lastPosition(tx, organization), null);
}

async function keyTaken(tx: ReadTransaction, organization: string, key: string): Promise<boolean> {
  if (await tx.count(collectionsTable, { index: "byOrganization", where: [organization, key] })) {
    return true;
  }
  for (const state of ["live", "deleted"]) {
    if (await tx.count(spacesTable, { index: "byOrganization", where: [organization, state, key] })) {
      return true;
    }
  }
  return false;
}

/**
 * A key strictly between `low` and `high` (null: unbounded) that no item of the organization uses.
 * Items of other parents may hold keys between two siblings; each try narrows the interval, and
 * only finitely many keys are taken, so this ends.
 */
export async function freeKeyBetween(
  tx: ReadTransaction,
  organization: string,
  low: string | null,
  high: string | null,
): Promise<string> {
  let from = low;
  for (;;) {
    const key = generateKeyBetween(from, high);
    if (!(await keyTaken(tx, organization, key))) return key;
    from = key;
  }
}

/** The key right after `item` among its siblings: where a duplicate of it goes. */
export async function positionAfter(tx: ReadTransaction, organization: string, item: ContentItem) {
  const siblings = await listSiblings(tx, organization, item.parent);
  const next = siblings[siblings.findIndex((sibling) => sameItem(sibling, item)) + 1];
  return freeKeyBetween(tx, organization, item.position, next?.position ?? null);
}

export interface MoveRequest {
  readonly organization: string;
  /** What moves, where it is now. */
  readonly item: ContentItem;
  /** The destination: a collection id, or "" for the root. Already checked by the caller. */
  readonly parent: string;
  readonly position?: ContentPosition | undefined;
}

/**
 * The key of `item` after a move, or a 400 (a pointer that is unknown, the item itself, not a
 * sibling at the destination, or `after`/`before` that are not adjacent in that order) or a 409
 * (the move changes nothing: same parent and same neighbours).
 *
 * Without a position, an item that changes parent goes last among its new siblings.
 */
export async function positionForMove(tx: ReadTransaction, request: MoveRequest): Promise<string> {
  const { item, parent, organization } = request;
  const all = await listSiblings(tx, organization, parent);
  const siblings = all.filter((sibling) => !sameItem(sibling, item));
  const after = request.position?.after && (await resolvePointer(tx, request, siblings, "after"));
  const before = request.position?.before && (await resolvePointer(tx, request, siblings, "before"));

  let previous: ContentItem | undefined;
  let next: ContentItem | undefined;
  if (after && before) {
    if (siblings.indexOf(before) !== siblings.indexOf(after) + 1) {
      throw badRequest(
        'body.position: "after" and "before" must be adjacent siblings at the destination, "after" first',
      );
    }
    [previous, next] = [after, before];
  } else if (after) {
    [previous, next] = [after, siblings[siblings.indexOf(after) + 1]];
  } else if (before) {
    [previous, next] = [siblings[siblings.indexOf(before) - 1], before];
  } else if (parent !== item.parent) {
    return endPosition(tx, organization);
  } else {
    throw nothingToMove(item);
  }

  if (parent === item.parent) {
    const index = all.findIndex((sibling) => sameItem(sibling, item));
    if (sameItem(all[index - 1], previous) && sameItem(all[index + 1], next)) throw nothingToMove(item);
  }
  return freeKeyBetween(tx, organization, previous?.position ?? null, next?.position ?? null);
}

const nothingToMove = (item: ContentItem) =>
  conflict(`The move would not change anything: the ${item.kind} is already there`);

async function resolvePointer(
  tx: ReadTransaction,
  request: MoveRequest,
  siblings: readonly ContentItem[],
  which: "before" | "after",
): Promise<ContentItem> {
  const pointer = request.position![which]!;
  const field = `body.position.${which}`;
  const kind = pointer.type;
  const id = pointer.type === "space" ? pointer.space : pointer.collection;
  if (kind === request.item.kind && id === request.item.id) {
    throw badRequest(`${field}: a ${kind} cannot be positioned relative to itself`);
  }
  const sibling = siblings.find((candidate) => candidate.kind === kind && candidate.id === id);
  if (sibling) return sibling;
  const record = kind === "space" ? await tx.get(spacesTable, id) : await tx.get(collectionsTable, id);
  const known =
    record?.organization === request.organization && !("state" in record && record.state === "deleted");
  const destination = request.parent ? `collection "${request.parent}"` : "organization root";
  throw badRequest(
    known
      ? `${field}: ${kind} "${id}" is not directly in the destination (${destination})`
      : `${field}: no ${kind} "${id}" in this organization`,
  );
}
