/**
 * Benchmarks (`npm run bench`): storage adapters and the HTTP server, measured on this machine.
 * Figures go in docs/performance.md; no test depends on timing.
 *
 * PostgreSQL is a server of its own, started here by the tests' launcher (initdb into a temporary
 * directory; fsync, synchronous_commit and full_page_writes off) and stopped at the end.
 * `npm run bench -- postgres` runs only the PostgreSQL figures and the separate-process ones;
 * `npm run bench -- content` (or `lists`, `search`, `http`) only that part of issue 8's figures;
 * `RATIO_MODE=processes npm run bench -- http` runs the HTTP ratio with docsbase serve, the bare
 * server and the load generator in three processes (bench/http-ratio.ts).
 */
import autocannon from "autocannon";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryStorage } from "../src/adapters/memory/index.js";
import { postgresStorage } from "../src/adapters/postgres/index.js";
import { sqliteStorage } from "../src/adapters/sqlite/index.js";
import { startServer } from "../src/cli/serve.js";
import type { Storage } from "../src/core/storage/port.js";
import { defineTable } from "../src/core/storage/table.js";
import { z } from "zod";
import { createDatabase, startPostgres } from "../test/support/postgres-server.js";
import { benchAnalysis } from "./analysis.js";
import { benchContent } from "./content.js";
import { benchCreationAndLinks } from "./creation.js";
import { benchHttpRatio } from "./http-ratio.js";
import { benchLists } from "./lists.js";
import { benchMarkdown } from "./markdown.js";
import { benchPermissions } from "./permissions.js";
import { benchSearch } from "./search.js";
import { benchSearchAll } from "./search-all.js";
import { benchInstances } from "./instances.js";
import { benchDouble } from "./double.js";
import { benchTypedoc } from "./typedoc.js";
import { benchBundle } from "./bundle.js";
import { benchWrittenLinks } from "./written-links.js";
import { benchNoisyNeighbour } from "./noisy-neighbour.js";
import { benchEmbeds } from "./embeds.js";
import { benchReusableContents } from "./reusable-contents.js";
import { benchMentions } from "./mentions.js";
import { benchSyncPull } from "./sync-pull.js";
import { benchLookups } from "./lookups.js";

const directory = mkdtempSync(join(tmpdir(), "docsbase-bench-"));
const items = defineTable({
  name: "items",
  key: "id",
  indexes: { byGroup: ["group", "rank"] },
  record: z.object({ id: z.string(), group: z.string(), rank: z.number(), title: z.string() }),
});
const schema = { tables: [items] };
const ROWS = 10_000;

async function time(label: string, operations: number, fn: () => Promise<void>) {
  const start = performance.now();
  await fn();
  const ms = performance.now() - start;
  console.log(
    `${label.padEnd(44)} ${Math.round((operations / ms) * 1000)
      .toLocaleString("en")
      .padStart(10)} ops/s`,
  );
}

async function benchStorage(name: string, storage: Storage) {
  await storage.init(schema);
  await time(`${name}: put ${ROWS} rows in one transaction`, ROWS, () =>
    storage.write(async (tx) => {
      for (let i = 0; i < ROWS; i++) {
        await tx.put(items, { id: `item${i}`, group: `g${i % 10}`, rank: i, title: `Item ${i}` });
      }
    }),
  );
  await time(`${name}: 1000 single-put transactions`, 1000, async () => {
    for (let i = 0; i < 1000; i++) {
      await storage.write((tx) => tx.put(items, { id: `extra${i}`, group: "g0", rank: -i, title: "x" }));
    }
  });
  await time(`${name}: get by key`, ROWS, () =>
    storage.read(async (tx) => {
      for (let i = 0; i < ROWS; i++) await tx.get(items, `item${i}`);
    }),
  );
  await time(`${name}: list pages of 100 on an index`, 100, () =>
    storage.read(async (tx) => {
      for (let i = 0; i < 100; i++)
        await tx.list(items, { index: "byGroup", where: [`g${i % 10}`], limit: 100 });
    }),
  );
  await storage.close();
}

