import { pageTexts } from "../content/write-bodies.js";
import { documentToMarkdown } from "../document/to-markdown.js";
import type { DocumentInput } from "../document/schema.js";
import { commitRevision, requireRevision } from "../content-tree/revisions.js";
import { type FileVersionRecord, type PageVersionRecord, pageVersionsTable } from "../content-tree/tables.js";
import { scheduleJob, type JobHandler } from "../jobs/schedule.js";
import { unavailable } from "../shared/errors.js";
import type { World } from "../shared/world.js";
import { spacesTable } from "../spaces/tables.js";
import type { WriteTransaction } from "../storage/port.js";
import { markdownSegments, oneLine, replaceSegments, wordCount, type Segment } from "./segments.js";
import {
  type TranslatedPageRecord,
  translatedPagesTable,
  type TranslationRecord,
  translationsTable,
} from "./tables.js";
import type { Translator } from "./translator.js";

/**
 * The run job (docs/translations.md, "Runs"). Creating a translation and `runTranslation` bump the
 * translation's `run`, set it `pending` and queue this job in the same transaction. The job:
 *
 * 1. marks the translation `running` and reads the source space's current content (one
 *    transaction);
 * 2. with no transaction open, sends the engine the texts of every page whose title, description,
 *    markdown, languages or instructions changed since the run that produced its current
 *    translation (by digest, kept per page in `translated_pages`), in batches;
 * 3. commits one revision of the result space holding every source page (translated text, the
 *    source's place in the tree) and file, and nothing else, then marks the translation
 *    `completed` with its stats (one transaction). A run that changes nothing commits nothing.
 *
 * If the engine fails, nothing of the run is kept: the result space keeps its previous revision,
 * the translation goes back to `pending` and the job is retried with the runner's backoff.
 */
export const RUN_TRANSLATION_JOB = "translations.run";

/** Texts per call to the engine; an engine may split further (the LibreTranslate one does). */
export const TEXTS_PER_CALL = 100;

/** The 503 of create and run without an engine: names both ways to configure one. */
export const noEngine = () =>
  unavailable(
    "No translation engine is configured: pass `translator` to createDocsbase, " +
      "or set DOCSBASE_TRANSLATOR_URL for `docsbase serve` (docs/translations.md)",
  );

/** Bumps the run counter, sets the translation pending and queues its run. */
export async function queueRun(tx: WriteTransaction, world: World, translation: TranslationRecord) {
  const queued: TranslationRecord = {
    ...translation,
    status: "pending",
    run: translation.run + 1,
    updatedAt: world.clock().toISOString(),
  };
  await tx.put(translationsTable, queued);
  await scheduleJob(tx, world, queued.organization, RUN_TRANSLATION_JOB, world.clock(), {
    translation: queued.id,
    run: queued.run,
  });
  return queued;
}

/** A source page to put in the result: translated now (`segments` set) or by an earlier run. */
interface PagePlan {
  readonly source: PageVersionRecord;
  readonly digest: string;
  /** The earlier translation, reused as it is when this page is not sent. */
  readonly previous?: PageVersionRecord;
  readonly segments?: readonly Segment[];
}

