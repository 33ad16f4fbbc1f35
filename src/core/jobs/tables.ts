import { z } from "zod";
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
  /** While queued: when it may next be claimed (its due time, the end of a lease or a backoff). */
  runAt: z.string().optional(),
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

export const jobsTable = defineTable({
  name: "jobs",
  key: "id",
  indexes: { byRunAt: ["runAt"], byDiedAt: ["diedAt"] },
  record: jobRecord,
});
