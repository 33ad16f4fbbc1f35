import { z } from "zod";
import { onCollection } from "../collections/access.js";
import type { CollectionRecord } from "../collections/tables.js";
import { defineOperation, deleted, noContent } from "../registry.js";
import { pageQuery } from "../shared/pagination.js";
import { pathParam } from "../shared/schema.js";
import { onSpace } from "../spaces/access.js";
import type { SpaceRecord } from "../spaces/tables.js";
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
 * each. Managing grants needs the object's `admin` permission; listing them, `view`. A grant on a
 * collection flows to everything inside it; the lists show the grants on the object itself.
 */

const tag = "permissions";
const spaceParams = z.object({ spaceId: pathParam() });
const spaceUserParams = z.object({ spaceId: pathParam(), userId: pathParam() });
const spaceTeamParams = z.object({ spaceId: pathParam(), teamId: pathParam() });
const collectionParams = z.object({ collectionId: pathParam() });
const collectionUserParams = z.object({ collectionId: pathParam(), userId: pathParam() });
const collectionTeamParams = z.object({ collectionId: pathParam(), teamId: pathParam() });
const listQuery = z.object({ ...pageQuery });

const ofSpace = (space: SpaceRecord): Granted => ({ target: "space", ...space });
const ofCollection = (collection: CollectionRecord): Granted => ({ target: "collection", ...collection });

export const inviteToSpace = defineOperation({
  id: "inviteToSpace",
  method: "post",
  path: "/spaces/{spaceId}/permissions",
  tag,
  summary:
    "Give users (members or guests of the organization) and teams a role on a space; `null` removes it",
  params: spaceParams,
  access: onSpace("admin"),
  body: inviteBody,
  emptyStatuses: [204],
  async run(scope, { body }) {
    await invite(scope.tx, scope, ofSpace(scope.space), body);
    return noContent();
  },
});

export const listUserPermissionsInSpace = defineOperation({
  id: "listUserPermissionsInSpace",
  method: "get",
  path: "/spaces/{spaceId}/permissions/users",
  tag,
  summary: "List the users granted a role on the space itself, oldest grant first",
  params: spaceParams,
  access: onSpace("view"),
  query: listQuery,
  response: userPermissionList,
  run: (scope, { query }) => listUserGrants(scope.tx, scope, ofSpace(scope.space), query),
});

export const updateUserPermissionInSpace = defineOperation({
  id: "updateUserPermissionInSpace",
  method: "patch",
  path: "/spaces/{spaceId}/permissions/users/{userId}",
  tag,
  summary: "Set a user's role on the space; `null` removes their grant",
  params: spaceUserParams,
  access: onSpace("admin"),
  body: updateBody,
  emptyStatuses: [204],
  async run(scope, { params, body }) {
    await requireGrantee(scope.tx, ofSpace(scope.space), "user", params.userId);
    await setGrant(scope.tx, scope, ofSpace(scope.space), "user", params.userId, body.role);
    return noContent();
  },
});

export const removeUserFromSpace = defineOperation({
  id: "removeUserFromSpace",
  method: "delete",
  path: "/spaces/{spaceId}/permissions/users/{userId}",
  tag,
  summary: "Remove a user's grant on the space (205), or nothing when they hold none (204)",
  params: spaceUserParams,
  access: onSpace("admin"),
  emptyStatuses: [204, 205],
  run: async (scope, { params }) =>
    deleted(await removeGrant(scope.tx, ofSpace(scope.space), "user", params.userId)),
});

export const listTeamPermissionsInSpace = defineOperation({
  id: "listTeamPermissionsInSpace",
  method: "get",
  path: "/spaces/{spaceId}/permissions/teams",
  tag,
  summary: "List the teams granted a role on the space itself, oldest grant first",
  params: spaceParams,
  access: onSpace("view"),
  query: listQuery,
  response: teamPermissionList,
  run: (scope, { query }) => listTeamGrants(scope.tx, scope.membership, ofSpace(scope.space), query),
});

export const updateTeamPermissionInSpace = defineOperation({
  id: "updateTeamPermissionInSpace",
  method: "patch",
  path: "/spaces/{spaceId}/permissions/teams/{teamId}",
  tag,
  summary: "Set a team's role on the space; `null` removes its grant",
  params: spaceTeamParams,
  access: onSpace("admin"),
  body: updateBody,
  emptyStatuses: [204],
  async run(scope, { params, body }) {
    await requireGrantee(scope.tx, ofSpace(scope.space), "team", params.teamId);
    await setGrant(scope.tx, scope, ofSpace(scope.space), "team", params.teamId, body.role);
    return noContent();
  },
});

