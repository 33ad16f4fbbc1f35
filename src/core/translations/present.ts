import type { World } from "../shared/world.js";
import type { TranslationPermissions } from "./access.js";
import type { Translation } from "./schemas.js";
import type { TranslationRecord } from "./tables.js";

/** A translation's URL in the API. */
export const translationLocation = (
  world: World,
  translation: Pick<TranslationRecord, "organization" | "id">,
) => `${world.baseUrl}/v1/orgs/${translation.organization}/translations/${translation.id}`;

export function presentTranslation(
  world: World,
  translation: TranslationRecord,
  permissions: TranslationPermissions,
): Translation {
  return {
    object: "translation",
    id: translation.id,
    status: translation.status,
    source: { space: translation.sourceSpace, language: translation.sourceLanguage },
    language: translation.language,
    instructions: translation.instructions,
    result: { space: translation.resultSpace, revision: translation.resultRevision },
    createdAt: translation.createdAt,
    updatedAt: translation.updatedAt,
    stats: translation.stats,
    permissions: { view: permissions.view, edit: permissions.edit },
    urls: { location: translationLocation(world, translation) },
  };
}
