import type { World } from "../shared/world.js";
import { type JobInfo, type JobState, presentJob } from "./present.js";
import { jobsTable } from "./tables.js";

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
    .map((job) => presentJob(job, now))
    .filter((job) => !query.state || job.state === query.state);
  return query.limit === undefined ? infos : infos.slice(0, query.limit);
}
