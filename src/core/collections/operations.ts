import * as z from "zod";
import { viewsAllContent } from "../permissions/membership.js";
import { pageOfVisible, visibleContent } from "../permissions/visible.js";
import { inOrganization } from "../permissions/organization.js";
import { defineOperation, deleted } from "../registry.js";
import { LARGE_ITEMS_PAGE_CHARS, listOf, pageQuery, paginate } from "../shared/pagination.js";
import { endPosition } from "../shared/positions.js";
import { defaultLevel } from "../shared/roles.js";
import { boundedId, pathParam, queryBoolean } from "../shared/schema.js";
import { softDeleteSpace } from "../spaces/records.js";
import { spaceSchema, type Space } from "../spaces/schemas.js";
import { type SpaceRecord, spacesTable } from "../spaces/tables.js";
import { onCollection, onCollectionIfPresent } from "./access.js";
import { moveCollection, transferCollection } from "./moves.js";
import { requireCreateAt, requireParentCollection } from "./permissions.js";
import {
  collectionDescription,
  collectionParams,
  collectionSchema,
  collectionTitle,
  UNTITLED,
  type Collection,
} from "./schemas.js";
import { type CollectionRecord, collectionsTable } from "./tables.js";
import { subtree } from "./tree.js";
import { presentSpace } from "../spaces/present.js";
import { presentCollection } from "./present.js";

const tag = "collections";
const organizationParams = z.object({ organizationId: pathParam() });

export const createCollection = defineOperation({
  id: "createCollection",
  method: "post",
  path: "/orgs/{organizationId}/collections",
  tag,
  summary: "Create a collection, last among its siblings (create role at its place)",
  params: organizationParams,
  // The place, and so the role needed, depends on the body: checked in `run`.
  access: inOrganization("member"),
  body: z.object({ title: collectionTitle.optional(), parent: boundedId().optional() }).optional(),
  response: collectionSchema,
  status: 201,
  async run(scope, { body }) {
    const { tx, membership } = scope;
    const parent = body?.parent
      ? (await requireParentCollection(tx, membership, body.parent, "body.parent")).id
      : "";
    await requireCreateAt(tx, membership, parent, "Creating a collection");
    const collection: CollectionRecord = {
      id: scope.ids(),
      organization: membership.organization.id,
      parent,
      title: body?.title ?? UNTITLED,
      defaultLevel: "inherit",
      position: await endPosition(tx, membership.organization.id),
      createdAt: scope.clock().toISOString(),
    };
    await tx.put(collectionsTable, collection);
    return presentCollection(tx, scope, membership, collection);
  },
});

export const listCollectionsInOrganizationById = defineOperation({
  id: "listCollectionsInOrganizationById",
  method: "get",
  path: "/orgs/{organizationId}/collections",
  tag,
  summary: "List the collections of an organization in position order; `nested=false`: root ones only",
  params: organizationParams,
  access: inOrganization("member"),
  query: z.object({ ...pageQuery, nested: queryBoolean().optional() }),
  response: listOf(collectionSchema),
  async run(scope, { query }) {
    const { tx, membership } = scope;
    const organization = membership.organization.id;
    const nested = query.nested ?? true;
    const present = (collection: CollectionRecord) => presentCollection(tx, scope, membership, collection);
    if (!viewsAllContent(membership)) {
      const { collections } = await visibleContent(tx, membership);
      const listed = nested ? collections : collections.filter((collection) => collection.parent === "");
      return pageOfVisible(listed, query, `collections:${organization}:${nested}`, present);
    }
    return paginate<CollectionRecord, Collection>(tx, query, {
      table: collectionsTable,
      ...(nested
        ? { index: "byOrganization", where: [organization] }
        : { index: "byParent", where: [organization, ""] }),
      map: present,
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
  access: onCollection("view"),
  response: collectionSchema,
  async run(scope) {
    return presentCollection(scope.tx, scope, scope.membership, scope.collection);
  },
});

export const updateCollectionById = defineOperation({
  id: "updateCollectionById",
  method: "patch",
  path: "/collections/{collectionId}",
  tag,
  summary: "Update a collection; an empty description removes it",
  params: collectionParams,
  access: onCollection("admin"),
  body: z.object({
    title: collectionTitle.optional(),
    description: collectionDescription.optional(),
    defaultLevel: defaultLevel.optional(),
  }),
  response: collectionSchema,
  async run(scope, { body }) {
    const collection: CollectionRecord = { ...scope.collection };
    if (body.title !== undefined) collection.title = body.title;
    if (body.description === "") delete collection.description;
    else if (body.description !== undefined) collection.description = body.description;
    if (body.defaultLevel !== undefined) collection.defaultLevel = body.defaultLevel;
    await scope.tx.put(collectionsTable, collection);
    return presentCollection(scope.tx, scope, scope.membership, collection);
  },
});

export const deleteCollectionById = defineOperation({
  id: "deleteCollectionById",
  method: "delete",
  path: "/collections/{collectionId}",
  tag,
  summary: "Delete a collection and its nested collections; its spaces are deleted (restorable)",
  params: collectionParams,
  // Nothing there: 204. Hidden: 404.
  access: onCollectionIfPresent("admin"),
  emptyStatuses: [204, 205],
  async run(scope) {
    if (!scope.collection) return deleted(false);
    // Spaces are soft-deleted like DELETE /spaces/{id}; restoring one later puts it at the root.
    const { collections, spaces } = await subtree(scope.tx, scope.collection);
    for (const space of spaces) if (space.state === "live") await softDeleteSpace(scope.tx, scope, space);
    for (const collection of collections) {
      await scope.lifecycle.collectionDeleted(scope.tx, collection);
      await scope.tx.delete(collectionsTable, collection.id);
    }
    return deleted(true);
  },
});

export const listSpacesInCollectionById = defineOperation({
  id: "listSpacesInCollectionById",
  method: "get",
  path: "/collections/{collectionId}/spaces",
  tag,
  summary: "List the spaces directly in a collection, in position order",
  params: collectionParams,
  access: onCollection("view"),
  query: z.object({ ...pageQuery }),
  response: listOf(spaceSchema),
  async run(scope, { query }) {
    const { tx, collection, membership } = scope;
    return paginate<SpaceRecord, Space>(tx, query, {
      table: spacesTable,
      index: "byParent",
      // Whoever views a collection views every space in it (its roles flow down).
      where: [collection.organization, collection.id, "live"],
      map: (space) => presentSpace(tx, scope, membership, space),
      maxChars: LARGE_ITEMS_PAGE_CHARS,
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
