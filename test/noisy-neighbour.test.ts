import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_RUNNING_PER_ORGANIZATION } from "../src/core/jobs/queues.js";
import { runNoisyNeighbour, startHangingHost, STUCK_SPECS } from "./support/noisy-neighbour.js";
import { buildCli, ServeProcesses } from "./support/serve-process.js";

/**
 * The "noisy neighbour" of docs/security.md (scenario in test/support/noisy-neighbour.ts): while
 * organization A floods `docsbase serve` over SQLite, organization B's reads all answer, and B's
 * spec, queued after twelve of A's that wait on a host that never answers, is processed before any
 * of them ends while at most two of them run at once: B's job did not queue behind A's. A's work is checked to have been done (or
 * refused), so that a noise that silently failed cannot make the test pass.
 *
 * What B's latency is under that load is measured, not asserted: `npm run bench -- noisy-neighbour`
 * (figures in docs/performance.md).
 */

let cli: Awaited<ReturnType<typeof buildCli>> | undefined;
let processes = new ServeProcesses();
let hanging: Awaited<ReturnType<typeof startHangingHost>>;
const directory = mkdtempSync(join(tmpdir(), "docsbase-noisy-"));

beforeAll(async () => {
  cli = await buildCli();
  processes = new ServeProcesses([cli.script]);
  hanging = await startHangingHost();
});

afterAll(async () => {
  await processes.killAll();
  await hanging?.close();
  cli?.remove();
  rmSync(directory, { recursive: true, force: true });
});

describe("a noisy neighbour on docsbase serve (SQLite)", () => {
  it("answers every read of another organization, and runs its job ahead of the neighbour's stuck ones", async () => {
    const run = await runNoisyNeighbour(processes, directory, hanging.port);

    // A's work was done, or refused, as docs/security.md says.
    expect([...run.noise].sort()).toEqual(
      ["aliases", "conversations", "deep", "integrations", "lookups", "stuck specs"].sort(),
    );
    expect(run.aliasesErrorCode).toBe("PARSE_ERROR");

    // B's reads all answered, and B's spec ran before any of A's stuck specs (queued first) ended.
    expect(run.reads.length).toBeGreaterThan(0);
    expect(run.reads.filter((read) => read.status !== 200)).toEqual([]);
    // A's stuck specs were running meanwhile, never more than an organization's share of drains.
    expect(STUCK_SPECS).toBeGreaterThan(MAX_RUNNING_PER_ORGANIZATION);
    expect(run.stuckRunningAtMost).toBeGreaterThan(0);
    expect(run.stuckRunningAtMost).toBeLessThanOrEqual(MAX_RUNNING_PER_ORGANIZATION);
    expect(run.stuckFinishedBeforeQuiet).toBe(0);
  }, 120_000);
});
