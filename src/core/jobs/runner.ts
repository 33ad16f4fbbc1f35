import type { World } from "../shared/world.js";
import { type JobInfo, presentJob } from "./present.js";
import { nextDueJob, refreshQueue } from "./queues.js";
import type { JobHandlers } from "./schedule.js";
import { type JobRecord, jobsTable, SHARED_QUEUE } from "./tables.js";

/** Attempts before a failing job is kept as dead, unless configured otherwise. */
export const DEFAULT_MAX_ATTEMPTS = 8;
/** How long a claim holds a job, unless configured otherwise; see {@link JobRunnerOptions.leaseMs}. */
export const DEFAULT_LEASE_MS = 5 * 60_000;
/**
 * How long an attempt may run, unless configured otherwise; see
 * {@link JobRunnerOptions.jobTimeoutMs}.
 */
export const DEFAULT_JOB_TIMEOUT_MS = 60_000;
/** How long the runner still waits for an attempt told to stop, at most. */
const LONGEST_GRACE_MS = 5_000;
const FIRST_RETRY_MS = 30_000;
const LONGEST_RETRY_MS = 60 * 60_000;
/** Error messages are kept for inspection, not as logs: a long one is cut. */
const ERROR_CHARS = 2000;

export interface JobRunnerOptions {
  /** Attempts before a failing job is kept as dead. Default 8 (`DEFAULT_MAX_ATTEMPTS`). */
  readonly maxAttempts?: number;
  /**
   * How long a claim holds a job: another runner may claim it again once the lease has run out,
   * on the assumption that its runner died. A handler should finish well within it (a long task is
   * better split into several jobs). Default 5 minutes (`DEFAULT_LEASE_MS`).
   */
  readonly leaseMs?: number;
  /**
   * How long an attempt may run: then its `signal` aborts, which the handler heeds (it stops and
   * records what it must), and after as long again, up to 5 s, the runner stops waiting for it:
   * the attempt fails with a `JobTimeoutError` and the drain goes on with the next job. So
   * no job holds a drain longer than this and its grace. Keep `leaseMs` above both. Default
   * 60 s (`DEFAULT_JOB_TIMEOUT_MS`).
   */
  readonly jobTimeoutMs?: number;
  /** Told of each failed attempt once it is recorded: `job` is queued again, or dead. */
  readonly onFailure?: (job: JobInfo, error: unknown) => void;
  /** Stops the drain between two jobs (a job already started still runs to its end). */
  readonly signal?: AbortSignal;
}

/**
 * Thrown by a handler whose job failed for a reason a retry cannot fix (the input itself is bad):
 * the job is kept as dead at once, with this error, instead of being retried.
 *
 * @example
 * ```ts
 * if (!parsable(payload)) throw new PermanentJobError("payload: not a spec revision");
 * ```
 */
export class PermanentJobError extends Error {
  override readonly name = "PermanentJobError";
}

/** The failure of an attempt that ran past its deadline (`jobTimeoutMs` and its grace). */
export class JobTimeoutError extends Error {
  override readonly name = "JobTimeoutError";
}

/**
 * The delay before attempt `attempt + 1` once attempt `attempt` failed: 30 s, 1 min, 2 min...
 * doubling up to an hour.
 */
export function retryDelayMs(attempt: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempt - 1), LONGEST_RETRY_MS);
}

/**
 * Runs the jobs due at the world's clock, one after the other, until none is due; returns how
 * many it started (succeeded or failed). Each job goes through three steps, so that its handler
 * runs outside any transaction and two runners over one storage never run it at the same time:
 *
 * 1. claim, in a write transaction: the due job whose organization's turn it is (`./queues.ts`:
 *    organizations take turns, and one holding several running jobs waits for the others) gets
 *    a lease, a fresh token and a `runAt` at the lease's end, which also puts it behind every
 *    other due job;
 * 2. run its handler, with no transaction open;
 * 3. finish, in a write transaction, only if the job still holds that token: delete it on success;
 *    on failure, queue it again after {@link retryDelayMs}, or keep it as dead after the last
 *    attempt (or at once for a {@link PermanentJobError}). A token that changed means the lease ran out and another runner claimed the job:
 *    that runner's outcome counts, this one's is dropped.
 *
 * So a job runs at least once and, while its lease holds, on one runner only. A job type without a
 * handler fails like a throwing handler: an instance of another version sharing the storage may
 * know it, and the attempt limit still ends it as dead, with the reason, rather than retrying it
 * forever.
 *
 * @example
 * ```ts
 * const ran = await runDueJobs(world, { purgeSpace: purgeDeletedSpace }, { maxAttempts: 5 });
 * ```
 */
