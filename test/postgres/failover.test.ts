import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildInstance } from "../support/pg-build.js";
import { freshDatabase } from "../support/postgres.js";
import { ApiClient, ServeProcesses, type ServeProcess } from "../support/serve-process.js";

/**
 * Issue 10, "Show": an instance is killed with SIGKILL while it holds a job lease; another instance
 * completes the job once the lease has run out. Two servers (test/support/pg-instance.ts, separate
 * processes) share one PostgreSQL database; both drain jobs every 100 ms, so the survivor is
 * looking for due jobs during the whole lease, and the job is taken over only when the lease ends.
 */

const ADMIN_TOKEN = "dbt_failover_operator_token_0123456789";
const LEASE_MS = 3000;

interface Attempt {
  readonly id: string;
  readonly job: string;
  readonly attempt: number;
  readonly instance: string;
  readonly startedAt: string;
  readonly leaseEnd: string;
}
interface Snapshot {
  readonly now: string;
  readonly jobs: { id: string; type: string; runAt?: string; attempts?: number; leased: boolean }[];
  readonly attempts: Attempt[];
}

async function inspect(client: ApiClient): Promise<Snapshot> {
  const answer = await client.send("GET", "/failover");
  if (answer.status !== 200)
    throw new Error(`GET /failover: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body as Snapshot;
}

/** Polls `probe` until it returns a value, or throws `what` after `ms`. */
async function eventually<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("failover on PostgreSQL", () => {
  let instance: Awaited<ReturnType<typeof buildInstance>> | undefined;
  let processes: ServeProcesses | undefined;
  let url = "";

  beforeAll(async () => {
    [url, instance] = await Promise.all([freshDatabase("failover"), buildInstance()]);
    processes = new ServeProcesses([instance.script]);
  });
  afterAll(async () => {
    await processes?.killAll();
    instance?.remove();
  });

  it(
    "lets another instance finish a job whose runner was killed, once the lease ends",
    { timeout: 90_000 },
    async () => {
      const env = { DOCSBASE_ADMIN_TOKEN: ADMIN_TOKEN };
      const start = (name: string) =>
        processes!.start(["--postgres", url, "--lease", String(LEASE_MS), "--name", name], env);
      // Started together: concurrent init and bootstrap on one empty database.
      const servers = new Map<string, ServeProcess>(
        await Promise.all(["A", "B"].map(async (name) => [name, await start(name)] as const)),
      );
      const client = (name: string) => new ApiClient(servers.get(name)!.url, ADMIN_TOKEN);

      const queued = await client("A").send("POST", "/failover/jobs");
      expect(queued.status).toBeLessThan(300);

      // One of the two claims it (A, whose request starts a drain at once, nearly always).
      const first = await eventually("an instance holds the job", 20_000, async () => {
        const { attempts } = await inspect(client("A"));
        return attempts.find((attempt) => attempt.attempt === 1);
      });
      const survivor = first.instance === "A" ? "B" : "A";
      // The lease is in the shared database: the survivor sees the job claimed.
      const during = await inspect(client(survivor));
      expect(during.jobs).toEqual([
        {
          id: first.job,
          type: "failover.hang",
          runAt: expect.any(String),
          attempts: expect.any(Number),
          leased: true,
        },
      ]);
      expect(Date.parse(first.leaseEnd) - Date.parse(first.startedAt)).toBeGreaterThan(0);
      expect(Date.parse(first.leaseEnd) - Date.parse(first.startedAt)).toBeLessThanOrEqual(LEASE_MS);

      const killed = servers.get(first.instance)!;
      killed.child.kill("SIGKILL");
      expect(await killed.exited).toBe("SIGKILL");

      const done = await eventually("the survivor completes the job", 30_000, async () => {
        const snapshot = await inspect(client(survivor));
        return snapshot.jobs.length === 0 ? snapshot : undefined;
      });
      expect(done.attempts).toEqual([
        first,
        {
          id: `${first.job}:2`,
          job: first.job,
          attempt: 2,
          instance: survivor,
          startedAt: expect.any(String),
          leaseEnd: expect.any(String),
        },
      ]);
      const second = done.attempts[1]!;
      // Taken over no earlier than the end of the dead runner's lease, under a lease of its own; both
      // times come from the clocks of the instances (one machine), as stored by the job's handler.
      expect(Date.parse(second.startedAt)).toBeGreaterThanOrEqual(Date.parse(first.leaseEnd));
      expect(Date.parse(second.leaseEnd)).toBeGreaterThan(Date.parse(second.startedAt));
      expect(servers.get(survivor)!.child.exitCode).toBeNull();
    },
  );
});
