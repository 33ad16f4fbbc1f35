/**
 * The test double's figures (issue 25): creating a double with a small fixture, `reset()` after 50
 * writes, `snapshot()` and `fork()` of a double holding 5,000 pages (and the heap a fork adds), and
 * one in-process call through the typed client and through the official client. `npm run bench -- double`; figures in docs/performance.md, "Test double (issue 25)".
 */
import { memoryStorage } from "../src/adapters/memory/index.js";
import { createTestDocsbase, type TestDocsbase } from "../src/testing/double.js";
import type { Fixture } from "../src/testing/fixture.js";
import { seedLargeSpace } from "../test/support/large-space.js";

const PAGES = 5_000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >>> 1]!;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

function row(label: string, target: string, measured: string) {
  console.log(`${label.padEnd(52)} target ${target.padEnd(10)} measured ${measured}`);
}

/** The fixture of the target: 1 organization, 3 users, 2 spaces and 20 pages. */
const SMALL_WORLD: Fixture = {
  users: ["ada", "bob", "eve"].map((name) => ({
    id: `u-${name}`,
    displayName: name,
    token: `tok-${name}-0123456789abcdef`,
  })),
  organizations: [
    {
      id: "org-acme",
      title: "Acme",
      members: [
        { user: "u-ada", role: "admin" },
        { user: "u-bob", role: "edit" },
        { user: "u-eve", role: "read" },
      ],
    },
  ],
  spaces: ["handbook", "api"].map((name) => ({
    id: `space-${name}`,
    organization: "org-acme",
    title: name,
    pages: Array.from({ length: 10 }, (_, i) => ({ title: `Page ${i}`, markdown: pageMarkdown(`${i}`) })),
  })),
};

function pageMarkdown(tag: string): string {
  return `# Page ${tag}\n\nA paragraph with *emphasis* and a [link](https://example.com/${tag}).`;
}

/** The same world with markdown never written before in the process (`round` tells them apart). */
function freshWorld(round: number): Fixture {
  return {
    ...SMALL_WORLD,
    spaces: SMALL_WORLD.spaces!.map((space) => ({
      ...space,
      pages: space.pages!.map((page, i) => ({
        ...page,
        markdown: pageMarkdown(`${round}-${space.id}-${i}`),
      })),
    })),
  };
}

async function benchFixture() {
  for (let i = 0; i < 10; i++) await createTestDocsbase({ fixture: SMALL_WORLD });
  const times: number[] = [];
  for (let i = 0; i < 40; i++) times.push(await timed(() => createTestDocsbase({ fixture: SMALL_WORLD })));
  row("createTestDocsbase({ fixture }) (p50 of 40, after 10)", "<= 30 ms", `${median(times).toFixed(1)} ms`);
  // The markdown checks remember texts they saw: a fixture whose pages are new to the process.
  const fresh: number[] = [];
  for (let i = 0; i < 40; i++) fresh.push(await timed(() => createTestDocsbase({ fixture: freshWorld(i) })));
  row("the same, pages' markdown new to the process (p50 of 40)", "-", `${median(fresh).toFixed(1)} ms`);
  const empty: number[] = [];
  for (let i = 0; i < 40; i++) empty.push(await timed(() => createTestDocsbase()));
  row("createTestDocsbase() without a fixture (p50 of 40)", "-", `${median(empty).toFixed(1)} ms`);
  const test = await createTestDocsbase({ fixture: SMALL_WORLD });
  const forks: number[] = [];
  for (let i = 0; i < 40; i++) forks.push(await timed(() => test.fork()));
  row("fork() of that double (p50 of 40)", "-", `${median(forks).toFixed(2)} ms`);
}

