/**
 * Content at scale (issue 8): one-page edits, memory, file size, the first read after a restart
 * and merges, in 10-page and 10,000-page spaces, on memory and SQLite. In-process: requests go
 * through the fetch handler (`docsbase.fetch`), as `docsbase serve` sends them.
 */
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { memoryStorage } from "../src/adapters/memory/index.js";
import { sqliteStorage } from "../src/adapters/sqlite/index.js";
import type { Storage } from "../src/core/storage/port.js";
import { createTestDocsbase, type TestDocsbase } from "../src/testing/double.js";
import { markdownOf, seedLargeSpace, seeded } from "../test/support/large-space.js";

const MARKDOWN_BYTES = 4096;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${value.toFixed(2)} ms`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const row = (label: string, value: string) => console.log(`${label.padEnd(64)} ${value}`);

interface Opened {
  readonly test: TestDocsbase;
  readonly token: string;
  readonly space: string;
  readonly pages: string[];
  request<T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }>;
}

/** A docsbase over `storage` with one space of `size` pages (seeded), or reopened on it. */
async function open(
  storage: Storage,
  size: number,
  existing?: Omit<Opened, "test" | "request">,
): Promise<Opened> {
  const test = await createTestDocsbase({ storage });
  let token = existing?.token;
  let space = existing?.space;
  let pages = existing?.pages;
  if (!token || !space || !pages) {
    const owner = await test.createUser("Owner");
    token = owner.token;
    const org = (await test.request("POST", "/orgs", { token, body: { title: "Bench" } })).body.id as string;
    space = (await test.request("POST", `/orgs/${org}/spaces`, { token, body: { title: "Docs" } })).body
      .id as string;
    pages = await seedLargeSpace(storage, space, size, { markdownBytes: MARKDOWN_BYTES });
  }
  const request = async <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => {
    const response = await test.request<T>(method, path, { token, ...(body !== undefined ? { body } : {}) });
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status}`);
    return response;
  };
  return { test, token, space, pages, request };
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** Median time of a one-page edit (PATCH markdown) over `count` edits of distinct pages. */
async function editTimes(opened: Opened, count: number, random: () => number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const page = opened.pages[1 + Math.floor(random() * (opened.pages.length - 1))]!;
    const markdown = markdownOf(`Edit ${i}`, MARKDOWN_BYTES, random);
    times.push(
      await timed(() =>
        opened.request("PATCH", `/spaces/${opened.space}/content/page/${page}`, { markdown }),
      ),
    );
  }
  return times;
}

async function benchEdits(kind: "memory" | "sqlite", directory: string) {
  const make = (name: string) =>
    kind === "memory" ? memoryStorage() : sqliteStorage({ filename: join(directory, `${name}.sqlite`) });
  const random = seeded(7);
  const results: Record<number, number> = {};
  for (const size of [10, 10_000]) {
    const opened = await open(make(`edits-${size}`), size);
    await editTimes(opened, 20, random); // warm-up
    results[size] = median(await editTimes(opened, 200, random));
    await opened.test.docsbase.close();
  }
  row(`${kind}: one-page edit, 10-page space (median of 200)`, ms(results[10]!));
  row(`${kind}: one-page edit, 10,000-page space (median of 200)`, ms(results[10_000]!));
  row(`${kind}: ratio 10,000 / 10`, `${(results[10_000]! / results[10]!).toFixed(2)}x (goal ≤ 2)`);
}

/** Memory over 700 edits, and on SQLite the file after them against the content it stores. */
async function benchMemoryAndFile(kind: "memory" | "sqlite", directory: string) {
  const file = join(directory, "memory.sqlite");
  const storage = kind === "memory" ? memoryStorage() : sqliteStorage({ filename: file });
  const opened = await open(storage, 10_000);
  const random = seeded(11);
  const gc = (globalThis as { gc?: () => void }).gc;
  const sample = () => {
    gc?.();
    const usage = process.memoryUsage();
    return { rss: usage.rss, heap: usage.heapUsed, cache: opened.test.docsbase.cache.bytes };
  };
  await editTimes(opened, 100, random);
  const warm = sample();
  const samples = [warm];
  for (let round = 0; round < 6; round++) {
    await editTimes(opened, 100, random);
    samples.push(sample());
  }
  const last = samples.at(-1)!;
  row(
    `${kind}: heap after warm-up, then every 100 of 600 more edits`,
    samples.map((entry) => mb(entry.heap)).join(", "),
  );
  // The cache fills up to its budget by design; what else the heap holds must stay flat.
  row(
    `${kind}: the same, less what the cache holds`,
    samples.map((entry) => mb(entry.heap - entry.cache)).join(", "),
  );
  row(`${kind}: resident memory after warm-up → after 700 edits`, `${mb(warm.rss)} → ${mb(last.rss)}`);
  row(
    `${kind}: cache held after 700 edits (budget ${mb(opened.test.docsbase.cache.maxBytes)})`,
    mb(opened.test.docsbase.cache.bytes),
  );
  if (kind === "sqlite") {
    await opened.test.docsbase.close();
    // The markdown the file stores: every page version's text (the pages and each edit's version).
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(file, { readonly: true });
    const row0 = db
      .prepare(`SELECT sum(length(json_extract(doc, '$.markdown'))) AS bytes FROM "pageVersions"`)
      .get() as { bytes: number };
    db.close();
    const size = statSync(file).size + (existsSync(`${file}-wal`) ? statSync(`${file}-wal`).size : 0);
    row(
      "sqlite: file after 10,000 pages and 700 edits / markdown it stores",
      `${mb(size)} / ${mb(row0.bytes)} = ${(size / row0.bytes).toFixed(2)}x (goal ≤ 2)`,
    );
  } else {
    await opened.test.docsbase.close();
  }
}

