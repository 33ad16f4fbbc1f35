import * as z from "zod";
import { standaloneMergeRules } from "../organizations/schemas.js";
import { defaultLevel } from "../shared/roles.js";
import { pathParam, timestamp, wellFormed } from "../shared/schema.js";
import { spaceEditMode, spaceLanguage, spaceVisibility } from "./tables.js";

export const spaceParams = z.object({ spaceId: pathParam() });

/** The title of a space created without one. */
export const UNTITLED_SPACE = "Untitled";

export const spaceTitle = z.string().max(50).check(wellFormed());
/** A Unicode emoji (the reference's `Emoji`: a string of at most 50 characters). */
export const spaceEmoji = z.string().max(50);
/** `inherit` (the organization's rules), or rules of the space's own. */
export const spaceMergeRules = z.discriminatedUnion("type", [
  z.object({ type: z.literal("inherit") }),
  standaloneMergeRules,
]);

export const spacePermissionsSchema = z.object({
  view: z.boolean(),
  access: z.boolean(),
  admin: z.boolean(),
  viewInviteLinks: z.boolean(),
  edit: z.boolean(),
  triggerGitSync: z.boolean(),
  comment: z.boolean(),
  merge: z.boolean(),
  review: z.boolean(),
  installIntegration: z.boolean(),
});
export type SpacePermissions = z.infer<typeof spacePermissionsSchema>;

export const spaceSchema = z.object({
  object: z.literal("space"),
  id: z.string(),
  title: z.string(),
  emoji: z.string(),
  visibility: spaceVisibility,
  createdAt: timestamp(),
  updatedAt: timestamp(),
  deletedAt: timestamp().optional(),
  editMode: spaceEditMode,
  mergeRules: spaceMergeRules,
  /** `published`: the space's URL on a share-link site, given that link's key (getSpaceById). */
  urls: z.object({ location: z.string(), app: z.string(), published: z.string().optional() }),
  organization: z.string(),
  parent: z.string().optional(),
  language: spaceLanguage.optional(),
  revision: z.string(),
  defaultLevel,
  comments: z.number(),
  changeRequests: z.number(),
  changeRequestsOpen: z.number(),
  changeRequestsDraft: z.number(),
  permissions: spacePermissionsSchema,
});
export type Space = z.infer<typeof spaceSchema>;
