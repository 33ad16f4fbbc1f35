import { badRequest } from "../shared/errors.js";
import { endPositions } from "../shared/positions.js";
import { type SpaceRecord, spacesTable } from "../spaces/tables.js";
import type { WriteTransaction } from "../storage/port.js";
import { onCollection } from "./access.js";
import { contentMoves } from "./content-moves.js";
import { presentCollection } from "./present.js";
import { collectionParams, collectionSchema } from "./schemas.js";
import { type CollectionRecord, collectionsTable } from "./tables.js";
import { isWithin, subtree } from "./tree.js";

/**
 * `moveCollection` and `transferCollection`, by the rules of all content (content-moves.ts). A
 * collection cannot move into itself or below; a transfer carries everything nested in it.
 */
export const [moveCollection, transferCollection] = contentMoves({
  kind: "collection",
  ids: { move: "moveCollection", transfer: "transferCollection" },
  path: "/collections/{collectionId}",
  tag: "collections",
  summaries: {
    move: "Move a collection to another parent (create role there) and/or between two siblings",
    transfer:
      "Move a root collection, with everything in it, to another organization (create role at its root)",
  },
  params: collectionParams,
  access: onCollection("admin"),
  response: collectionSchema,
  loaded: (scope) => scope.collection,
  async refuseParent(tx, collection, parent) {
    if (await isWithin(tx, parent, collection.id)) {
      throw badRequest("body.parent: a collection cannot move into itself or a collection nested in it");
    }
  },
  place: (collection, parent, position) => ({ ...collection, parent, position }),
  table: collectionsTable,
  carry: transferSubtree,
  present: presentCollection,
});

/** A record under a transferred collection, tagged with its table. */
type Nested =
  | { readonly kind: "collection"; readonly record: CollectionRecord }
  | { readonly kind: "space"; readonly record: SpaceRecord };

/**
 * Stores the collection and everything nested in it (deleted spaces too, so they stay restorable)
 * in `organization`, appended at its end in their current order; returns the collection as stored
 * and the ids of all it carried.
 */
async function transferSubtree(
  tx: WriteTransaction,
  collection: CollectionRecord,
  organization: string,
  now: string,
): Promise<{ record: CollectionRecord; carried: string[] }> {
  const { collections, spaces } = await subtree(tx, collection);
  const items: Nested[] = [
    ...collections.map((record) => ({ kind: "collection" as const, record })),
    ...spaces.map((record) => ({ kind: "space" as const, record })),
  ].sort((a, b) =>
    a.record.position < b.record.position ? -1 : a.record.position > b.record.position ? 1 : 0,
  );
  const keys = await endPositions(tx, organization, items.length);
  let transferred = collection;
  for (const [index, item] of items.entries()) {
    const moved = await relocate(tx, item, organization, keys[index]!, now);
    if (moved.kind === "collection" && moved.record.id === collection.id) transferred = moved.record;
  }
  return { record: transferred, carried: items.map((item) => item.record.id) };
}

/** Stores `item` in `organization` at `position`; a space's `updatedAt` becomes `now`. */
async function relocate(
  tx: WriteTransaction,
  item: Nested,
  organization: string,
  position: string,
  now: string,
): Promise<Nested> {
  if (item.kind === "collection") {
    const record: CollectionRecord = { ...item.record, organization, position };
    await tx.put(collectionsTable, record);
    return { kind: "collection", record };
  }
  const record: SpaceRecord = { ...item.record, organization, position, updatedAt: now };
  await tx.put(spacesTable, record);
  return { kind: "space", record };
}
