import * as z from "zod";
import { onCollection } from "../collections/access.js";
import { defineOperation } from "../registry.js";
import { listOf, pageQuery } from "../shared/pagination.js";
import { memberRole } from "../shared/roles.js";
import { pathParam } from "../shared/schema.js";
import { onSpace } from "../spaces/access.js";
import type { ReadTransaction } from "../storage/port.js";
import { userSchema } from "../users/schemas.js";
import { UserPresenter } from "../users/present.js";
import type { World } from "../shared/world.js";
import { type Holder, holdersOf, pageOfHolders } from "./holders.js";

/** The reference `UserContentPermission`: a user and their resolved role on a space or collection. */
export const userContentPermissionSchema = z.object({ permission: memberRole, user: userSchema });

const aggregateQuery = z.object({ ...pageQuery, role: memberRole.optional() });

/** A page of holders presented as `UserContentPermission` items. */
async function presentHolders(tx: ReadTransaction, world: World, holders: readonly Holder[]) {
  const users = new UserPresenter(tx, world);
  return Promise.all(
    holders.map(async (holder) => ({
      permission: holder.role,
      user: await users.presentUser(holder.member.user),
    })),
  );
}

export const listPermissionsAggregateInSpace = defineOperation({
  id: "listPermissionsAggregateInSpace",
  method: "get",
  path: "/spaces/{spaceId}/permissions/aggregate",
  tag: "space-users",
  summary:
    "List every user holding a role on the space, with the role the resolution gives them (space " +
    "admins): organization members, and guests reached by a grant. Strongest role first, then by user id.",
  access: onSpace("admin"),
  params: z.object({ spaceId: pathParam() }),
  query: aggregateQuery,
  response: listOf(userContentPermissionSchema),
  async run(scope, { query }) {
    const { tx, membership, space } = scope;
    const page = pageOfHolders(await holdersOf(tx, membership, space), query, `space:${space.id}`);
    return { ...page, items: await presentHolders(tx, scope, page.items) };
  },
});

export const listPermissionsAggregateInCollection = defineOperation({
  id: "listPermissionsAggregateInCollection",
  method: "get",
  path: "/collections/{collectionId}/permissions/aggregate",
  tag: "collection-users",
  summary:
    "List every user holding a role on the collection, with the role the resolution gives them " +
    "(collection admins). Strongest role first, then by user id.",
  access: onCollection("admin"),
  params: z.object({ collectionId: pathParam() }),
  query: aggregateQuery,
  response: listOf(userContentPermissionSchema),
  async run(scope, { query }) {
    const { tx, membership, collection } = scope;
    const page = pageOfHolders(
      await holdersOf(tx, membership, collection),
      query,
      `collection:${collection.id}`,
    );
    return { ...page, items: await presentHolders(tx, scope, page.items) };
  },
});

/** The aggregate lists of a space's and a collection's holders (docs/permissions.md). */
export const aggregateOperations = {
  listPermissionsAggregateInSpace,
  listPermissionsAggregateInCollection,
};
