import * as z from "zod";
import { readableWithReaderToken } from "../permissions/reader-token.js";
import { commitRevision, requireRevision } from "../content-tree/revisions.js";
import { templateChanges, templateReference } from "../content/templates.js";
import { requireCreateAt, requireParentCollection } from "../collections/permissions.js";
import { inOrganization } from "../permissions/organization.js";
import { requirePermission } from "../permissions/refuse.js";
import { defineOperation } from "../registry.js";
import { viewsAllContent } from "../permissions/membership.js";
import { pageOfVisible, visibleContent } from "../permissions/visible.js";
import { LARGE_ITEMS_PAGE_CHARS, listOf, pageQuery, paginate } from "../shared/pagination.js";
import { endPosition } from "../shared/positions.js";
import { defaultLevel } from "../shared/roles.js";
import { boundedId, MAX_ID_LENGTH, pathParam } from "../shared/schema.js";
import { spaceEditMode, spaceLanguage, type SpaceRecord, spacesTable } from "./tables.js";
import { deleteSpaceById, duplicateSpace, restoreSpace } from "./lifecycle.js";
import { moveSpace, transferSpace } from "./moves.js";
import { onSpace } from "./access.js";
import { sharedSpaceUrl } from "../sites/readers.js";
import { insertSpace, visibilityUnder } from "./records.js";
import { refuseBadExpressions } from "../organizations/schemas.js";
import {
  spaceEmoji,
  spaceMergeRules,
  spaceParams,
  spaceSchema,
  spaceTitle,
  UNTITLED_SPACE,
  type Space,
} from "./schemas.js";
import { presentSpace, presentSpaceWith } from "./present.js";

const tag = "spaces";
const organizationParams = z.object({ organizationId: pathParam() });

export const createSpace = defineOperation({
  id: "createSpace",
  method: "post",
  path: "/orgs/{organizationId}/spaces",
  tag,
  summary: "Create a space, empty or from a template, last among its siblings (create role at its place)",
  params: organizationParams,
  access: inOrganization("member"),
  body: z
    .object({
      title: spaceTitle.optional(),
      emoji: spaceEmoji.optional(),
      parent: boundedId().optional(),
      language: spaceLanguage.optional(),
      editMode: spaceEditMode.optional(),
      /** A template space whose pages and files the new space starts with. */
      template: templateReference.optional(),
      // Computed sources are not modelled; refused rather than ignored.
      computedSource: z.never({ error: "computed sources are not supported yet" }).optional(),
      empty: z.literal(true).optional(),
    })
    .optional(),
  response: spaceSchema,
  status: 201,
  async run(context, { body = {} }) {
    const { tx, membership } = context;
    const parent = body.parent
      ? (await requireParentCollection(tx, membership, body.parent, "body.parent")).id
      : "";
    await requireCreateAt(tx, membership, parent, "Creating a space");
    const space = await insertSpace(tx, context, {
      organization: membership.organization.id,
      parent,
      position: await endPosition(tx, membership.organization.id),
      title: body.title ?? UNTITLED_SPACE,
      emoji: body.emoji ?? "",
      visibility: visibilityUnder(parent),
      editMode: body.editMode ?? "live",
      defaultLevel: "inherit",
      ...(body.language ? { language: body.language } : {}),
    });
    if (!body.template) return presentSpace(tx, context, membership, space);
    const initial = await requireRevision(tx, context, space.revision);
    const changes = await templateChanges(
      tx,
      context,
      body.template,
      { spaceId: space.id, content: initial },
      "body.template",
    );
    const filled = await commitRevision(tx, context, { space: space.id, base: initial, changes });
    const withContent: SpaceRecord = { ...space, revision: filled.record.id };
    await tx.put(spacesTable, withContent);
    return presentSpace(tx, context, membership, withContent);
  },
});

