import { defineOperation, deleted, noContent, Reply } from "../registry.js";
import { badRequest } from "../shared/errors.js";
import { listOf, pageQuery, paginate } from "../shared/pagination.js";
import { endPosition } from "../shared/positions.js";
import { insertSpace, visibilityUnder } from "../spaces/records.js";
import { spacesTable } from "../spaces/tables.js";
import { inTranslations, onTranslation, onTranslationIfPresent } from "./access.js";
import { presentTranslation, translationLocation } from "./present.js";
import { noEngine, queueRun } from "./run.js";
import {
  createTranslationBody,
  organizationParams,
  type Translation,
  translationInstructions,
  translationParams,
  translationSchema,
} from "./schemas.js";
import * as z from "zod";
import { translatedPagesTable, type TranslationRecord, translationsTable } from "./tables.js";

/**
 * Translations of an organization (docs/translations.md): listed and read
 * by `read` members, created, changed, run and deleted by admins. Creating one makes its result
 * space and queues a run (`run.ts`); without an engine, create and run answer 503.
 */

const tag = "translations";
const EMPTY_DOCUMENT = { object: "document", data: {}, nodes: [] };
/** A space title is at most 50 characters (`spaceTitle`). */
const MAX_SPACE_TITLE = 50;

export const listTranslations = defineOperation({
  id: "listTranslations",
  method: "get",
  path: "/orgs/{organizationId}/translations",
  tag,
  summary: "List the translations of an organization, oldest first",
  params: organizationParams,
  access: inTranslations("view"),
  query: z.object({ ...pageQuery }),
  response: listOf(translationSchema),
  async run(scope, { params, query }) {
    return paginate<TranslationRecord, Translation>(scope.tx, query, {
      table: translationsTable,
      index: "byOrganization",
      where: [params.organizationId],
      map: (translation) => presentTranslation(scope, translation, scope.permissions),
    });
  },
});

export const createTranslation = defineOperation({
  id: "createTranslation",
  method: "post",
  path: "/orgs/{organizationId}/translations",
  tag,
  summary:
    "Translate a space into a language: makes the result space and queues a run (503 without an engine)",
  params: organizationParams,
  access: inTranslations("edit"),
  body: createTranslationBody,
  response: translationSchema,
  status: 201,
  async run(scope, { params, body }) {
    const { tx } = scope;
    if (!scope.translator) throw noEngine();
    const source = await tx.get(spacesTable, body.source.space);
    if (!source || source.organization !== params.organizationId || source.state !== "live") {
      throw badRequest(`body.source.space: no space "${body.source.space}" in this organization`);
    }
    if (body.language === body.source.language) {
      throw badRequest(`body.language: "${body.language}" is the source's language`);
    }
    const suffix = ` (${body.language})`;
    const result = await insertSpace(tx, scope, {
      organization: params.organizationId,
      parent: source.parent,
      position: await endPosition(tx, params.organizationId),
      title: source.title.slice(0, MAX_SPACE_TITLE - suffix.length) + suffix,
      emoji: source.emoji,
      visibility: visibilityUnder(source.parent),
      editMode: "live",
      defaultLevel: "inherit",
      language: body.language,
    });
    const now = scope.clock().toISOString();
    const translation = await queueRun(tx, scope, {
      id: scope.ids(),
      organization: params.organizationId,
      status: "pending",
      sourceSpace: source.id,
      sourceLanguage: body.source.language,
      language: body.language,
      instructions: body.instructions ?? EMPTY_DOCUMENT,
      resultSpace: result.id,
      resultRevision: result.revision,
      run: 0,
      stats: {
        runs: 0,
        totalWords: 0,
        totalPages: 0,
        totalDuration: 0,
        latestRunDuration: 0,
        latestPages: 0,
        latestWords: 0,
      },
      createdAt: now,
      updatedAt: now,
    });
    return new Reply(201, presentTranslation(scope, translation, scope.permissions), {
      location: translationLocation(scope, translation),
    });
  },
});

export const getTranslation = defineOperation({
  id: "getTranslation",
  method: "get",
  path: "/orgs/{organizationId}/translations/{translationId}",
  tag,
  summary: "Get a translation",
  params: translationParams,
  access: onTranslation("view"),
  response: translationSchema,
  async run(scope) {
    return presentTranslation(scope, scope.translation, scope.permissions);
  },
});

export const updateTranslation = defineOperation({
  id: "updateTranslation",
  method: "put",
  path: "/orgs/{organizationId}/translations/{translationId}",
  tag,
  summary: "Replace a translation's instructions; the next run translates every page again with them",
  params: translationParams,
  access: onTranslation("edit"),
  body: z.object({ instructions: translationInstructions }),
  response: translationSchema,
  async run(scope, { body }) {
    const updated: TranslationRecord = {
      ...scope.translation,
      instructions: body.instructions,
      updatedAt: scope.clock().toISOString(),
    };
    await scope.tx.put(translationsTable, updated);
    return presentTranslation(scope, updated, scope.permissions);
  },
});

export const deleteTranslation = defineOperation({
  id: "deleteTranslation",
  method: "delete",
  path: "/orgs/{organizationId}/translations/{translationId}",
  tag,
  summary: "Delete a translation (205; 204 when there was none); its result space stays",
  params: translationParams,
  access: onTranslationIfPresent("edit"),
  emptyStatuses: [204, 205],
  async run({ tx, translation }) {
    if (!translation) return deleted(false);
    await forgetTranslation(tx, translation.id);
    return deleted(true);
  },
});

export const runTranslationNow = defineOperation({
  id: "runTranslation",
  method: "post",
  path: "/orgs/{organizationId}/translations/{translationId}/run",
  tag,
  summary: "Queue a run of the translation (204; 503 without an engine)",
  params: translationParams,
  access: onTranslation("edit"),
  emptyStatuses: [204],
  async run(scope) {
    if (!scope.translator) throw noEngine();
    await queueRun(scope.tx, scope, scope.translation);
    return noContent();
  },
});

/** Removes a translation and what its runs remember; its result space is left alone. */
export async function forgetTranslation(tx: Parameters<typeof queueRun>[0], id: string) {
  for (const row of await tx.list(translatedPagesTable, { index: "byTranslation", where: [id] })) {
    await tx.delete(translatedPagesTable, row.id);
  }
  await tx.delete(translationsTable, id);
}

export const translationOperations = {
  listTranslations,
  createTranslation,
  getTranslation,
  updateTranslation,
  deleteTranslation,
  runTranslation: runTranslationNow,
};
