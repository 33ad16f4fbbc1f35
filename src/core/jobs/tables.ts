import * as z from "zod";
import { defineTable } from "../storage/table.js";

/**
 * A background job (see `./runner.ts` for its life). Its state follows from its fields, so that
 * jobs queued by docsbase 0.1.0 (`id`, `type`, `runAt`, `payload` only) stay valid queued jobs:
 *
 * - queued: `runAt` set, no lease or an expired one (`runAt` <= now): due at `runAt`;
 * - running: `lease` set and `runAt` (the end of the lease) still ahead;
 * - dead: `runAt` absent, `diedAt` set. Without `runAt` the job leaves the `byRunAt` index, so no
 *   runner ever claims it again; it stays until someone removes it.
 */
export const jobRecord = z.object({
  id: z.string(),
  /** The key of its handler in the job handler map. */
  type: z.string(),
  payload: z.record(z.string(), z.unknown()),
  /**
   * The organization the job works for: its queue, which takes turns with the other
   * organizations' (`./queues.ts`). {@link SHARED_QUEUE} for a job queued without one; absent on
   * jobs queued by versions before queues, which run as the shared queue's.
   */
  organization: z.string().optional(),
  /** While queued: when it may next be claimed (its due time, the end of a lease or a backoff). */
  runAt: z.string().optional(),
  /** While running: the end of its lease (its `runAt`); cleared when it ends. */
  leasedUntil: z.string().optional(),
  /** Attempts started so far; absent until the first claim. */
  attempts: z.number().int().min(0).optional(),
  /** The token of the claim holding the job; only that claim may finish it. */
  lease: z.string().optional(),
  /** The message of the last failure. */
  error: z.string().optional(),
  /** When the last attempt failed and the job was kept as dead. */
  diedAt: z.string().optional(),
});
export type JobRecord = z.infer<typeof jobRecord>;

/** The queue of jobs queued without an organization. */
export const SHARED_QUEUE = "";

export const jobsTable = defineTable({
  name: "jobs",
  key: "id",
  indexes: {
    byRunAt: ["runAt"],
    byDiedAt: ["diedAt"],
    // An organization's waiting jobs, earliest first: the head of its queue.
    byOrganizationRunAt: ["organization", "runAt"],
    // An organization's leases, latest end first: how many of its jobs run now.
    byOrganizationLease: ["organization", "leasedUntil"],
  },
  record: jobRecord,
});

/**
 * One organization's place in the turns of the job queue (`./queues.ts`): kept for every
 * organization that has queued a job, in the `byReadyAt` index while it has waiting jobs.
 */
export const jobQueueRecord = z.object({
  /** The organization, or {@link SHARED_QUEUE}. */
  organization: z.string(),
  /**
   * When its turn comes: the later of its earliest waiting job's `runAt` and `lastStartedAt`.
   * Absent while it has no waiting job.
   */
  readyAt: z.string().optional(),
  /** Jobs it has started, all time: among queues ready at the same instant, fewer goes first. */
  starts: z.number().int().min(0),
  /** When it last started a job. */
  lastStartedAt: z.string().optional(),
});
export type JobQueueRecord = z.infer<typeof jobQueueRecord>;

export const jobQueuesTable = defineTable({
  name: "jobQueues",
  key: "organization",
  indexes: { byReadyAt: ["readyAt", "starts"] },
  record: jobQueueRecord,
});