export const getSpaceById = defineOperation({
  id: "getSpaceById",
  method: "get",
  path: "/spaces/{spaceId}",
  tag,
  summary: "Get a space",
  params: spaceParams,
  access: readableWithReaderToken(onSpace("view")),
  // With the key of a share link, `urls.published` is the space's URL on that share-link site.
  query: z.object({ shareKey: z.string().max(MAX_ID_LENGTH).optional() }),
  response: spaceSchema,
  async run(context, { query }) {
    // The rule's permissions: a member's, or a reader token's `read` on its one space.
    const space = presentSpaceWith(context, context.space, context.permissions);
    const published = await sharedSpaceUrl(context.tx, context, context.space, query.shareKey);
    return published ? { ...space, urls: { ...space.urls, published } } : space;
  },
});

export const updateSpaceById = defineOperation({
  id: "updateSpaceById",
  method: "patch",
  path: "/spaces/{spaceId}",
  tag,
  summary: "Update a space: title, emoji, language (edit); editMode, defaultLevel, mergeRules (admin)",
  params: spaceParams,
  access: onSpace("view"),
  body: z.object({
    editMode: spaceEditMode.optional(),
    title: spaceTitle.optional(),
    defaultLevel: defaultLevel.optional(),
    language: spaceLanguage.optional(),
    mergeRules: spaceMergeRules.superRefine(refuseBadExpressions).optional(),
    /** `null` removes the emoji. */
    emoji: spaceEmoji.nullable().optional(),
    // Spaces have no icons yet: removing one (null) is a no-op, setting one is refused.
    icon: z.null({ error: "space icons are not supported yet" }).optional(),
  }),
  response: spaceSchema,
  async run(context, { body }) {
    const { tx, space, membership, permissions } = context;
    const next: SpaceRecord = { ...space };
    if (body.editMode !== undefined || body.defaultLevel !== undefined || body.mergeRules !== undefined) {
      requirePermission(permissions, "admin", "Changing editMode, defaultLevel or mergeRules");
      if (body.editMode !== undefined) next.editMode = body.editMode;
      if (body.defaultLevel !== undefined) next.defaultLevel = body.defaultLevel;
      if (body.mergeRules !== undefined) next.mergeRules = body.mergeRules;
    }
    if (body.title !== undefined || body.emoji !== undefined || body.language !== undefined) {
      // Editors may rename a live space; admins manage the space whatever its edit mode.
      const locked = space.editMode === "locked" ? " of a locked space" : "";
      requirePermission(permissions, ["edit", "admin"], `Changing the title, emoji or language${locked}`);
      if (body.title !== undefined) next.title = body.title;
      if (body.emoji !== undefined) next.emoji = body.emoji ?? "";
      if (body.language !== undefined) next.language = body.language;
    }
    if (JSON.stringify(next) !== JSON.stringify(space)) {
      next.updatedAt = context.clock().toISOString();
      await tx.put(spacesTable, next);
    }
    return presentSpace(tx, context, membership, next);
  },
});

export const listSpacesInOrganizationById = defineOperation({
  id: "listSpacesInOrganizationById",
  method: "get",
  path: "/orgs/{organizationId}/spaces",
  tag,
  summary: "List the spaces of an organization (at every level) in position order",
  params: organizationParams,
  access: inOrganization("member"),
  query: z.object({ ...pageQuery }),
  response: listOf(spaceSchema),
  async run(context, { query }) {
    const { tx, membership } = context;
    const present = (space: SpaceRecord) => presentSpace(tx, context, membership, space);
    if (!viewsAllContent(membership)) {
      const { spaces } = await visibleContent(tx, membership);
      return pageOfVisible(
        spaces,
        query,
        `spaces:${membership.organization.id}`,
        present,
        LARGE_ITEMS_PAGE_CHARS,
      );
    }
    return paginate<SpaceRecord, Space>(tx, query, {
      table: spacesTable,
      index: "byOrganization",
      where: [membership.organization.id, "live"],
      map: present,
      // A space's merge rules may hold 100 rules of 1000 users: the page is bounded in size.
      maxChars: LARGE_ITEMS_PAGE_CHARS,
    });
  },
});

export const spaceOperations = {
  createSpace,
  getSpaceById,
  updateSpaceById,
  deleteSpaceById,
  restoreSpace,
  duplicateSpace,
  moveSpace,
  transferSpace,
  listSpacesInOrganizationById,
};
