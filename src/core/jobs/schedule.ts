import type { World } from "../shared/world.js";
import type { WriteTransaction } from "../storage/port.js";
import { refreshQueue } from "./queues.js";
import { type JobRecord, jobsTable, SHARED_QUEUE } from "./tables.js";

/** Which attempt of which job a handler is running. */
export interface JobAttempt {
  readonly id: string;
  readonly type: string;
  /** 1 on the first attempt. */
  readonly attempt: number;
  /**
   * Aborts when the attempt has run its time (`jobTimeoutMs`, 60 s by default): the handler should
   * then stop, record what it must and return; the runner stops waiting for it soon after.
   */
  readonly signal: AbortSignal;
}

/**
 * Runs one job. It is called outside any storage transaction: it opens its own
 * (`world.storage.write(...)`) and may call the network between them (`world.fetch`). It may run
 * more than once (a retry after a failure, or after its runner died mid-way), so it must be
 * idempotent: check the state it is about to change, as `purgeDeletedSpace` does. Throwing (or
 * rejecting) fails the attempt; it is retried with backoff, then kept as dead. Throwing a
 * `PermanentJobError` (a failure no retry can fix) keeps it as dead at once.
 */
export type JobHandler = (world: World, payload: Record<string, unknown>, job: JobAttempt) => Promise<void>;

/** A resource's job handlers, keyed by job type: what a module declares and the runner takes. */
export type JobHandlers = Readonly<Record<string, JobHandler>>;

/**
 * Queues a job in the operation's write transaction, so that it exists exactly when the change
 * needing it commits. `runAt` may be now (work to do at once, started within a second) or later
 * (a permanent removal at the end of a retention window). The payload is stored as JSON.
 * `organization` is the organization the job works for: its jobs take turns with other
 * organizations' (docs/security.md, "Job queue fairness"); a job for no organization goes in the
 * shared queue, which takes turns as one organization.
 *
 * @example
 * ```ts
 * const purgeAt = new Date(now.getTime() + SPACE_RETENTION_MS);
 * await scheduleJob(tx, context, space.organization, PURGE_SPACE_JOB, purgeAt, { space: space.id, deletedAt });
 * ```
 */
export async function scheduleJob(
  tx: WriteTransaction,
  world: World,
  organization: string | undefined,
  type: string,
  runAt: Date,
  payload: Record<string, unknown>,
): Promise<void> {
  const queue = organization ?? SHARED_QUEUE;
  const job: JobRecord = { id: world.ids(), type, organization: queue, runAt: runAt.toISOString(), payload };
  await tx.put(jobsTable, job);
  await refreshQueue(tx, queue);
  world.jobQueued?.(runAt);
}