export async function runDueJobs(
  world: World,
  handlers: JobHandlers,
  options: JobRunnerOptions = {},
): Promise<number> {
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const timeoutMs = options.jobTimeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError("maxAttempts: an integer >= 1");
  if (!(leaseMs > 0)) throw new RangeError("leaseMs: a positive number");
  if (!(timeoutMs > 0)) throw new RangeError("jobTimeoutMs: a positive number");
  let ran = 0;
  while (!options.signal?.aborted) {
    const job = await claim(world, leaseMs);
    if (!job) break;
    ran++;
    const failure = await attempt(world, handlers, job, timeoutMs);
    const after = await finish(world, job, failure, maxAttempts);
    if (failure && after) options.onFailure?.(presentJob(after, world.clock()), failure.error);
  }
  return ran;
}

type Claimed = JobRecord & { readonly lease: string; readonly attempts: number };

async function claim(world: World, leaseMs: number): Promise<Claimed | undefined> {
  return world.storage.write(async (tx) => {
    const now = world.clock().toISOString();
    const job = await nextDueJob(tx, now);
    if (!job?.runAt || job.runAt > now) return undefined;
    const leaseEnd = new Date(Date.parse(now) + leaseMs).toISOString();
    const claimed: Claimed = {
      ...job,
      runAt: leaseEnd,
      leasedUntil: leaseEnd,
      attempts: (job.attempts ?? 0) + 1,
      lease: world.ids(),
    };
    await tx.put(jobsTable, claimed);
    await refreshQueue(tx, job.organization ?? SHARED_QUEUE, now);
    return claimed;
  });
}

/**
 * Runs one attempt: its signal aborts after `timeoutMs`, and the runner waits at most as long
 * again (up to {@link LONGEST_GRACE_MS}) for a handler that does not heed it.
 */
async function attempt(
  world: World,
  handlers: JobHandlers,
  job: Claimed,
  timeoutMs: number,
): Promise<{ error: unknown } | undefined> {
  const stop = new AbortController();
  const timers: ReturnType<typeof setTimeout>[] = [];
  try {
    const handler = handlers[job.type];
    if (!handler) throw new Error(`No handler for job type "${job.type}"`);
    const late = new JobTimeoutError(`The job did not finish within ${timeoutMs} ms`);
    const overdue = new Promise<never>((_, reject) => {
      timers.push(setTimeout(() => stop.abort(late), timeoutMs));
      timers.push(setTimeout(() => reject(late), timeoutMs + Math.min(timeoutMs, LONGEST_GRACE_MS)));
    });
    const attempt = { id: job.id, type: job.type, attempt: job.attempts, signal: stop.signal };
    await Promise.race([handler(world, job.payload, attempt), overdue]);
    return undefined;
  } catch (error) {
    return { error };
  } finally {
    for (const timer of timers) clearTimeout(timer);
  }
}

/** Records the outcome of an attempt; returns the job as kept after a failure. */
async function finish(
  world: World,
  job: Claimed,
  failure: { error: unknown } | undefined,
  maxAttempts: number,
): Promise<JobRecord | undefined> {
  return world.storage.write(async (tx) => {
    const current = await tx.get(jobsTable, job.id);
    if (current?.lease !== job.lease) return undefined;
    if (!failure) {
      await tx.delete(jobsTable, job.id);
      await refreshQueue(tx, job.organization ?? SHARED_QUEUE);
      return undefined;
    }
    const now = world.clock();
    const { lease: _lease, runAt: _runAt, leasedUntil: _leasedUntil, ...rest } = current;
    const error = messageOf(failure.error);
    const kept: JobRecord =
      job.attempts >= maxAttempts || failure.error instanceof PermanentJobError
        ? { ...rest, error, diedAt: now.toISOString() }
        : { ...rest, error, runAt: new Date(now.getTime() + retryDelayMs(job.attempts)).toISOString() };
    await tx.put(jobsTable, kept);
    await refreshQueue(tx, job.organization ?? SHARED_QUEUE);
    return kept;
  });
}

function messageOf(error: unknown): string {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return message.length > ERROR_CHARS ? `${message.slice(0, ERROR_CHARS - 1)}…` : message;
}
