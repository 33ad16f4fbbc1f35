import * as z from "zod";
import { defaultLevel } from "../shared/roles.js";
import { pathParam, wellFormed } from "../shared/schema.js";

export const collectionTitle = z.string().max(50).check(wellFormed());
export const collectionDescription = z.string().max(100);
export const collectionParams = z.object({ collectionId: pathParam() });

/** The title of a collection created without one. */
export const UNTITLED = "Untitled";

export const collectionPermissionsSchema = z.object({
  view: z.boolean(),
  admin: z.boolean(),
  viewInviteLinks: z.boolean(),
  create: z.boolean(),
});
export type CollectionPermissions = z.infer<typeof collectionPermissionsSchema>;

export const collectionSchema = z.object({
  object: z.literal("collection"),
  id: z.string(),
  title: z.string(),
  description: z.string().optional(),
  organization: z.string(),
  parent: z.string().optional(),
  defaultLevel,
  urls: z.object({ location: z.string(), app: z.string() }),
  permissions: collectionPermissionsSchema,
});
export type Collection = z.infer<typeof collectionSchema>;
