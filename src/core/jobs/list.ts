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

/**
 * When the earliest waiting job falls due (a queued job's `runAt`, a running one's lease end), or
 * undefined when none waits: where a controlled clock moving forward must stop next to run jobs on
 * time (the test double's `clock.advance`).
 */
export async function nextJobAt(world: Pick<World, "storage">): Promise<Date | undefined> {
  const [job] = await world.storage.read((tx) => tx.list(jobsTable, { index: "byRunAt", limit: 1 }));
  return job?.runAt === undefined ? undefined : new Date(job.runAt);
}