/** A user, an organization and a space, then 47 updates of the space: 50 writes. */
async function fiftyWrites(test: TestDocsbase) {
  const owner = await test.createUser("Owner");
  const client = test.as(owner);
  const org = await client.createOrganization({ body: { title: "Bench" } });
  const space = await client.createSpace({ organizationId: org.id, body: { title: "Docs" } });
  for (let i = 0; i < 47; i++)
    await client.updateSpaceById({ spaceId: space.id, body: { title: `Docs ${i}` } });
}

async function benchReset() {
  const test = await createTestDocsbase();
  const times: number[] = [];
  for (let round = 0; round < 40; round++) {
    await fiftyWrites(test);
    times.push(await timed(() => test.reset()));
  }
  row("reset() after 50 writes (p50 of 40)", "<= 5 ms", `${median(times.slice(5)).toFixed(2)} ms`);
}

async function benchLarge() {
  const storage = memoryStorage();
  const test = await createTestDocsbase({ storage });
  const owner = await test.createUser("Owner");
  const client = test.as(owner);
  const org = await client.createOrganization({ body: { title: "Bench" } });
  const space = await client.createSpace({ organizationId: org.id, body: { title: "Docs" } });
  const seeding = performance.now();
  await seedLargeSpace(storage, space.id, PAGES, { markdownBytes: 500 });
  console.log(`(seeded ${PAGES} pages in ${Math.round(performance.now() - seeding)} ms)`);
  const read = () => client.getSpaceById({ spaceId: space.id });
  await read();

  const snapshots: number[] = [];
  for (let i = 0; i < 200; i++) snapshots.push(await timed(() => test.snapshot()));
  row(
    `snapshot() of ${PAGES.toLocaleString("en")} pages (p50 of 200)`,
    "-",
    `${median(snapshots).toFixed(3)} ms`,
  );

  // The first forks of a process pay for compiling the code a docsbase instance runs (shown apart).
  const first = await timed(() => test.fork());
  for (let i = 0; i < 10; i++) await test.fork();
  const forks: number[] = [];
  for (let i = 0; i < 40; i++) forks.push(await timed(() => test.fork()));
  row(`fork() of ${PAGES.toLocaleString("en")} pages, first of the process`, "-", `${first.toFixed(2)} ms`);
  row(
    `fork() of ${PAGES.toLocaleString("en")} pages (p50 of 40, after 10)`,
    "<= 10 ms",
    `${median(forks).toFixed(2)} ms`,
  );

  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    const before = process.memoryUsage().heapUsed;
    const kept: TestDocsbase[] = [];
    for (let i = 0; i < 10; i++) {
      const fork = await test.fork();
      // Written once, as a test would: what the fork copies on its first write counts too.
      await fork.as(owner).updateSpaceById({ spaceId: space.id, body: { title: "Forked" } });
      kept.push(fork);
    }
    gc();
    const perFork = (process.memoryUsage().heapUsed - before) / kept.length;
    row(
      "heap added by a fork (and one write), mean of 10",
      "<= 5 MB",
      `${(perFork / 2 ** 20).toFixed(2)} MB`,
    );
  } else {
    console.log("heap of a fork: run with --expose-gc (npm run bench does)");
  }

  for (let i = 0; i < 2_000; i++) await read();
  const calls: number[] = [];
  for (let i = 0; i < 5_000; i++) calls.push(await timed(read));
  row("test.as(user).getSpaceById p50 (of 5,000)", "<= 50 us", `${(median(calls) * 1000).toFixed(1)} us`);

  const api = await test.client(owner);
  const official = () => api.spaces.getSpaceById(space.id);
  for (let i = 0; i < 2_000; i++) await official();
  const officialCalls: number[] = [];
  for (let i = 0; i < 5_000; i++) officialCalls.push(await timed(official));
  row(
    "test.client(user).spaces.getSpaceById p50 (of 5,000)",
    "<= 150 us",
    `${(median(officialCalls) * 1000).toFixed(1)} us`,
  );
}

export async function benchDouble(): Promise<void> {
  await benchFixture();
  await benchReset();
  await benchLarge();
}
