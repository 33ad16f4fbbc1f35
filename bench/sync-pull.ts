/**
 * Issue 26: pulling a 5,000-page space into a replica (`docsbase/sync`), from a real HTTP server on
 * 127.0.0.1 (node:http around `docsbase.fetch`, memory storage) into a memory replica and a SQLite
 * one: the first pull, a pull of the unchanged space (one request), and a pull after one page
 * changed on the server. Pages of about 1 KiB of markdown, in folders of 100 (as the 5,000-page
 * test seeds them). Three runs of each, each into a fresh replica; the median and the range.
 * `npm run bench -- sync-pull`; figures in docs/performance.md.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryStorage } from "../src/adapters/memory/index.js";
import { sqliteStorage } from "../src/adapters/sqlite/index.js";
import type { Storage } from "../src/core/storage/port.js";
import { createDocsbase } from "../src/docsbase.js";
import { createReplica } from "../src/sync/index.js";
import { seedLargeSpace } from "../test/support/large-space.js";
import { startSyncServer } from "../test/support/sync-server.js";
import { loadAverage } from "./load.js";

const PAGES = 5000;
const RUNS = 3;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const show = (label: string, values: number[]) =>
  console.log(
    `${label.padEnd(52)} median ${median(values).toFixed(0).padStart(6)} ms ` +
      `(${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)})`,
  );

export async function benchSyncPull(): Promise<void> {
  console.log(`load average at start: ${loadAverage()}`);
  const directory = mkdtempSync(join(tmpdir(), "docsbase-sync-bench-"));
  const storage = memoryStorage();
  const server = await startSyncServer(storage);
  try {
    const alice = await server.user("Alice");
    const org = await alice.client.createOrganization({ body: { title: "Acme" } });
    const { id: spaceId } = await alice.client.createSpace({
      organizationId: org.id,
      body: { title: "Big" },
    });
    const ids = await seedLargeSpace(storage, spaceId, PAGES, { markdownBytes: 1024 });
    const replicas: Record<string, (run: number) => Storage> = {
      memory: () => memoryStorage(),
      sqlite: (run) => sqliteStorage({ filename: join(directory, `replica-${run}.sqlite`) }),
    };
    for (const [kind, open] of Object.entries(replicas)) {
      const first: number[] = [];
      const unchanged: number[] = [];
      const onePage: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const local = createDocsbase({ storage: open(run) });
        const replica = await createReplica({ docsbase: local, remote: server.base, token: alice.token });
        let start = performance.now();
        const pulled = await replica.pull(spaceId);
        first.push(performance.now() - start);
        if (pulled.pages !== PAGES) throw new Error(`pulled ${pulled.pages} pages`);
        start = performance.now();
        await replica.pull(spaceId);
        unchanged.push(performance.now() - start);
        await alice.client.updatePage({
          spaceId,
          pageId: ids[(run * 997) % PAGES]!,
          body: { markdown: `# Changed ${kind} ${run}\n` },
        });
        start = performance.now();
        await replica.pull(spaceId);
        onePage.push(performance.now() - start);
        await local.close();
      }
      show(`${kind} replica: first pull of ${PAGES} pages`, first);
      show(`${kind} replica: pull of the unchanged space`, unchanged);
      show(`${kind} replica: pull after one page changed`, onePage);
    }
  } finally {
    await server.close();
    rmSync(directory, { recursive: true, force: true });
  }
  console.log(`load average at end: ${loadAverage()}`);
}
