import { z } from "zod";
import { startServer } from "../../src/cli/serve.js";
import { jobsTable, scheduleJob, type JobHandler } from "../../src/core/jobs/index.js";
import { defineModule } from "../../src/core/module.js";
import { operatorOnly } from "../../src/core/permissions/rules.js";
import { defineOperation } from "../../src/core/registry.js";
import { defineTable } from "../../src/core/storage/table.js";

/**
 * A docsbase server on PostgreSQL with a test module of its own, for test/postgres/failover.test.ts;
 * `buildInstance()` (pg-build.ts) bundles it and `ServeProcesses` starts it as a child process, with the
 * arguments of `docsbase serve` it understands: `--port N --host H --postgres URL --lease MS
 * --name NAME`. The module queues a `failover.hang` job whose first attempt records that it
 * started, with the end of the lease it runs under, then never ends; a later attempt records that
 * it ran and ends. Every attempt is stamped with the name of the instance and its clock.
 */

const HANG_JOB = "failover.hang";

/** One attempt of a job, recorded by its handler in a write transaction of its own. */
const attemptRecord = z.object({
  /** `<job id>:<attempt>`. */
  id: z.string(),
  job: z.string(),
  attempt: z.number(),
  /** The `--name` of the instance that ran it. */
  instance: z.string(),
  /** The instance's clock when the handler started. */
  startedAt: z.string(),
  /** The job's `runAt` when the handler started: the end of the lease the attempt runs under. */
  leaseEnd: z.string(),
});

const attemptsTable = defineTable({
  name: "failoverAttempts",
  key: "id",
  indexes: { byJob: ["job", "attempt"] },
  record: attemptRecord,
});

const jobView = z.object({
  id: z.string(),
  type: z.string(),
  runAt: z.string().optional(),
  attempts: z.number().optional(),
  leased: z.boolean(),
});

const operator = operatorOnly();

const queueHangJob = defineOperation({
  id: "queueFailoverJob",
  method: "post",
  path: "/failover/jobs",
  tag: "failover",
  summary: "Queue a job whose first attempt never ends",
  access: operator,
  async run(scope) {
    await scheduleJob(scope.tx, scope, undefined, HANG_JOB, scope.clock(), {});
  },
});

const inspect = defineOperation({
  id: "inspectFailover",
  method: "get",
  path: "/failover",
  tag: "failover",
  summary: "The stored jobs and attempts, read in one snapshot",
  access: operator,
  response: z.object({ now: z.string(), jobs: z.array(jobView), attempts: z.array(attemptRecord) }),
  async run({ tx, clock }) {
    const jobs = [
      ...(await tx.list(jobsTable, { index: "byRunAt" })),
      ...(await tx.list(jobsTable, { index: "byDiedAt" })),
    ];
    return {
      now: clock().toISOString(),
      jobs: jobs.map(({ id, type, runAt, attempts, lease }) => ({
        id,
        type,
        ...(runAt ? { runAt } : {}),
        ...(attempts !== undefined ? { attempts } : {}),
        leased: lease !== undefined,
      })),
      attempts: await tx.list(attemptsTable, { index: "byJob" }),
    };
  },
});

function hangOnce(instance: string): JobHandler {
  return async (world, _payload, job) => {
    await world.storage.write(async (tx) => {
      const stored = await tx.get(jobsTable, job.id);
      await tx.put(attemptsTable, {
        id: `${job.id}:${job.attempt}`,
        job: job.id,
        attempt: job.attempt,
        instance,
        startedAt: world.clock().toISOString(),
        leaseEnd: stored?.runAt ?? "",
      });
    });
    // The first attempt holds its lease until the process dies.
    if (job.attempt === 1) await new Promise<never>(() => {});
  };
}

function option(args: readonly string[], name: string): string {
  const at = args.indexOf(name);
  const value = at >= 0 ? args[at + 1] : undefined;
  if (value === undefined) throw new Error(`pg-instance: ${name} is required`);
  return value;
}

const args = process.argv.slice(2);
const instance = option(args, "--name");
const failover = defineModule({
  name: "failover",
  tables: [attemptsTable],
  operations: { queueFailoverJob: queueHangJob, inspectFailover: inspect },
  jobs: { [HANG_JOB]: hangOnce(instance) },
});

const server = await startServer({
  port: Number(option(args, "--port")),
  host: option(args, "--host"),
  postgres: option(args, "--postgres"),
  db: "",
  memory: false,
  jobLeaseMs: Number(option(args, "--lease")),
  jobIntervalMs: 100,
  rateLimit: false,
  ...(process.env["DOCSBASE_ADMIN_TOKEN"] ? { adminToken: process.env["DOCSBASE_ADMIN_TOKEN"] } : {}),
  modules: [failover],
});
process.once("SIGTERM", () => void server.close().then(() => process.exit(0)));
