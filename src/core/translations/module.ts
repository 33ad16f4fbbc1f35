import { defineModule } from "../module.js";
import { forgetTranslation, translationOperations } from "./operations.js";
import { RUN_TRANSLATION_JOB, runTranslation } from "./run.js";
import { translatedPagesTable, translationsTable } from "./tables.js";

/** Translations of spaces by a pluggable engine (docs/translations.md). */
export const translationsModule = defineModule({
  name: "translations",
  tables: [translationsTable, translatedPagesTable],
  operations: translationOperations,
  jobs: { [RUN_TRANSLATION_JOB]: runTranslation },
  hooks: {
    /** A purged source or result space takes its translations with it. */
    async purgeSpace(tx, _world, space) {
      for (const index of ["bySourceSpace", "byResultSpace"] as const) {
        for (const translation of await tx.list(translationsTable, { index, where: [space.id] })) {
          await forgetTranslation(tx, translation.id);
        }
      }
    },
  },
});
