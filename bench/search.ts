/**
 * Search over a 10,000-page space (issue 8, item 3), on memory and SQLite: the first query after a
 * one-page edit (median of several edits), warm queries (p50 and p95), the build of the index from
 * nothing (the first query after a restart), and the memory the index holds. Part of
 * `npm run bench` (bench/run.ts); run alone with `npx tsx --expose-gc bench/search.ts`.
 *
 * The space is seeded with one commit of all its pages (commitRevision in one write transaction,
 * as an import would write them); edits and queries go through the HTTP handler
 * (`docsbase.fetch`), as a user's would.
 */
import { generateNKeysBetween } from "fractional-indexing";
import { DerivedCache } from "../src/core/shared/cache.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryStorage } from "../src/adapters/memory/index.js";
import { sqliteStorage } from "../src/adapters/sqlite/index.js";
import { commitRevision, requireRevision } from "../src/core/content-tree/revisions.js";
import type { PageVersionRecord } from "../src/core/content-tree/tables.js";
import { buildSearchIndex, estimateBytes, sectionsOf } from "../src/core/search/search-index.js";
import { randomId, type World } from "../src/core/shared/world.js";
import { spacesTable } from "../src/core/spaces/tables.js";
import type { Storage } from "../src/core/storage/port.js";
import { createDocsbase } from "../src/docsbase.js";
import { mulberry32 } from "../src/testing/faults.js";
import { madeUpWords } from "./words.js";

const PAGES = 10_000;
const EDITS = 7;
const WARM_QUERIES = 300;
const BASE = "http://bench.test";

const random = mulberry32(8);
const SYLLABLES = "ka lo mi nu pe ra si to vu we xa yo ze bri cla dro fle gru ste tri pra".split(" ");
/** 20,000 made-up words, drawn with a Zipf-like skew as words of real documentation are. */
const VOCABULARY = madeUpWords(20_000, SYLLABLES);
const word = () => VOCABULARY[Math.floor(VOCABULARY.length * random() ** 3)]!;
/**
 * 200 queries none of which ran before, the same on both storages: one or two words drawn as the
 * text's are. The first 100 run in a process whose scoring code has met few queries (the JIT still
 * adapts it to new paths through it); the next 100 after them.
 */
const DISTINCT = (() => {
  const draw = mulberry32(21);
  const pick = () => VOCABULARY[Math.floor(VOCABULARY.length * draw() ** 3)]!;
  return Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? `${pick()} ${pick()}` : pick()));
})();
const sentence = (words: number) => {
  const text = Array.from({ length: words }, word).join(" ");
  return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
};

/** About 4 KB of markdown: an introduction, then sections with paragraphs, a list and some code. */
function markdown(): string {
  const parts = [sentence(30), sentence(25)];
  for (let section = 0; section < 4; section++) {
    parts.push(`## ${sentence(3).slice(0, -1)}`, `${sentence(40)} ${sentence(35)}`);
    if (section % 2 === 0) parts.push([1, 2, 3].map(() => `- ${sentence(8)}`).join("\n"));
    else parts.push(`\`\`\`js\nconst ${word()} = ${word()}("${word()}");\n\`\`\``);
    parts.push(sentence(30));
  }
  return parts.join("\n\n");
}

/** The median and the 95th percentile of durations in ms. */
function percentiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p95: at(0.95) };
}

