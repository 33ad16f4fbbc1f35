import { z } from "zod";
import { requireCreateAt, requireParentCollection, requirePermission } from "../collections/permissions.js";
import { defineOperation } from "../registry.js";
import { findMembership } from "../shared/access.js";
import { conflict, notFound, preconditionFailed } from "../shared/errors.js";
import { endPosition, itemOf, moveBody, positionForMove } from "../shared/positions.js";
import { tables, type SpaceRecord } from "../tables.js";
import { presentSpace, requireSpace, spacePermissions } from "./permissions.js";
import { visibilityUnder } from "./records.js";
import { spaceParams, spaceSchema } from "./schemas.js";

const tag = "spaces";

export const moveSpace = defineOperation({
  id: "moveSpace",
  method: "post",
  path: "/spaces/{spaceId}/move",
  tag,
  summary: "Move a space to another parent and/or between two siblings (admin on it)",
  params: spaceParams,
  body: moveBody,
  response: spaceSchema,
  async run(context, { params, body }) {
    return context.storage.write(async (tx) => {
      const { space, membership, role } = await requireSpace(tx, context, params.spaceId);
      requirePermission(spacePermissions(role, space), "admin", "Moving a space");
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
      moved.updatedAt = context.clock().toISOString();
      await tx.put(tables.spaces.name, moved);
      return presentSpace(tx, context, membership, moved);
    });
  },
});

export const transferSpace = defineOperation({
  id: "transferSpace",
  method: "post",
  path: "/spaces/{spaceId}/transfer",
  tag,
  summary: "Move a root space to another organization, last at its root",
  params: spaceParams,
  body: z.object({ organization: z.string().min(1) }),
  response: spaceSchema,
  async run(context, { params, body }) {
    return context.storage.write(async (tx) => {
      const { space, role } = await requireSpace(tx, context, params.spaceId);
      requirePermission(spacePermissions(role, space), "admin", "Transferring a space");
      const target = await findMembership(tx, context, body.organization);
      if (!target) throw notFound(`Organization "${body.organization}" not found`);
      if (target.organization.id === space.organization) {
        throw conflict(`The space is already in organization "${body.organization}"`);
      }
      // A space in a collection inherits access from it: detaching it would silently change who
      // can read it, so only root-level spaces change organization.
      if (space.parent) {
        throw preconditionFailed(
          "The space cannot be moved: it is in a collection, move it to the root first",
        );
      }
      await requireCreateAt(tx, target, "", "Transferring a space");
      const moved: SpaceRecord = {
        ...space,
        organization: target.organization.id,
        position: await endPosition(tx, target.organization.id),
        updatedAt: context.clock().toISOString(),
      };
      await tx.put(tables.spaces.name, moved);
      return presentSpace(tx, context, target, moved);
    });
  },
});
