import { z } from "zod";
import { defineOperation } from "../registry.js";
import { findMembership } from "../shared/access.js";
import { badRequest, conflict, notFound, preconditionFailed } from "../shared/errors.js";
import { endPositions, itemOf, moveBody, positionForMove } from "../shared/positions.js";
import { tables, type CollectionRecord, type SpaceRecord } from "../tables.js";
import {
  collectionPermissions,
  presentCollection,
  requireCollection,
  requireCreateAt,
  requireParentCollection,
  requirePermission,
} from "./permissions.js";
import { collectionParams, collectionSchema } from "./schemas.js";
import { isWithin, subtree } from "./tree.js";

const tag = "collections";

export const moveCollection = defineOperation({
  id: "moveCollection",
  method: "post",
  path: "/collections/{collectionId}/move",
  tag,
  summary: "Move a collection to another parent and/or between two siblings (admin on it)",
  params: collectionParams,
  body: moveBody,
  response: collectionSchema,
  async run(context, { params, body }) {
    return context.storage.write(async (tx) => {
      const { collection, membership, role } = await requireCollection(tx, context, params.collectionId);
      requirePermission(collectionPermissions(role), "admin", "Moving a collection");
      const parent = body.parent === undefined ? collection.parent : (body.parent ?? "");
      if (parent !== collection.parent) {
        if (parent) {
          await requireParentCollection(tx, membership, parent, "body.parent");
          if (await isWithin(tx, parent, collection.id)) {
            throw badRequest(
              "body.parent: a collection cannot move into itself or a collection nested in it",
            );
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
      await tx.put(tables.collections.name, moved);
      return presentCollection(tx, context, membership, moved);
    });
  },
});

export const transferCollection = defineOperation({
  id: "transferCollection",
  method: "post",
  path: "/collections/{collectionId}/transfer",
  tag,
  summary: "Move a root collection, with everything in it, to another organization",
  params: collectionParams,
  body: z.object({ organization: z.string().min(1) }),
  response: collectionSchema,
  async run(context, { params, body }) {
    return context.storage.write(async (tx) => {
      const { collection, role } = await requireCollection(tx, context, params.collectionId);
      requirePermission(collectionPermissions(role), "admin", "Transferring a collection");
      const target = await findMembership(tx, context, body.organization);
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
      const items: { table: string; record: CollectionRecord | SpaceRecord }[] = [
        ...collections.map((record) => ({ table: tables.collections.name, record })),
        ...spaces.map((record) => ({ table: tables.spaces.name, record })),
      ].sort((a, b) =>
        a.record.position < b.record.position ? -1 : a.record.position > b.record.position ? 1 : 0,
      );
      const keys = await endPositions(tx, target.organization.id, items.length);
      const now = context.clock().toISOString();
      let transferred = collection;
      for (const [index, { table, record }] of items.entries()) {
        const moved: CollectionRecord | SpaceRecord = {
          ...record,
          organization: target.organization.id,
          position: keys[index]!,
          ...(table === tables.spaces.name ? { updatedAt: now } : {}),
        };
        await tx.put(table, moved);
        if (record.id === collection.id && table === tables.collections.name) {
          transferred = moved as CollectionRecord;
        }
      }
      return presentCollection(tx, context, target, transferred);
    });
  },
});
