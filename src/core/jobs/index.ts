/**
 * Background work: one mechanism for every runtime. An operation
 * queues a job in the write transaction of the change that needs it (`scheduleJob`); whoever hosts
 * docsbase drains due jobs (`runDueJobs`): the standalone server every second and at once after a
 * request that queued one, a worker through `waitUntil`, a test on demand (`docsbase.runJobs()`).
 * A handler runs outside storage transactions, under a lease, with retries and a dead state.
 */
export { backgroundJobs, type BackgroundContext, type JobOptions } from "./background.js";
export { listJobs, nextJobAt, type JobQuery } from "./list.js";
export type { JobInfo, JobState } from "./present.js";
export {
  DEFAULT_JOB_TIMEOUT_MS,
  DEFAULT_LEASE_MS,
  JobTimeoutError,
  DEFAULT_MAX_ATTEMPTS,
  PermanentJobError,
  retryDelayMs,
  runDueJobs,
  type JobRunnerOptions,
} from "./runner.js";
export { MAX_RUNNING_PER_ORGANIZATION } from "./queues.js";
export { scheduleJob, type JobAttempt, type JobHandler, type JobHandlers } from "./schedule.js";
export { jobRecord, jobsTable, type JobRecord } from "./tables.js";
