import type { World } from "../shared/world.js";
import { type JobRecord, jobsTable } from "./tables.js";

/** `running`: claimed by a runner whose lease has not run out. */
export type JobState = "queued" | "running" | "dead";

/** A job as `docsbase.jobs()` shows it. */
export interface JobInfo {
  readonly id: string;
  readonly type: string;
  readonly state: JobState;
  readonly payload: Record<string, unknown>;
  /** Queued: when it is due. Running: when its lease runs out. Absent when dead. */
  readonly runAt?: string;
  /** Attempts started so far. */
  readonly attempts: number;
  /** The message of the last failure, if any. */
  readonly error?: string;
  /** When it was kept as dead. */
  readonly diedAt?: string;
}

export interface JobQuery {
  /** Only jobs in this state. */
  readonly state?: JobState;
  /** At most this many jobs. */
  readonly limit?: number;
}

/**
 * The stored jobs: waiting ones (queued and running) by `runAt`, then dead ones by `diedAt`. For
 * inspection (an operator, a test), not for the API: payloads are internal.
 */
export async function listJobs(world: World, query: JobQuery = {}): Promise<JobInfo[]> {
  const now = world.clock();
  const jobs = await world.storage.read(async (tx) => [
    ...(query.state === "dead" ? [] : await tx.list(jobsTable, { index: "byRunAt" })),
    ...(query.state && query.state !== "dead" ? [] : await tx.list(jobsTable, { index: "byDiedAt" })),
  ]);
  const infos = jobs
    .map((job) => toJobInfo(job, now))
    .filter((job) => !query.state || job.state === query.state);
  return query.limit === undefined ? infos : infos.slice(0, query.limit);
}

export function toJobInfo(job: JobRecord, now: Date): JobInfo {
  const state: JobState = !job.runAt
    ? "dead"
    : job.lease && job.runAt > now.toISOString()
      ? "running"
      : "queued";
  const { lease: _lease, ...shown } = job;
  return { ...shown, state, attempts: job.attempts ?? 0 };
}
