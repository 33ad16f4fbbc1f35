import * as z from "zod";
import { documentInput } from "../document/schema.js";
import { boundedId, pathParam, timestamp, url } from "../shared/schema.js";
import { translationLanguage, translationStats, translationStatus } from "./tables.js";

/** Longest `instructions` document, in characters of its JSON (docs/translations.md, "Limits"). */
export const MAX_INSTRUCTIONS_JSON_LENGTH = 100_000;

export const translationInstructions = documentInput.refine(
  (document) => JSON.stringify(document).length <= MAX_INSTRUCTIONS_JSON_LENGTH,
  { error: `Too big: expected a document of at most ${MAX_INSTRUCTIONS_JSON_LENGTH} characters of JSON` },
);

/** The reference's `TranslationSource`. */
export const translationSource = z.object({ space: boundedId(), language: translationLanguage });

export const organizationParams = z.object({ organizationId: pathParam() });
export const translationParams = organizationParams.extend({ translationId: pathParam() });

export const createTranslationBody = z.object({
  source: translationSource,
  language: translationLanguage,
  instructions: translationInstructions.optional(),
});

export const translationSchema = z.object({
  object: z.literal("translation"),
  id: z.string(),
  status: translationStatus,
  source: z.object({ space: z.string(), language: translationLanguage }),
  language: translationLanguage,
  instructions: z.record(z.string(), z.unknown()),
  result: z.object({ space: z.string(), revision: z.string() }).optional(),
  createdAt: timestamp(),
  updatedAt: timestamp(),
  stats: translationStats,
  permissions: z.object({ view: z.boolean(), edit: z.boolean() }),
  urls: z.object({ location: url() }),
});
export type Translation = z.infer<typeof translationSchema>;