async function benchHttp(storage: "memory" | "sqlite" | { postgres: string }) {
  const server = await startServer({
    port: 0,
    host: "127.0.0.1",
    db: join(directory, "http.sqlite"),
    memory: storage === "memory",
    ...(typeof storage === "object" ? storage : {}),
    adminToken: "dbt_bench_operator_token",
    // One token at full speed: the default per-caller limit would answer most requests 429.
    rateLimit: false,
    log: () => {},
  });
  const headers = { authorization: "Bearer dbt_bench_operator_token", "content-type": "application/json" };
  const created = await fetch(`${server.url}/v1/orgs`, {
    method: "POST",
    headers,
    body: JSON.stringify({ title: "Bench" }),
  });
  const { id } = (await created.json()) as { id: string };
  const result = await autocannon({
    url: `${server.url}/v1/orgs/${id}`,
    headers,
    connections: 50,
    duration: 10,
  });
  console.log(
    `HTTP GET /v1/orgs/{id} (${typeof storage === "object" ? "postgres" : storage}, -c 50 -d 10)`.padEnd(44),
    `${Math.round(result.requests.average).toLocaleString("en").padStart(10)} req/s, p99 ${result.latency.p99} ms, errors ${result.errors + result.non2xx}`,
  );
  await server.close();
}

const onlyPostgres = process.argv.includes("postgres");
// `npm run bench -- content` (or lists, search, http): only the issue 8 figures of that part;
// `permissions`: issue 24's GET and search with 200 grants; `double`: issue 25's test double;
// `search-all`: issue 29's search of a word every page holds.
// `markdown`: issue 29's long pages.
const parts = {
  content: () => benchContent(directory),
  lists: benchLists,
  search: benchSearch,
  "search-all": benchSearchAll,
  http: benchHttpRatio,
  permissions: benchPermissions,
  double: benchDouble,
  analysis: benchAnalysis,
  markdown: benchMarkdown,
  // Issue 29, items 2 and 4: creation under 10 vs 10,000 siblings, link lists' bytes.
  creation: () => benchCreationAndLinks(directory),
  // Issue 27, item 7: what TypeDoc adds to npm test.
  typedoc: benchTypedoc,
  // Issue 27, item 6: the browser bundle's initial load and lazy chunks.
  bundle: benchBundle,
  // Issue 23, item 9: resolving links written before their target, on document reads.
  "written-links": benchWrittenLinks,
  // Issue 28: another organization's latency while one floods the server (the test counts, this times).
  "noisy-neighbour": benchNoisyNeighbour,
  // Issue 23, item 8: the embed of a URL, fetched and scanned.
  embeds: benchEmbeds,
  // Issue 23, item 8: inlining reusable contents on page reads.
  "reusable-contents": benchReusableContents,
  // Issue 23, item 4: a reader token's reads of the users its revision mentions.
  mentions: benchMentions,
  // Issue 26: a 5,000-page pull into a replica (docsbase/sync), and the pulls after it.
  "sync-pull": benchSyncPull,
  // Published-content lookups in read transactions, alone and beside a writer (SQLite, PostgreSQL).
  lookups: () => benchLookups(directory),
};
const chosen = Object.entries(parts).filter(([name]) => process.argv.includes(name));
if (chosen.length > 0) {
  for (const [, run] of chosen) await run();
  rmSync(directory, { recursive: true, force: true });
  process.exit(0);
}
const postgres = await startPostgres();
try {
  if (!onlyPostgres) await benchStorage("memory", memoryStorage());
  if (!onlyPostgres)
    await benchStorage("sqlite", sqliteStorage({ filename: join(directory, "bench.sqlite") }));
  await benchStorage(
    "postgres",
    postgresStorage({ connectionString: await createDatabase(postgres.url, "bench") }),
  );
  if (!onlyPostgres) await benchHttp("memory");
  if (!onlyPostgres) await benchHttp("sqlite");
  await benchHttp({ postgres: await createDatabase(postgres.url, "bench") });
  await benchInstances({ postgresUrl: postgres.url, directory });
  if (!onlyPostgres) {
    await benchHttpRatio();
    await benchLists();
    await benchContent(directory);
    await benchSearch();
    await benchSearchAll();
    await benchDouble();
    await benchAnalysis();
    await benchMarkdown();
    await benchCreationAndLinks(directory);
  }
} finally {
  await postgres.stop();
  rmSync(directory, { recursive: true, force: true });
}
