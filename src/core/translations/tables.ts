import * as z from "zod";
import { spaceLanguage } from "../spaces/tables.js";
import { defineTable } from "../storage/table.js";

/** The reference's `TranslationLanguage` (the same enumeration as a space's `language`). */
export const translationLanguage = spaceLanguage;
export type TranslationLanguage = z.infer<typeof translationLanguage>;

/** The reference's `TranslationStatus`. */
export const translationStatus = z.enum(["pending", "running", "completed"]);

/** The reference's `Translation.stats`; durations in whole seconds. */
export const translationStats = z.object({
  runs: z.number(),
  totalWords: z.number(),
  totalPages: z.number(),
  totalDuration: z.number(),
  latestRunDuration: z.number(),
  latestPages: z.number(),
  latestWords: z.number(),
});
export type TranslationStats = z.infer<typeof translationStats>;

export const translationRecord = z.object({
  id: z.string(),
  organization: z.string(),
  status: translationStatus,
  sourceSpace: z.string(),
  sourceLanguage: translationLanguage,
  language: translationLanguage,
  /** A JSON document (the reference's `JSONDocument`), as sent. */
  instructions: z.record(z.string(), z.unknown()),
  /** The space the translation writes, made when the translation is created; it outlives it. */
  resultSpace: z.string(),
  /** The revision of `resultSpace` the latest run committed (its first, empty one before). */
  resultRevision: z.string(),
  /**
   * Counts the runs asked for (creation, then each `runTranslation`). A job carries the value it
   * was queued with; one older than the latest does nothing, since a newer job will run.
   */
  run: z.number(),
  stats: translationStats,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TranslationRecord = z.infer<typeof translationRecord>;

export const translationsTable = defineTable({
  name: "translations",
  key: "id",
  indexes: {
    byOrganization: ["organization", "createdAt"],
    bySourceSpace: ["sourceSpace"],
    byResultSpace: ["resultSpace"],
  },
  record: translationRecord,
});

/**
 * What a run remembers of each page it translated, so that the next run sends only pages that
 * changed: a digest of what was sent (source texts, languages and instructions) and the page
 * version it produced in the result space.
 */
export const translatedPageRecord = z.object({
  /** `<translation>/<page>`. */
  id: z.string(),
  translation: z.string(),
  page: z.string(),
  digest: z.string(),
  version: z.string(),
});
export type TranslatedPageRecord = z.infer<typeof translatedPageRecord>;

export const translatedPagesTable = defineTable({
  name: "translated_pages",
  key: "id",
  indexes: { byTranslation: ["translation", "page"] },
  record: translatedPageRecord,
});
