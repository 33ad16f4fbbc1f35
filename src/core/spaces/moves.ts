import { contentMoves } from "../collections/content-moves.js";
import { endPosition } from "../shared/positions.js";
import { onSpace } from "./access.js";
import { presentSpace } from "./present.js";
import { visibilityUnder } from "./records.js";
import { spaceParams, spaceSchema } from "./schemas.js";
import { type SpaceRecord, spacesTable } from "./tables.js";

/**
 * `moveSpace` and `transferSpace`, by the rules of all content (collections/content-moves.ts). A
 * space moved under another parent takes the visibility of its new place.
 */
export const [moveSpace, transferSpace] = contentMoves({
  kind: "space",
  ids: { move: "moveSpace", transfer: "transferSpace" },
  path: "/spaces/{spaceId}",
  tag: "spaces",
  summaries: {
    move: "Move a space to another parent (create role there) and/or between two siblings",
    transfer: "Move a root space to another organization (create role at its root), last at its root",
  },
  params: spaceParams,
  access: onSpace("admin"),
  response: spaceSchema,
  loaded: (scope) => scope.space,
  place: (space, parent, position, now) => ({
    ...space,
    parent,
    ...(parent === space.parent ? {} : { visibility: visibilityUnder(parent, space.visibility) }),
    position,
    updatedAt: now,
  }),
  table: spacesTable,
  async carry(tx, space, organization, now) {
    const moved: SpaceRecord = {
      ...space,
      organization,
      position: await endPosition(tx, organization),
      updatedAt: now,
    };
    await tx.put(spacesTable, moved);
    return { record: moved, carried: [moved.id] };
  },
  present: presentSpace,
});
