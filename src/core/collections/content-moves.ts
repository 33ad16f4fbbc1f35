import * as z from "zod";
import { findMembership, type Membership } from "../permissions/membership.js";
import type { AccessRule } from "../permissions/rule.js";
import { type AnyObjectSchema, defineOperation } from "../registry.js";
import { conflict, notFound, preconditionFailed } from "../shared/errors.js";
import { type ContentKind, itemOf, moveBody, positionForMove } from "../shared/positions.js";
import { boundedId } from "../shared/schema.js";
import type { World } from "../shared/world.js";
import type { SpaceRecord } from "../spaces/tables.js";
import type { ReadTransaction, Table, WriteTransaction } from "../storage/port.js";
import { requireCreateAt, requireParentCollection } from "./permissions.js";
import type { CollectionRecord } from "./tables.js";

/**
 * Moving and transferring content: a space or a collection changes parent or place among its
 * siblings (`moveSpace`, `moveCollection`), or goes to another organization
 * (`transferSpace`, `transferCollection`). The rules are the same for both kinds and written once
 * here; what differs (what the rule loaded, what else a move changes, what comes along in a
 * transfer) each kind passes in.
 *
 * - A move to another parent needs the parent to be a collection of the organization that the
 *   caller can view (400 naming `body.parent` otherwise), and the create role there, as for new
 *   content (403). The place among siblings follows `body.position` (shared/positions.ts); a
 *   move that changes nothing answers 409.
 * - A transfer needs the target organization to be one the caller is a member of (404), another
 *   one than the current (409), the content to be at the root (412: nested content inherits access
 *   from its collection, so detaching it would silently change who can read it), and the create
 *   role at the target's root (403). The content goes last there.
 */

/** What a move or a transfer differs in between spaces and collections. */
export interface MovableContent<
  MoveId extends string,
  TransferId extends string,
  P extends AnyObjectSchema,
  R extends z.ZodType,
  L extends { readonly membership: Membership },
  Rec extends CollectionRecord | SpaceRecord,
> {
  /** The kind in the ordering of siblings, and the noun of messages. */
  readonly kind: ContentKind;
  readonly ids: { readonly move: MoveId; readonly transfer: TransferId };
  /** The path of the object (`/spaces/{spaceId}`); the operations add `/move` and `/transfer`. */
  readonly path: string;
  readonly tag: string;
  readonly summaries: { readonly move: string; readonly transfer: string };
  readonly params: P;
  /** The rule both operations resolve: admin on the object. */
  readonly access: AccessRule<L>;
  readonly response: R;
  /** The object the rule loaded. */
  readonly loaded: (scope: L) => Rec;
  /** Refuses, with a 400 naming `body.parent`, a destination the object cannot go under. */
  readonly refuseParent?: (tx: ReadTransaction, record: Rec, parent: string) => Promise<void>;
  /** The object under `parent` at `position`, with whatever else a move changes, `now` its time. */
  readonly place: (record: Rec, parent: string, position: string, now: string) => Rec;
  readonly table: Table<Rec>;
  /**
   * Stores the object, with whatever comes along, last in `organization`; returns it as stored and
   * the ids of everything it carried (itself included).
   */
  readonly carry: (
    tx: WriteTransaction,
    record: Rec,
    organization: string,
    now: string,
  ) => Promise<{ readonly record: Rec; readonly carried: readonly string[] }>;
  readonly present: (
    tx: ReadTransaction,
    world: World,
    membership: Membership,
    record: Rec,
  ) => Promise<z.input<R>>;
}

/**
 * The move and the transfer of a kind of content.
 *
 * @example
 * ```ts
 * export const [moveSpace, transferSpace] = contentMoves({
 *   kind: "space",
 *   ids: { move: "moveSpace", transfer: "transferSpace" },
 *   ...
 * });
 * ```
 */
export function contentMoves<
  const MoveId extends string,
  const TransferId extends string,
  P extends AnyObjectSchema,
  R extends z.ZodType,
  L extends { readonly membership: Membership },
  Rec extends CollectionRecord | SpaceRecord,
>(content: MovableContent<MoveId, TransferId, P, R, L, Rec>) {
  const { kind } = content;
  // Both operations post to a path under the object, which they load with the same rule.
  const shared = {
    method: "post",
    tag: content.tag,
    params: content.params,
    access: content.access,
    response: content.response,
  } as const;

  const move = defineOperation({
    ...shared,
    id: content.ids.move,
    path: `${content.path}/move`,
    summary: content.summaries.move,
    body: moveBody,
    async run(scope, { body }) {
      const { tx, membership } = scope;
      const current = content.loaded(scope);
      const parent = body.parent === undefined ? current.parent : (body.parent ?? "");
      if (parent !== current.parent) {
        if (parent) {
          await requireParentCollection(tx, membership, parent, "body.parent");
          await content.refuseParent?.(tx, current, parent);
        }
        // Moving somewhere is creating there: the same role is needed as for new content.
        await requireCreateAt(tx, membership, parent, `Moving a ${kind}`);
      }
      const position = await positionForMove(tx, {
        organization: current.organization,
        item: itemOf(kind, current),
        parent,
        position: body.position,
      });
      const moved = content.place(current, parent, position, scope.clock().toISOString());
      await tx.put(content.table, moved);
      return content.present(tx, scope, membership, moved);
    },
  });

  const transfer = defineOperation({
    ...shared,
    id: content.ids.transfer,
    path: `${content.path}/transfer`,
    summary: content.summaries.transfer,
    body: z.object({ organization: boundedId() }),
    async run(scope, { body }) {
      const { tx } = scope;
      const current = content.loaded(scope);
      const target = await findMembership(tx, scope, body.organization);
      if (!target) throw notFound(`Organization "${body.organization}" not found`);
      if (target.organization.id === current.organization) {
        throw conflict(`The ${kind} is already in organization "${body.organization}"`);
      }
      // Nested content inherits access from its collection: detaching it would silently change
      // who can read it, so only root-level content changes organization.
      if (current.parent) {
        throw preconditionFailed(
          `The ${kind} cannot be moved: it is in a collection, move it to the root first`,
        );
      }
      await requireCreateAt(tx, target, "", `Transferring a ${kind}`);
      const { record: transferred, carried } = await content.carry(
        tx,
        current,
        target.organization.id,
        scope.clock().toISOString(),
      );
      // Grants named the old organization's members and teams: they go (docs/permissions.md).
      for (const id of carried) {
        await scope.lifecycle.contentTransferred(tx, { id, from: current.organization });
      }
      return content.present(tx, scope, target, transferred);
    },
  });

  return [move, transfer] as const;
}