async function sha256(text: string): Promise<string> {
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(hash)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

const instructionsText = (translation: TranslationRecord) =>
  Array.isArray(translation.instructions["nodes"])
    ? documentToMarkdown(translation.instructions as DocumentInput).trim()
    : "";

export const runTranslation: JobHandler = async (world, payload, job) => {
  const id = String(payload["translation"]);
  const run = Number(payload["run"]);
  const translator = world.translator;
  if (!translator) throw noEngine();

  const started = await world.storage.write(async (tx) => {
    const translation = await tx.get(translationsTable, id);
    if (!translation || translation.run > run) return undefined;
    const source = await tx.get(spacesTable, translation.sourceSpace);
    const content =
      source?.state === "live" ? await (await requireRevision(tx, world, source.revision)).full() : undefined;
    const running: TranslationRecord = {
      ...translation,
      status: "running",
      updatedAt: world.clock().toISOString(),
    };
    await tx.put(translationsTable, running);
    const remembered = new Map<string, PageVersionRecord>();
    for (const row of await tx.list(translatedPagesTable, { index: "byTranslation", where: [id] })) {
      const version = await tx.get(pageVersionsTable, row.version);
      if (version) remembered.set(`${row.page}:${row.digest}`, version);
    }
    return {
      translation: running,
      pages: [...(content?.pages.values() ?? [])],
      files: content?.files ?? new Map<string, FileVersionRecord>(),
      remembered,
    };
  });
  if (!started) return;
  const startedAt = world.clock().getTime();
  const { translation } = started;
  const instructions = instructionsText(translation);

  const plans: PagePlan[] = [];
  for (const page of started.pages) {
    const digest = await sha256(
      JSON.stringify([
        translation.sourceLanguage,
        translation.language,
        instructions,
        page.title,
        page.description ?? "",
        page.markdown,
      ]),
    );
    const previous = started.remembered.get(`${page.page}:${digest}`);
    plans.push(
      previous
        ? { source: page, digest, previous }
        : { source: page, digest, segments: markdownSegments(page.markdown) },
    );
  }

  // Every distinct text of the pages to send, once.
  const texts = new Map<string, number>();
  const want = (text: string) => {
    if (text && !texts.has(text)) texts.set(text, texts.size);
  };
  for (const plan of plans) {
    if (!plan.segments) continue;
    want(oneLine(plan.source.title));
    want(oneLine(plan.source.description ?? ""));
    for (const segment of plan.segments) want(segment.text);
  }
  const backToPending = () =>
    world.storage.write(async (tx) => {
      const current = await tx.get(translationsTable, id);
      if (current) await tx.put(translationsTable, { ...current, status: "pending" });
    });
  let translated: string[];
  try {
    translated = await translateAll(
      translator,
      world,
      [...texts.keys()],
      translation,
      instructions,
      job.signal,
    );
  } catch (error) {
    await backToPending();
    throw error;
  }
  const of = (text: string) => (text ? oneLine(translated[texts.get(text)!] ?? "") || text : text);

  // The translated texts of the pages sent, checked against the limits of any page write.
  type Fields = Pick<PageVersionRecord, "title" | "description" | "markdown">;
  const translatedFields = new Map<PagePlan, Fields>();
  for (const plan of plans) {
    if (!plan.segments) continue;
    const { source } = plan;
    const fields: Fields = {
      title: of(oneLine(source.title)) || source.title,
      ...(source.description ? { description: of(oneLine(source.description)) } : {}),
      markdown: replaceSegments(
        source.markdown,
        plan.segments,
        plan.segments.map((segment) => of(segment.text)),
      ),
    };
    const checked = pageTexts.safeParse(fields);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      await backToPending();
      throw new Error(
        `The translation engine's ${String(issue.path[0])} for page ${source.page} breaks the page limits: ${issue.message}`,
      );
    }
    translatedFields.set(plan, fields);
  }

  await world.storage.write(async (tx) => {
    const current = await tx.get(translationsTable, id);
    if (!current) return;
    const now = world.clock();
    const target = await tx.get(spacesTable, current.resultSpace);
    const head = target?.state === "live" ? await requireRevision(tx, world, target.revision) : undefined;
    const base = head && (await head.full());
    const pages = new Map<string, PageVersionRecord | null>();
    let sentPages = 0;
    let words = 0;
    let newPages = 0;
    const rows = new Map(
      (await tx.list(translatedPagesTable, { index: "byTranslation", where: [id] })).map((row) => [
        row.page,
        row,
      ]),
    );
    for (const plan of plans) {
      const { source } = plan;
      let fields: Fields;
      if (plan.segments) {
        sentPages++;
        const sent = [
          oneLine(source.title),
          oneLine(source.description ?? ""),
          ...plan.segments.map((s) => s.text),
        ];
        words += sent.reduce((sum, text) => sum + wordCount(text), 0);
        fields = translatedFields.get(plan)!;
      } else {
        const previous = plan.previous!;
        fields = {
          title: previous.title,
          ...(previous.description !== undefined ? { description: previous.description } : {}),
          markdown: previous.markdown,
        };
      }
      const { description: _description, ...structure } = source;
      const wanted: PageVersionRecord = { ...structure, ...fields, id: "" };
      const existing = base?.pages.get(source.page);
      const same = (version: PageVersionRecord | undefined) =>
        version !== undefined && JSON.stringify({ ...version, id: "" }) === JSON.stringify(wanted);
      const version = same(existing)
        ? existing!
        : same(plan.previous)
          ? plan.previous!
          : { ...wanted, id: world.ids() };
      if (version !== existing) pages.set(source.page, version);
      const row = rows.get(source.page);
      if (!row) newPages++;
      if (!row || row.digest !== plan.digest || row.version !== version.id) {
        const next: TranslatedPageRecord = {
          id: `${id}/${source.page}`,
          translation: id,
          page: source.page,
          digest: plan.digest,
          version: version.id,
        };
        await tx.put(translatedPagesTable, next);
      }
      rows.delete(source.page);
    }
    // Pages gone from the source leave the result, and are forgotten.
    for (const row of rows.values()) await tx.delete(translatedPagesTable, row.id);
    const sourcePages = new Set(plans.map((plan) => plan.source.page));
    for (const page of base?.pages.keys() ?? []) if (!sourcePages.has(page)) pages.set(page, null);
    const files = new Map<string, FileVersionRecord | null>();
    for (const [file, version] of started.files)
      if (base?.files.get(file)?.id !== version.id) files.set(file, version);
    for (const file of base?.files.keys() ?? []) if (!started.files.has(file)) files.set(file, null);

    let resultRevision = current.resultRevision;
    if (target && base && (pages.size > 0 || files.size > 0)) {
      const next = await commitRevision(tx, world, {
        space: target.id,
        base: head ?? null,
        changes: { pages, files },
      });
      resultRevision = next.record.id;
      await tx.put(spacesTable, { ...target, revision: resultRevision, updatedAt: now.toISOString() });
    }
    const duration = Math.round((now.getTime() - startedAt) / 1000);
    const stats = current.stats;
    await tx.put(translationsTable, {
      ...current,
      // A run asked for meanwhile is still to come.
      status: current.run > run ? "pending" : "completed",
      resultRevision,
      stats: {
        runs: stats.runs + 1,
        totalWords: stats.totalWords + words,
        totalPages: stats.totalPages + newPages,
        totalDuration: stats.totalDuration + duration,
        latestRunDuration: duration,
        latestPages: sentPages,
        latestWords: words,
      },
      updatedAt: now.toISOString(),
    });
  });
};

