import type { WriteTransaction } from "./storage/port.js";
import { tables, type JobRecord } from "./tables.js";
import type { World } from "./shared/world.js";

/**
 * Background work (DESIGN.md, "Background work"): one mechanism for every runtime. Operations
 * schedule a job in the same transaction as the change that needs it; whoever hosts docsbase
 * drains due jobs: the standalone server on a timer, a worker through `waitUntil`, a test on
 * demand (`docsbase.runJobs()`). Each job runs in its own write transaction and is removed in it,
 * so a job runs to completion exactly once or not at all.
 */
export type JobHandler = (
  tx: WriteTransaction,
  world: World,
  payload: Record<string, unknown>,
) => Promise<void>;

export async function scheduleJob(
  tx: WriteTransaction,
  world: World,
  type: string,
  runAt: Date,
  payload: Record<string, unknown>,
): Promise<void> {
  const job: JobRecord = { id: world.ids(), type, runAt: runAt.toISOString(), payload };
  await tx.put(tables.jobs.name, job);
}

/** Runs every job due at the world's current time; returns how many ran. */
export async function runDueJobs(
  world: World,
  handlers: Readonly<Record<string, JobHandler>>,
): Promise<number> {
  let ran = 0;
  for (;;) {
    const now = world.clock().toISOString();
    const done = await world.storage.write(async (tx) => {
      const [job] = await tx.list<JobRecord>(tables.jobs.name, { index: "byRunAt", limit: 1 });
      if (!job || job.runAt > now) return false;
      await tx.delete(tables.jobs.name, job.id);
      const handler = handlers[job.type];
      // An unknown type comes from a newer or older version; dropping it beats retrying forever.
      if (handler) await handler(tx, world, job.payload);
      return true;
    });
    if (!done) return ran;
    ran++;
  }
}