/** The JavaScript heap and the memory of array buffers (typed arrays keep their data outside the heap). */
const heapUsed = async () => {
  // Array buffers are freed after the collection of their objects: collect until it settles.
  for (let i = 0; i < 4; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};

const ms = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;
const mb = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;
const print = (label: string, value: string) => console.log(`${label.padEnd(60)} ${value.padStart(16)}`);

async function benchSpace(name: string, storage: Storage) {
  const docsbase = createDocsbase({ storage, baseUrl: BASE, cacheBytes: 2 * 1024 * 1024 * 1024 });
  const { token } = await docsbase.bootstrap();
  const request = async (method: string, path: string, body?: unknown) => {
    const response = await docsbase.fetch(
      new Request(`${BASE}/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const organization = (await request("POST", "/orgs", { title: "Bench" }))["id"] as string;
  const space = (await request("POST", `/orgs/${organization}/spaces`, { title: "Big" }))["id"] as string;

  // Seed: one commit of every page, through a world of its own (the instance's cache stays cold).
  const world = {
    storage,
    clock: () => new Date(),
    ids: () => randomId(),
    cache: new DerivedCache(64 * 1024 * 1024),
  } as unknown as World;
  const positions = generateNKeysBetween(null, null, PAGES);
  let bytes = 0;
  const pageIds = await storage.write(async (tx) => {
    const record = (await tx.get(spacesTable, space))!;
    const base = await requireRevision(tx, world, record.revision);
    const pages = new Map<string, PageVersionRecord>();
    const now = new Date().toISOString();
    for (let i = 0; i < PAGES; i++) {
      const page = `page${i}`;
      const text = markdown();
      bytes += text.length;
      // A tree of 100 sections of 99 pages each.
      const parent = i % 100 === 0 ? "" : `page${i - (i % 100)}`;
      pages.set(page, {
        id: randomId(),
        page,
        parent,
        position: positions[i]!,
        type: "document",
        title: sentence(3).slice(0, -1),
        slug: `page-${i}`,
        markdown: text,
        hidden: false,
        createdAt: now,
        updatedAt: now,
      });
    }
    const head = await commitRevision(tx, world, { space, base, changes: { pages } });
    await tx.put(spacesTable, { ...record, revision: head.record.id });
    return [...pages.keys()];
  });
  print(`${name}: seeded ${PAGES.toLocaleString("en")} pages`, `${(bytes / 1e6).toFixed(1)} MB markdown`);

  const queries = Array.from({ length: 20 }, (_, i) => (i % 3 === 0 ? `${word()} ${word()}` : word()));
  const search = (query: string) =>
    request("GET", `/spaces/${space}/search?query=${encodeURIComponent(query)}&limit=20`);

  let start = performance.now();
  await search(queries[0]!);
  print(`${name}: first query, index built from nothing`, ms(performance.now() - start));

  const afterEdit: number[] = [];
  for (let edit = 0; edit < EDITS; edit++) {
    const page = pageIds[Math.floor(random() * pageIds.length)]!;
    await request("PATCH", `/spaces/${space}/content/page/${page}`, { markdown: markdown() });
    start = performance.now();
    await search(queries[edit % queries.length]!);
    afterEdit.push(performance.now() - start);
  }
  print(`${name}: first query after a one-page edit (median of ${EDITS})`, ms(percentiles(afterEdit).p50));

  const warm: number[] = [];
  for (let i = 0; i < WARM_QUERIES; i++) {
    start = performance.now();
    await search(queries[i % queries.length]!);
    warm.push(performance.now() - start);
  }
  const { p50, p95 } = percentiles(warm);
  print(`${name}: warm query p50 / p95 (${queries.length} queries repeated)`, `${ms(p50)} / ${ms(p95)}`);
  const distinct: number[] = [];
  for (const query of DISTINCT) {
    start = performance.now();
    await search(query);
    distinct.push(performance.now() - start);
  }
  const first = percentiles(distinct.slice(0, 100));
  const next = percentiles(distinct.slice(100));
  print(`${name}: query p50 / p95, the first 100 distinct queries`, `${ms(first.p50)} / ${ms(first.p95)}`);
  print(`${name}: warm query p50 / p95, the next 100 distinct`, `${ms(next.p50)} / ${ms(next.p95)}`);

  // The index alone, built apart with the sections already split, so that heap growth is the
  // index's and not the revision's or the sections' (kept under sections:<versionId>).
  await storage.read(async (tx) => {
    const cache = new Map<string, object>();
    const apart = { ...world, cache } as unknown as World;
    const content = await (
      await requireRevision(tx, apart, (await tx.get(spacesTable, space))!.revision)
    ).full();
    const before = await heapUsed();
    for (const version of content.pages.values()) sectionsOf(apart, version);
    const sections = await heapUsed();
    const index = buildSearchIndex(apart, content);
    const built = await heapUsed();
    print(`${name}: memory of the sections (heap growth)`, mb(sections - before));
    print(
      `${name}: memory of the index (heap growth / estimateBytes)`,
      `${mb(built - sections)} / ${mb(estimateBytes(index))}`,
    );
    print(
      `${name}: documents / terms / characters indexed`,
      `${index.postings.documentCount} / ${index.postings.termCount} / ${(index.characters / 1e6).toFixed(1)}M`,
    );
  });
  await storage.close();
}

export async function benchSearch(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), "docsbase-bench-search-"));
  try {
    await benchSpace("search, memory", memoryStorage());
    await benchSpace("search, sqlite", sqliteStorage({ filename: join(directory, "search.sqlite") }));
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchSearch();
