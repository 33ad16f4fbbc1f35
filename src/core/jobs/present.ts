import type { JobRecord } from "./tables.js";

/** `running`: claimed by a runner whose lease has not run out. */
export type JobState = "queued" | "running" | "dead";

/** A job as `docsbase.jobs()` shows it. */
export interface JobInfo {
  readonly id: string;
  readonly type: string;
  /** The organization it works for; absent for a job of none. */
  readonly organization?: string;
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
 * and the lease's token and end are left out.
 */
export function presentJob(job: JobRecord, now: Date): JobInfo {
  const state: JobState = !job.runAt
    ? "dead"
    : job.lease && job.runAt > now.toISOString()
      ? "running"
      : "queued";
  const { lease: _lease, leasedUntil: _leasedUntil, organization, ...shown } = job;
  return { ...shown, ...(organization ? { organization } : {}), state, attempts: job.attempts ?? 0 };
}
