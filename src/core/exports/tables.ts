import * as z from "zod";
import { defineTable } from "../storage/table.js";

/** A PDF export: a capability to download the rendering of one revision until `expiresAt`. */
export const exportRecord = z.object({
  id: z.string(),
  space: z.string(),
  revision: z.string(),
  title: z.string(),
  /** The page to start from; all pages when absent. */
  page: z.string().optional(),
  /** With `page`: that page alone, without its descendants. */
  only: z.boolean(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type ExportRecord = z.infer<typeof exportRecord>;

export const exportsTable = defineTable({ name: "exports", key: "id", indexes: {}, record: exportRecord });
