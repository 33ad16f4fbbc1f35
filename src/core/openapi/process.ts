import type { JobHandler } from "../jobs/schedule.js";
import { PermanentJobError } from "../jobs/runner.js";
import { scheduleJob } from "../jobs/schedule.js";
import type { World } from "../shared/world.js";
import type { WriteTransaction } from "../storage/port.js";
import type { ProcessResult } from "./document.js";
import { specLocation } from "./present.js";
import {
  type OpenAPISpecContent,
  type OpenAPISpecRecord,
  openAPISpecsTable,
  type OpenAPISpecVersionRecord,
  openAPISpecVersionsTable,
} from "./tables.js";

/**
 * The processing job (docs/openapi-specs.md, "Processing"). Every create or PUT bumps the spec's
 * `sourceRevision`, sets `processingState: "pending"` and queues this job in the same transaction.
 * The job marks the spec `progress`, processes the source with no transaction open (it fetches
 * through `world.fetch`), then records the outcome: `complete` with `lastProcessedAt`, and either
 * the error (`lastProcessErrorCode`, `lastProcessedErrors`; no version) or no error and, when the
 * content differs from the latest version's, a new version. A job whose spec was deleted or
 * updated meanwhile drops its outcome: the job queued by the update decides. `processSource` turns
 * every failure of the source into a result and uses no storage, so whatever else it throws would
 * throw again on a retry: that ends as a `PARSE_ERROR` too, and the job dead at once.
 */
export const PROCESS_OPENAPI_SPEC_JOB = "openapi.process-spec";

/** Queues the processing of the spec as it now stands. */
export async function queueProcessing(tx: WriteTransaction, world: World, spec: OpenAPISpecRecord) {
  await scheduleJob(tx, world, spec.organization, PROCESS_OPENAPI_SPEC_JOB, world.clock(), {
    spec: spec.id,
    revision: spec.sourceRevision,
  });
}

/** The content of a version with the document's own key left out, to compare two versions. */
function comparable(content: OpenAPISpecContent): string {
  const others = Object.keys(content.filesystem)
    .filter((key) => key !== content.url)
    .sort()
    .map((key) => [key, content.filesystem[key]]);
  return JSON.stringify([content.filesystem[content.url], others]);
}

export const processOpenAPISpec: JobHandler = async (world, payload, job) => {
  const id = String(payload["spec"]);
  const revision = Number(payload["revision"]);
  const current = (spec: OpenAPISpecRecord | undefined) => spec && spec.sourceRevision === revision;

  const started = await world.storage.write(async (tx) => {
    const spec = await tx.get(openAPISpecsTable, id);
    if (!current(spec)) return undefined;
    const progress: OpenAPISpecRecord = { ...spec!, processingState: "progress" };
    await tx.put(openAPISpecsTable, progress);
    return progress;
  });
  if (!started) return;

  // A text source's document is keyed by the URL its version's content is served at.
  const versionId = world.ids();
  const textKey = `${specLocation(world, started)}/versions/${versionId}/content`;
  let unexpected: unknown;
  // The parser and validator (YAML, the OpenAPI validator) load on the first document processed.
  const result = await import("./document.js")
    .then(({ processSource }) => processSource(world.fetch, started.source, textKey, job.signal))
    .catch((error: unknown): ProcessResult => {
      unexpected = error;
      const message = `${textKey}: the document could not be processed (${error instanceof Error ? error.name : "error"})`;
      return { ok: false, code: "PARSE_ERROR", errors: [{ message, code: "PARSE_ERROR" }] };
    });

  await world.storage.write(async (tx) => {
    const spec = await tx.get(openAPISpecsTable, id);
    if (!current(spec)) return;
    const now = world.clock().toISOString();
    // Drop the previous outcome's error fields; the new outcome sets its own.
    const { lastProcessErrorCode: _code, lastProcessedErrors: _errors, ...rest } = spec!;
    const done: OpenAPISpecRecord = { ...rest, processingState: "complete", lastProcessedAt: now };
    if (!result.ok) {
      await tx.put(openAPISpecsTable, {
        ...done,
        lastProcessErrorCode: result.code,
        lastProcessedErrors: [...result.errors],
      });
      return;
    }
    const content: OpenAPISpecContent = { filesystem: Object.fromEntries(result.files), url: result.root };
    const [latest] = await tx.list(openAPISpecVersionsTable, {
      index: "bySpec",
      where: [spec!.id],
      reverse: true,
      limit: 1,
    });
    if (latest && comparable(latest.content) === comparable(content)) {
      await tx.put(openAPISpecsTable, done);
      return;
    }
    const version: OpenAPISpecVersionRecord = {
      id: versionId,
      spec: spec!.id,
      organization: spec!.organization,
      number: (latest?.number ?? 0) + 1,
      createdAt: now,
      content,
    };
    await tx.put(openAPISpecVersionsTable, version);
    await tx.put(openAPISpecsTable, { ...done, lastVersion: version.id });
  });
  if (unexpected) {
    throw new PermanentJobError(
      `${id}: ${unexpected instanceof Error ? unexpected.message : String(unexpected)}`,
      {
        cause: unexpected,
      },
    );
  }
};