/** The first read of one page after a restart (a new docsbase on the same storage, cold caches). */
async function benchRestart(kind: "memory" | "sqlite", directory: string) {
  const results: Record<number, number> = {};
  for (const size of [10, 10_000]) {
    const file = join(directory, `restart-${size}.sqlite`);
    const shared = kind === "memory" ? memoryStorage() : undefined;
    const make = () => shared ?? sqliteStorage({ filename: file });
    const first = await open(make(), size);
    const ids = { token: first.token, space: first.space, pages: first.pages };
    if (kind === "sqlite") await first.test.docsbase.close();
    const times: number[] = [];
    for (let round = 0; round < 7; round++) {
      const again = await open(make(), size, ids);
      // Authentication, storage opening and init are the same in both spaces: warm them up.
      await again.request("GET", `/spaces/${again.space}`);
      const page = ids.pages[1 + ((round * 37) % (ids.pages.length - 1))]!;
      times.push(await timed(() => again.request("GET", `/spaces/${again.space}/content/page/${page}`)));
      if (kind === "sqlite") await again.test.docsbase.close();
    }
    results[size] = median(times);
  }
  row(`${kind}: first read of a page after a restart, 10-page space`, ms(results[10]!));
  row(`${kind}: first read of a page after a restart, 10,000-page space`, ms(results[10_000]!));
  row(`${kind}: ratio 10,000 / 10`, `${(results[10_000]! / results[10]!).toFixed(2)}x (goal ≤ 3)`);
}

/** Merging a change request that edited 1,000 pages of a 10,000-page space. */
async function benchMerge(kind: "memory" | "sqlite", directory: string) {
  const random = seeded(13);
  const warm: number[] = [];
  const cold: number[] = [];
  for (let round = 0; round < 3; round++) {
    const file = join(directory, `merge-${round}.sqlite`);
    const storage = kind === "memory" ? memoryStorage() : sqliteStorage({ filename: file });
    const opened = await open(storage, 10_000);
    for (const target of [warm, cold]) {
      const cr = (
        await opened.request("POST", `/spaces/${opened.space}/change-requests`, { subject: "Bulk" })
      ).body;
      for (let i = 0; i < 1000; i++) {
        const page = opened.pages[1 + ((i * 7 + round + (target === cold ? 3 : 0)) % 9999)]!;
        await opened.request(
          "PATCH",
          `/spaces/${opened.space}/change-requests/${cr.id}/content/page/${page}`,
          {
            markdown: markdownOf(`Change ${i}`, MARKDOWN_BYTES, random),
          },
        );
      }
      // An edit on the space, so that the merge is a real three-way merge.
      await opened.request("PATCH", `/spaces/${opened.space}/content/page/${opened.pages[9999]}`, {
        title: `Main ${round}`,
      });
      let runner = opened;
      if (target === cold) {
        // A new docsbase on the same storage: the change request's base is in no cache.
        runner = await open(storage, 10_000, {
          token: opened.token,
          space: opened.space,
          pages: opened.pages,
        });
        await runner.request("GET", `/spaces/${opened.space}`);
      }
      const took = await timed(async () => {
        const merged = await runner.request("POST", `/spaces/${opened.space}/change-requests/${cr.id}/merge`);
        if (merged.body.result !== "merge") throw new Error(`merge: ${JSON.stringify(merged.body)}`);
      });
      target.push(took);
    }
    await opened.test.docsbase.close();
  }
  row(`${kind}: merge of a change request touching 1,000 of 10,000 pages`, ms(median(warm)));
  row(`${kind}: the same, base not in any cache`, ms(median(cold)));
}

export async function benchContent(directory: string): Promise<void> {
  for (const kind of ["memory", "sqlite"] as const) {
    await benchEdits(kind, directory);
    await benchRestart(kind, directory);
    await benchMerge(kind, directory);
    await benchMemoryAndFile(kind, directory);
  }
}