export const removeTeamFromSpace = defineOperation({
  id: "removeTeamFromSpace",
  method: "delete",
  path: "/spaces/{spaceId}/permissions/teams/{teamId}",
  tag,
  summary: "Remove a team's grant on the space (205), or nothing when it holds none (204)",
  params: spaceTeamParams,
  access: onSpace("admin"),
  emptyStatuses: [204, 205],
  run: async (scope, { params }) =>
    deleted(await removeGrant(scope.tx, ofSpace(scope.space), "team", params.teamId)),
});

export const inviteToCollection = defineOperation({
  id: "inviteToCollection",
  method: "post",
  path: "/collections/{collectionId}/permissions",
  tag,
  summary:
    "Give users (members or guests of the organization) and teams a role on a collection and what is inside it; `null` removes it",
  params: collectionParams,
  access: onCollection("admin"),
  body: inviteBody,
  emptyStatuses: [204],
  async run(scope, { body }) {
    await invite(scope.tx, scope, ofCollection(scope.collection), body);
    return noContent();
  },
});

export const listUserPermissionsInCollection = defineOperation({
  id: "listUserPermissionsInCollection",
  method: "get",
  path: "/collections/{collectionId}/permissions/users",
  tag,
  summary: "List the users granted a role on the collection itself, oldest grant first",
  params: collectionParams,
  access: onCollection("view"),
  query: listQuery,
  response: userPermissionList,
  run: (scope, { query }) => listUserGrants(scope.tx, scope, ofCollection(scope.collection), query),
});

export const updateUserPermissionInCollection = defineOperation({
  id: "updateUserPermissionInCollection",
  method: "patch",
  path: "/collections/{collectionId}/permissions/users/{userId}",
  tag,
  summary: "Set a user's role on the collection; `null` removes their grant",
  params: collectionUserParams,
  access: onCollection("admin"),
  body: updateBody,
  emptyStatuses: [204],
  async run(scope, { params, body }) {
    await requireGrantee(scope.tx, ofCollection(scope.collection), "user", params.userId);
    await setGrant(scope.tx, scope, ofCollection(scope.collection), "user", params.userId, body.role);
    return noContent();
  },
});

export const removeUserFromCollection = defineOperation({
  id: "removeUserFromCollection",
  method: "delete",
  path: "/collections/{collectionId}/permissions/users/{userId}",
  tag,
  summary: "Remove a user's grant on the collection (205), or nothing when they hold none (204)",
  params: collectionUserParams,
  access: onCollection("admin"),
  emptyStatuses: [204, 205],
  run: async (scope, { params }) =>
    deleted(await removeGrant(scope.tx, ofCollection(scope.collection), "user", params.userId)),
});

export const listTeamPermissionsInCollection = defineOperation({
  id: "listTeamPermissionsInCollection",
  method: "get",
  path: "/collections/{collectionId}/permissions/teams",
  tag,
  summary: "List the teams granted a role on the collection itself, oldest grant first",
  params: collectionParams,
  access: onCollection("view"),
  query: listQuery,
  response: teamPermissionList,
  run: (scope, { query }) =>
    listTeamGrants(scope.tx, scope.membership, ofCollection(scope.collection), query),
});

export const updateTeamPermissionInCollection = defineOperation({
  id: "updateTeamPermissionInCollection",
  method: "patch",
  path: "/collections/{collectionId}/permissions/teams/{teamId}",
  tag,
  summary: "Set a team's role on the collection; `null` removes its grant",
  params: collectionTeamParams,
  access: onCollection("admin"),
  body: updateBody,
  emptyStatuses: [204],
  async run(scope, { params, body }) {
    await requireGrantee(scope.tx, ofCollection(scope.collection), "team", params.teamId);
    await setGrant(scope.tx, scope, ofCollection(scope.collection), "team", params.teamId, body.role);
    return noContent();
  },
});

export const removeTeamFromCollection = defineOperation({
  id: "removeTeamFromCollection",
  method: "delete",
  path: "/collections/{collectionId}/permissions/teams/{teamId}",
  tag,
  summary: "Remove a team's grant on the collection (205), or nothing when it holds none (204)",
  params: collectionTeamParams,
  access: onCollection("admin"),
  emptyStatuses: [204, 205],
  run: async (scope, { params }) =>
    deleted(await removeGrant(scope.tx, ofCollection(scope.collection), "team", params.teamId)),
});

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
