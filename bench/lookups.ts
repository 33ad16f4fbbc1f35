/**
 * Published-content lookups side by side: `GET /urls/published`, which a renderer sends twice per
 * page view, runs in a read transaction. Each storage gets one site; the figures are lookups per
 * second with 16 in flight, alone and while a writer creates pages one after another (its own
 * rate printed beside). On PostgreSQL the writes of one instance take turns, so a lookup that ran
 * as a write queued behind every page edit; on SQLite reads that wait share a turn.
 * `npm run bench -- lookups`; figures in docs/performance.md.
 */
import { join } from "node:path";
import { postgresStorage } from "../src/adapters/postgres/index.js";
import { sqliteStorage } from "../src/adapters/sqlite/index.js";
import type { Storage } from "../src/core/storage/port.js";
import { createTestDocsbase } from "../src/testing/double.js";
import { createDatabase, startPostgres } from "../test/support/postgres-server.js";
import { loadAverage } from "./load.js";

const IN_FLIGHT = 16;
const LOOKUPS = 4_000;

export async function benchLookups(directory: string): Promise<void> {
  console.log(`load average at start: ${loadAverage()}`);
  const postgres = await startPostgres();
  try {
    const storages: [string, () => Promise<Storage>][] = [
      ["sqlite", async () => sqliteStorage({ filename: join(directory, "lookups.sqlite") })],
      [
        "postgres",
        async () => postgresStorage({ connectionString: await createDatabase(postgres.url, "bench") }),
      ],
    ];
    for (const [label, open] of storages) await benchStorage(label, await open());
  } finally {
    await postgres.stop();
  }
  console.log(`load average at end: ${loadAverage()}`);
}

async function benchStorage(label: string, storage: Storage): Promise<void> {
  const test = await createTestDocsbase({ storage });
  try {
    const owner = await test.createUser("Owner");
    const as = test.as(owner);
    const organizationId = (await as.createOrganization({ body: { title: "Acme" } })).id;
    const spaceId = (await as.createSpace({ organizationId, body: { title: "Docs" } })).id;
    const siteId = (await as.createSite({ organizationId, body: { title: "Docs", spaces: [spaceId] } })).id;
    await as.publishSite({ organizationId, siteId });
    const url = encodeURIComponent(`http://docsbase.test/sites/${siteId}/`);
    const lookUp = async () => {
      const answer = await test.request("GET", `/urls/published?url=${url}`, { token: null });
      if (answer.status !== 200) throw new Error(`lookup answered ${answer.status}`);
    };
    // The signing key and the process's caches, before any figure.
    for (let index = 0; index < 50; index++) await lookUp();

    const lookups = async () => {
      let next = 0;
      const start = performance.now();
      await Promise.all(
        Array.from({ length: IN_FLIGHT }, async () => {
          while (next++ < LOOKUPS) await lookUp();
        }),
      );
      return (LOOKUPS / (performance.now() - start)) * 1000;
    };
    const rate = (value: number, unit: string) => `${Math.round(value).toLocaleString("en")} ${unit}`;
    console.log(`${`${label}: lookups alone`.padEnd(40)} ${rate(await lookups(), "lookups/s")}`);

    let writing = true;
    let pages = 0;
    const writer = (async () => {
      while (writing) {
        await as.createPage({ spaceId, body: { title: `Page ${pages}`, markdown: "A page." } });
        pages += 1;
      }
    })();
    const start = performance.now();
    const beside = await lookups();
    writing = false;
    await writer;
    const pagesPerSecond = (pages / (performance.now() - start)) * 1000;
    console.log(
      `${`${label}: lookups beside a writer`.padEnd(40)} ${rate(beside, "lookups/s")}, writer ${rate(pagesPerSecond, "pages/s")}`,
    );
  } finally {
    await test.docsbase.close();
  }
}
