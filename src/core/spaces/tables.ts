import * as z from "zod";
import { defaultLevel } from "../shared/roles.js";
import type { CountedRange } from "../shared/counters.js";
import { defineTable } from "../storage/table.js";

export const spaceEditMode = z.enum(["live", "locked"]);
export const spaceVisibility = z.enum([
  "public",
  "unlisted",
  "share-link",
  "visitor-auth",
  "in-collection",
  "private",
]);
/** The reference `TranslationLanguage`. */
export const spaceLanguage = z.enum([
  "en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "yue", "ko", "ar", "hi", "nl", "pl", "tr",
  "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms", "he", "uk", "sk", "bg", "hr",
  "lt", "lv", "et", "sl",
]); // prettier-ignore
/** "live", or "deleted" while restorable. */
export const spaceState = z.enum(["live", "deleted"]);

export const spaceRecord = z.object({
  id: z.string(),
  organization: z.string(),
  parent: z.string(),
  state: spaceState,
  position: z.string(),
  title: z.string(),
  emoji: z.string(),
  visibility: spaceVisibility,
  editMode: spaceEditMode,
  defaultLevel,
  language: spaceLanguage.optional(),
  mergeRules: z.union([
    z.object({ type: z.literal("inherit") }),
    z.object({ type: z.literal("none") }),
    z.object({ type: z.literal("rules"), rules: z.array(z.unknown()) }),
  ]),
  revision: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  deletedAt: z.string().optional(),
  /** Counters fed by change requests and comments. */
  counters: z.object({
    comments: z.number(),
    changeRequests: z.number(),
    changeRequestsOpen: z.number(),
    changeRequestsDraft: z.number(),
  }),
});
export type SpaceRecord = z.infer<typeof spaceRecord>;

export const spacesTable = defineTable({
  name: "spaces",
  key: "id",
  indexes: {
    byOrganization: ["organization", "state", "position"],
    byParent: ["organization", "parent", "state", "position"],
    byState: ["state", "deletedAt"],
  },
  record: spaceRecord,
});

/** The ranges spaces are listed and counted by: an organization's, a collection's (each by state). */
export const spaceCounts: readonly CountedRange[] = [
  { table: spacesTable, index: "byOrganization", prefix: 2 },
  { table: spacesTable, index: "byParent", prefix: 3 },
];
