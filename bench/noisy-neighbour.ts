/**
 * One organization's noise, another's latency (docs/security.md): the scenario of
 * test/noisy-neighbour.test.ts, whose test checks what can be counted (B's reads all answer, B's
 * job runs ahead of A's stuck ones); here, B's read latencies (p50, p99, max) and how long B's spec
 * took to be processed. Two runs, one after the other, on `docsbase serve` over SQLite.
 * `npm run bench -- noisy-neighbour`; figures in docs/performance.md.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { loadAverage } from "./load.js";
import { join } from "node:path";
import { quantile, runNoisyNeighbour, startHangingHost } from "../test/support/noisy-neighbour.js";
import { buildCli, ServeProcesses } from "../test/support/serve-process.js";

const RUNS = 2;

export async function benchNoisyNeighbour(): Promise<void> {
  const cli = await buildCli();
  const processes = new ServeProcesses([cli.script]);
  const hanging = await startHangingHost();
  try {
    for (let index = 0; index < RUNS; index++) {
      const directory = mkdtempSync(join(tmpdir(), "docsbase-bench-noisy-"));
      try {
        console.log(`load average at start: ${loadAverage()}`);
        const run = await runNoisyNeighbour(processes, directory, hanging.port);
        const ms = run.reads.map((read) => read.ms);
        console.log(
          `noisy neighbour run ${index + 1}: B's reads ${ms.length}, p50 ${quantile(ms, 0.5).toFixed(1)} ms, ` +
            `p99 ${quantile(ms, 0.99).toFixed(1)} ms, max ${Math.max(...ms).toFixed(1)} ms; ` +
            `B's spec processed after ${run.quietSpecAfterMs} ms; load at end ${loadAverage()}`,
        );
        await processes.killAll();
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    }
  } finally {
    await processes.killAll();
    await hanging.close();
    cli.remove();
  }
}
