import { z } from "zod";
import { defineOperation, deleted } from "../registry.js";
import { contentRole, requireMembership } from "../shared/access.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import { endPosition } from "../shared/positions.js";
import { defaultLevel } from "../shared/roles.js";
import { pathParam, queryBoolean } from "../shared/schema.js";
import { presentSpace, spacePermissions } from "../spaces/permissions.js";
import { softDeleteSpace } from "../spaces/records.js";
import { spaceSchema, type Space } from "../spaces/schemas.js";
import { tables, type CollectionRecord, type SpaceRecord } from "../tables.js";
import { moveCollection, transferCollection } from "./moves.js";
import {
  collectionPermissions,
  findCollection,
  presentCollection,
  requireCollection,
  requireCreateAt,
  requireParentCollection,
  requirePermission,
} from "./permissions.js";
import {
  collectionDescription,
  collectionParams,
  collectionSchema,
  collectionTitle,
  UNTITLED,
  type Collection,
} from "./schemas.js";
import { subtree } from "./tree.js";

const tag = "collections";
const organizationParams = z.object({ organizationId: pathParam() });

export const createCollection = defineOperation({
  id: "createCollection",
  method: "post",
  path: "/orgs/{organizationId}/collections",
  tag,
  summary: "Create a collection, last among its siblings (create role at its place)",
  params: organizationParams,
  body: z.object({ title: collectionTitle.optional(), parent: z.string().min(1).optional() }).optional(),
  response: collectionSchema,
  status: 201,
  async run(context, { params, body }) {
    return context.storage.write(async (tx) => {
      const membership = await requireMembership(tx, context, params.organizationId);
      const parent = body?.parent
        ? (await requireParentCollection(tx, membership, body.parent, "body.parent")).id
        : "";
      await requireCreateAt(tx, membership, parent, "Creating a collection");
      const collection: CollectionRecord = {
        id: context.ids(),
        organization: membership.organization.id,
        parent,
        title: body?.title ?? UNTITLED,
        defaultLevel: "inherit",
        position: await endPosition(tx, membership.organization.id),
        createdAt: context.clock().toISOString(),
      };
      await tx.put(tables.collections.name, collection);
      return presentCollection(tx, context, membership, collection);
    });
  },
});

export const listCollectionsInOrganizationById = defineOperation({
  id: "listCollectionsInOrganizationById",
  method: "get",
  path: "/orgs/{organizationId}/collections",
  tag,
  summary: "List the collections of an organization in position order; `nested=false`: root ones only",
  params: organizationParams,
  query: z.object({ ...pageQuery, nested: queryBoolean().optional() }),
  response: listOf(collectionSchema),
  async run(context, { params, query }) {
    return context.storage.read(async (tx) => {
      const membership = await requireMembership(tx, context, params.organizationId);
      const organization = membership.organization.id;
      const nested = query.nested ?? true;
      return paginate<CollectionRecord, Collection>(tx, query, {
        table: tables.collections,
        ...(nested
          ? { index: "byOrganization", where: [organization] }
          : { index: "byParent", where: [organization, ""] }),
        filter: async (collection) =>
          collectionPermissions(await contentRole(tx, membership, collection)).view,
        map: (collection) => presentCollection(tx, context, membership, collection),
      });
    });
  },
});

export const getCollectionById = defineOperation({
  id: "getCollectionById",
  method: "get",
  path: "/collections/{collectionId}",
  tag,
  summary: "Get a collection",
  params: collectionParams,
  response: collectionSchema,
  async run(context, { params }) {
    return context.storage.read(async (tx) => {
      const { collection, membership } = await requireCollection(tx, context, params.collectionId);
      return presentCollection(tx, context, membership, collection);
    });
  },
});

export const updateCollectionById = defineOperation({
  id: "updateCollectionById",
  method: "patch",
  path: "/collections/{collectionId}",
  tag,
  summary: "Update a collection (admin on it); an empty description removes it",
  params: collectionParams,
  body: z.object({
    title: collectionTitle.optional(),
    description: collectionDescription.optional(),
    defaultLevel: defaultLevel.optional(),
  }),
  response: collectionSchema,
  async run(context, { params, body }) {
    return context.storage.write(async (tx) => {
      const access = await requireCollection(tx, context, params.collectionId);
      requirePermission(collectionPermissions(access.role), "admin", "Updating a collection");
      const collection = { ...access.collection };
      if (body.title !== undefined) collection.title = body.title;
      if (body.description === "") delete collection.description;
      else if (body.description !== undefined) collection.description = body.description;
      if (body.defaultLevel !== undefined) collection.defaultLevel = body.defaultLevel;
      await tx.put(tables.collections.name, collection);
      return presentCollection(tx, context, access.membership, collection);
    });
  },
});

export const deleteCollectionById = defineOperation({
  id: "deleteCollectionById",
  method: "delete",
  path: "/collections/{collectionId}",
  tag,
  summary: "Delete a collection and its nested collections; its spaces are deleted (restorable)",
  params: collectionParams,
  emptyStatuses: [204, 205],
  async run(context, { params }) {
    return context.storage.write(async (tx) => {
      const access = await findCollection(tx, context, params.collectionId);
      if (!access) return deleted(false);
      requirePermission(collectionPermissions(access.role), "admin", "Deleting a collection");
      // Spaces are soft-deleted like DELETE /spaces/{id}; restoring one later puts it at the root.
      const { collections, spaces } = await subtree(tx, access.collection);
      for (const space of spaces) if (space.state === "live") await softDeleteSpace(tx, context, space);
      for (const collection of collections) await tx.delete(tables.collections.name, collection.id);
      return deleted(true);
    });
  },
});

export const listSpacesInCollectionById = defineOperation({
  id: "listSpacesInCollectionById",
  method: "get",
  path: "/collections/{collectionId}/spaces",
  tag,
  summary: "List the spaces directly in a collection, in position order",
  params: collectionParams,
  query: z.object({ ...pageQuery }),
  response: listOf(spaceSchema),
  async run(context, { params, query }) {
    return context.storage.read(async (tx) => {
      const { collection, membership } = await requireCollection(tx, context, params.collectionId);
      return paginate<SpaceRecord, Space>(tx, query, {
        table: tables.spaces,
        index: "byParent",
        where: [collection.organization, collection.id, "live"],
        filter: async (space) => spacePermissions(await contentRole(tx, membership, space), space).view,
        map: (space) => presentSpace(tx, context, membership, space),
      });
    });
  },
});

export const collectionOperations = {
  createCollection,
  listCollectionsInOrganizationById,
  getCollectionById,
  updateCollectionById,
  deleteCollectionById,
  listSpacesInCollectionById,
  moveCollection,
  transferCollection,
};
