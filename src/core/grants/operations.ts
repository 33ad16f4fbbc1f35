import * as z from "zod";
import { onCollection } from "../collections/access.js";
import type { CollectionPermissions } from "../collections/schemas.js";
import type { Membership } from "../permissions/membership.js";
import type { PermissionFlag } from "../permissions/refuse.js";
import type { AccessRule } from "../permissions/rule.js";
import { defineOperation, deleted, noContent } from "../registry.js";
import { pageQuery } from "../shared/pagination.js";
import { pathParam } from "../shared/schema.js";
import { onSpace } from "../spaces/access.js";
import type { SpacePermissions } from "../spaces/schemas.js";
import type { Grantee } from "./tables.js";
import {
  type Granted,
  invite,
  inviteBody,
  listTeamGrants,
  listUserGrants,
  removeGrant,
  requireGrantee,
  setGrant,
  teamPermissionList,
  updateBody,
  userPermissionList,
} from "./grants.js";

/**
 * The grant operations of spaces and of collections (docs/permissions.md): the same seven on
 * each, written once. Managing grants needs the object's `admin` permission; listing them, `view`.
 * A grant on a collection flows to everything inside it; the lists show the grants on the object
 * itself.
 */

const tag = "permissions";
const listQuery = z.object({ ...pageQuery });

/** The operation ids of one kind's seven grant operations, each its own literal type. */
interface GrantIds<I, LU, UU, RU, LT, UT, RT> {
  readonly invite: I;
  readonly listUsers: LU;
  readonly updateUser: UU;
  readonly removeUser: RU;
  readonly listTeams: LT;
  readonly updateTeam: UT;
  readonly removeTeam: RT;
}

/** What the grant operations of spaces and of collections differ in. */
interface GrantedKind<Ids, Param extends string, L extends { readonly membership: Membership }> {
  /** The noun of summaries: `space`. */
  readonly noun: "space" | "collection";
  readonly ids: Ids;
  /** The path parameter naming the object: `spaceId`. */
  readonly param: Param;
  /** The path of the object: `/spaces/{spaceId}`; the operations add `/permissions...`. */
  readonly path: string;
  /** The object's rule for a flag (`admin` manages, `view` lists). */
  readonly access: (flag: "admin" | "view") => AccessRule<L>;
  /** The object the rule loaded, as a grant names it. */
  readonly loaded: (scope: L) => Granted;
}

/**
 * The seven grant operations of a kind, keyed by their ids.
 *
 * @example
 * ```ts
 * const spaceGrants = grantOperationsOf({ noun: "space", ids: { invite: "inviteToSpace", ... }, ... });
 * ```
 */
function grantOperationsOf<
  const I extends string,
  const LU extends string,
  const UU extends string,
  const RU extends string,
  const LT extends string,
  const UT extends string,
  const RT extends string,
  const Param extends string,
  L extends { readonly membership: Membership },
