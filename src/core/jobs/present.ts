import type { JobRecord } from "./tables.js";

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

/**
 * The job as `docsbase.jobs()` shows it at `now`: its state follows from `runAt` and its lease,
 * and the lease token is left out.
 */
export function presentJob(job: JobRecord, now: Date): JobInfo {
  const state: JobState = !job.runAt
    ? "dead"
    : job.lease && job.runAt > now.toISOString()
      ? "running"
      : "queued";
  const { lease: _lease, ...shown } = job;
  return { ...shown, state, attempts: job.attempts ?? 0 };
}
