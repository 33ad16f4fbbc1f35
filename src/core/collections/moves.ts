import { z } from "zod";
import { findMembership } from "../permissions/membership.js";
import { defineOperation } from "../registry.js";
import { badRequest, conflict, notFound, preconditionFailed } from "../shared/errors.js";
import { endPositions, itemOf, moveBody, positionForMove } from "../shared/positions.js";
import { boundedId } from "../shared/schema.js";
import { type SpaceRecord, spacesTable } from "../spaces/tables.js";
import type { WriteTransaction } from "../storage/port.js";
import { onCollection } from "./access.js";
import { requireCreateAt, requireParentCollection } from "./permissions.js";
import { collectionParams, collectionSchema } from "./schemas.js";
import { type CollectionRecord, collectionsTable } from "./tables.js";
import { isWithin, subtree } from "./tree.js";
import { presentCollection } from "./present.js";

const tag = "collections";

export const moveCollection = defineOperation({
  id: "moveCollection",
  method: "post",
  path: "/collections/{collectionId}/move",
  tag,
  summary: "Move a collection to another parent (create role there) and/or between two siblings",
  params: collectionParams,
  access: onCollection("admin"),
  body: moveBody,
  response: collectionSchema,
  async run(scope, { body }) {
    const { tx, collection, membership } = scope;
    const parent = body.parent === undefined ? collection.parent : (body.parent ?? "");
    if (parent !== collection.parent) {
      if (parent) {
        await requireParentCollection(tx, membership, parent, "body.parent");
        if (await isWithin(tx, parent, collection.id)) {
          throw badRequest("body.parent: a collection cannot move into itself or a collection nested in it");
        }
      }
      // Moving somewhere is creating there: the same role is needed as for a new collection.
      await requireCreateAt(tx, membership, parent, "Moving a collection");
    }
    const position = await positionForMove(tx, {
      organization: collection.organization,
      item: itemOf("collection", collection),
      parent,
      position: body.position,
    });
    const moved: CollectionRecord = { ...collection, parent, position };
    await tx.put(collectionsTable, moved);
    return presentCollection(tx, scope, membership, moved);
  },
});

export const transferCollection = defineOperation({
  id: "transferCollection",
  method: "post",
  path: "/collections/{collectionId}/transfer",
  tag,
  summary: "Move a root collection, with everything in it, to another organization (create role at its root)",
  params: collectionParams,
  access: onCollection("admin"),
  body: z.object({ organization: boundedId() }),
  response: collectionSchema,
  async run(scope, { body }) {
    const { tx, collection } = scope;
    const target = await findMembership(tx, scope, body.organization);
    if (!target) throw notFound(`Organization "${body.organization}" not found`);
    if (target.organization.id === collection.organization) {
      throw conflict(`The collection is already in organization "${body.organization}"`);
    }
    // Nested content inherits access from its collection: detaching it would silently change
    // who can read it, so only root-level content changes organization.
    if (collection.parent) {
      throw preconditionFailed(
        "The collection cannot be moved: it is in a collection, move it to the root first",
      );
    }
    await requireCreateAt(tx, target, "", "Transferring a collection");

    // Everything nested comes along (deleted spaces too, so they stay restorable), appended at
    // the end of the target organization in its current order.
    const { collections, spaces } = await subtree(tx, collection);
    const items: Nested[] = [
      ...collections.map((record) => ({ kind: "collection" as const, record })),
      ...spaces.map((record) => ({ kind: "space" as const, record })),
    ].sort((a, b) =>
      a.record.position < b.record.position ? -1 : a.record.position > b.record.position ? 1 : 0,
    );
    const keys = await endPositions(tx, target.organization.id, items.length);
    const now = scope.clock().toISOString();
    let transferred = collection;
    for (const [index, item] of items.entries()) {
      const moved = await relocate(tx, item, target.organization.id, keys[index]!, now);
      if (moved.kind === "collection" && moved.record.id === collection.id) transferred = moved.record;
    }
    return presentCollection(tx, scope, target, transferred);
  },
});

/** A record under a transferred collection, tagged with its table. */
type Nested =
  | { readonly kind: "collection"; readonly record: CollectionRecord }
  | { readonly kind: "space"; readonly record: SpaceRecord };

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