>(kind: GrantedKind<GrantIds<I, LU, UU, RU, LT, UT, RT>, Param, L>) {
  const { noun, ids, path } = kind;
  const objectParams = z.object({ [kind.param]: pathParam() } as Record<Param, ReturnType<typeof pathParam>>);
  const granteeParams = <G extends string>(name: G) =>
    z.object({ [kind.param]: pathParam(), [name]: pathParam() } as Record<
      Param | G,
      ReturnType<typeof pathParam>
    >);
  const userParams = granteeParams("userId");
  const teamParams = granteeParams("teamId");

  /** The update and the remove of one grantee kind's grant. */
  function granteeOperations<const UpdateId extends string, const RemoveId extends string, G extends string>(
    grantee: Grantee,
    name: G,
    params: ReturnType<typeof granteeParams<G>>,
    update: UpdateId,
    remove: RemoveId,
  ) {
    const whose = grantee === "user" ? "a user's" : "a team's";
    const holds = grantee === "user" ? "they hold" : "it holds";
    const at = `${path}/permissions/${grantee}s/{${name}}`;
    const idOf = (values: Record<string, unknown>) => String(values[name]);
    return [
      defineOperation({
        id: update,
        method: "patch",
        path: at,
        tag,
        summary: `Set ${whose} role on the ${noun}; \`null\` removes the grant`,
        params,
        access: kind.access("admin"),
        body: updateBody,
        emptyStatuses: [204],
        async run(scope, { params: values, body }) {
          const object = kind.loaded(scope);
          await requireGrantee(scope.tx, object, grantee, idOf(values));
          await setGrant(scope.tx, scope, object, grantee, idOf(values), body.role);
          return noContent();
        },
      }),
      defineOperation({
        id: remove,
        method: "delete",
        path: at,
        tag,
        summary: `Remove ${whose} grant on the ${noun} (205), or nothing when ${holds} none (204)`,
        params,
        access: kind.access("admin"),
        emptyStatuses: [204, 205],
        run: async (scope, { params: values }) =>
          deleted(await removeGrant(scope.tx, kind.loaded(scope), grantee, idOf(values))),
      }),
    ] as const;
  }

  const [updateUser, removeUser] = granteeOperations(
    "user",
    "userId",
    userParams,
    ids.updateUser,
    ids.removeUser,
  );
  const [updateTeam, removeTeam] = granteeOperations(
    "team",
    "teamId",
    teamParams,
    ids.updateTeam,
    ids.removeTeam,
  );
  return {
    invite: defineOperation({
      id: ids.invite,
      method: "post",
      path: `${path}/permissions`,
      tag,
      summary: `Give users (members or guests of the organization) and teams a role on a ${noun}${noun === "collection" ? " and what is inside it" : ""}; \`null\` removes it`,
      params: objectParams,
      access: kind.access("admin"),
      body: inviteBody,
      emptyStatuses: [204],
      async run(scope, { body }) {
        await invite(scope.tx, scope, kind.loaded(scope), body);
        return noContent();
      },
    }),
    listUsers: defineOperation({
      id: ids.listUsers,
      method: "get",
      path: `${path}/permissions/users`,
      tag,
      summary: `List the users granted a role on the ${noun} itself, oldest grant first`,
      params: objectParams,
      access: kind.access("view"),
      query: listQuery,
      response: userPermissionList,
      run: (scope, { query }) => listUserGrants(scope.tx, scope, kind.loaded(scope), query),
    }),
    updateUser,
    removeUser,
    listTeams: defineOperation({
      id: ids.listTeams,
      method: "get",
      path: `${path}/permissions/teams`,
      tag,
      summary: `List the teams granted a role on the ${noun} itself, oldest grant first`,
      params: objectParams,
      access: kind.access("view"),
      query: listQuery,
      response: teamPermissionList,
      run: (scope, { query }) => listTeamGrants(scope.tx, scope.membership, kind.loaded(scope), query),
    }),
    updateTeam,
    removeTeam,
  };
}

const spaceIds = {
  invite: "inviteToSpace",
  listUsers: "listUserPermissionsInSpace",
  updateUser: "updateUserPermissionInSpace",
  removeUser: "removeUserFromSpace",
  listTeams: "listTeamPermissionsInSpace",
  updateTeam: "updateTeamPermissionInSpace",
  removeTeam: "removeTeamFromSpace",
} as const;

const space = grantOperationsOf({
  noun: "space",
  ids: spaceIds,
  param: "spaceId",
  path: "/spaces/{spaceId}",
  access: (flag: PermissionFlag<SpacePermissions>) => onSpace(flag),
  loaded: (scope) => ({ target: "space", ...scope.space }),
});

const collectionIds = {
  invite: "inviteToCollection",
  listUsers: "listUserPermissionsInCollection",
  updateUser: "updateUserPermissionInCollection",
  removeUser: "removeUserFromCollection",
  listTeams: "listTeamPermissionsInCollection",
  updateTeam: "updateTeamPermissionInCollection",
  removeTeam: "removeTeamFromCollection",
} as const;

const collection = grantOperationsOf({
  noun: "collection",
  ids: collectionIds,
  param: "collectionId",
  path: "/collections/{collectionId}",
  access: (flag: PermissionFlag<CollectionPermissions>) => onCollection(flag),
  loaded: (scope) => ({ target: "collection", ...scope.collection }),
});

export const inviteToSpace = space.invite;
export const listUserPermissionsInSpace = space.listUsers;
export const updateUserPermissionInSpace = space.updateUser;
export const removeUserFromSpace = space.removeUser;
export const listTeamPermissionsInSpace = space.listTeams;
export const updateTeamPermissionInSpace = space.updateTeam;
export const removeTeamFromSpace = space.removeTeam;
export const inviteToCollection = collection.invite;
export const listUserPermissionsInCollection = collection.listUsers;
export const updateUserPermissionInCollection = collection.updateUser;
export const removeUserFromCollection = collection.removeUser;
export const listTeamPermissionsInCollection = collection.listTeams;
export const updateTeamPermissionInCollection = collection.updateTeam;
export const removeTeamFromCollection = collection.removeTeam;

export const grantOperations = {
  inviteToSpace,
  listUserPermissionsInSpace,
  updateUserPermissionInSpace,
  removeUserFromSpace,
  listTeamPermissionsInSpace,
  updateTeamPermissionInSpace,
  removeTeamFromSpace,
  inviteToCollection,
  listUserPermissionsInCollection,
  updateUserPermissionInCollection,
  removeUserFromCollection,
  listTeamPermissionsInCollection,
  updateTeamPermissionInCollection,
  removeTeamFromCollection,
};
