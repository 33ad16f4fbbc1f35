import { z } from "zod";
import { requireCreateAt, requireParentCollection } from "../collections/permissions.js";
import { findMembership } from "../permissions/membership.js";
import { defineOperation } from "../registry.js";
import { conflict, notFound, preconditionFailed } from "../shared/errors.js";
import { endPosition, itemOf, moveBody, positionForMove } from "../shared/positions.js";
import { boundedId } from "../shared/schema.js";
import { onSpace } from "./access.js";
import { visibilityUnder } from "./records.js";
import { spaceParams, spaceSchema } from "./schemas.js";
import { type SpaceRecord, spacesTable } from "./tables.js";
import { presentSpace } from "./present.js";

const tag = "spaces";

export const moveSpace = defineOperation({
  id: "moveSpace",
  method: "post",
  path: "/spaces/{spaceId}/move",
  tag,
  summary: "Move a space to another parent (create role there) and/or between two siblings",
  params: spaceParams,
  access: onSpace("admin"),
  body: moveBody,
  response: spaceSchema,
  async run(scope, { body }) {
    const { tx, space, membership } = scope;
    const parent = body.parent === undefined ? space.parent : (body.parent ?? "");
    const moved: SpaceRecord = { ...space, parent };
    if (parent !== space.parent) {
      if (parent) await requireParentCollection(tx, membership, parent, "body.parent");
      // Moving somewhere is creating there: the same role is needed as for a new space.
      await requireCreateAt(tx, membership, parent, "Moving a space");
      moved.visibility = visibilityUnder(parent, space.visibility);
    }
    moved.position = await positionForMove(tx, {
      organization: space.organization,
      item: itemOf("space", space),
      parent,
      position: body.position,
    });
    moved.updatedAt = scope.clock().toISOString();
    await tx.put(spacesTable, moved);
    return presentSpace(tx, scope, membership, moved);
  },
});

export const transferSpace = defineOperation({
  id: "transferSpace",
  method: "post",
  path: "/spaces/{spaceId}/transfer",
  tag,
  summary: "Move a root space to another organization (create role at its root), last at its root",
  params: spaceParams,
  access: onSpace("admin"),
  body: z.object({ organization: boundedId() }),
  response: spaceSchema,
  async run(scope, { body }) {
    const { tx, space } = scope;
    const target = await findMembership(tx, scope, body.organization);
    if (!target) throw notFound(`Organization "${body.organization}" not found`);
    if (target.organization.id === space.organization) {
      throw conflict(`The space is already in organization "${body.organization}"`);
    }
    // A space in a collection inherits access from it: detaching it would silently change who
    // can read it, so only root-level spaces change organization.
    if (space.parent) {
      throw preconditionFailed("The space cannot be moved: it is in a collection, move it to the root first");
    }
    await requireCreateAt(tx, target, "", "Transferring a space");
    const moved: SpaceRecord = {
      ...space,
      organization: target.organization.id,
      position: await endPosition(tx, target.organization.id),
      updatedAt: scope.clock().toISOString(),
    };
    await tx.put(spacesTable, moved);
    return presentSpace(tx, scope, target, moved);
  },
});