/**
 * Sends `texts` to the engine `TEXTS_PER_CALL` at a time; checks each answer's length. Stops at
 * the job's deadline (`signal`): between calls, and within one through the fetch it lends.
 */
async function translateAll(
  translator: Translator,
  world: World,
  texts: readonly string[],
  translation: TranslationRecord,
  instructions: string,
  signal: AbortSignal,
): Promise<string[]> {
  // An engine that passes a signal of its own keeps it; the runner's deadline still holds.
  const fetch: typeof world.fetch = (input, init) => {
    signal.throwIfAborted();
    return world.fetch(input, { ...init, signal: init?.signal ?? signal });
  };
  const out: string[] = [];
  for (let start = 0; start < texts.length; start += TEXTS_PER_CALL) {
    signal.throwIfAborted();
    const batch = texts.slice(start, start + TEXTS_PER_CALL);
    const answer = await translator(
      { texts: batch, from: translation.sourceLanguage, to: translation.language, instructions },
      { fetch },
    );
    if (
      !Array.isArray(answer) ||
      answer.length !== batch.length ||
      answer.some((text) => typeof text !== "string")
    ) {
      throw new Error(
        `The translation engine answered ${Array.isArray(answer) ? answer.length : "no"} texts for ${batch.length}`,
      );
    }
    out.push(...answer);
  }
  return out;
}
