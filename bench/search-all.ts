/**
 * Search when every page matches (issue 29, item 3): a space of 10,000 pages that all hold the
 * word `docsbase` (and the word `space`), on the memory adapter. Part of `npm run bench` when asked
 * for: `npm run bench -- search-all`; alone: `npx tsx bench/search-all.ts`.
 *
 * - Through `docsbase.fetch` (search with `limit=20`): warm queries of every page's word (p50 and
 *   p95), each a string not asked before (the word in other capitals, alone or with `space`), so
 *   that no remembered ranking answers it; the first query after a one-page edit; and, as the
 *   small case of the same run, a word few pages hold.
 * - The index alone, in the same run, alternated query by query: every match scored (a ranking of
 *   every page, as every query ranked before) against the best 21 pages (what a window of 20
 *   asks), with the documents each scores.
 *
 * Pages are about 1.3 KB of markdown: an introduction holding `docsbase` once or twice and
 * `space` once, three `##` sections, words drawn with a Zipf-like skew from 5,000 made-up
 * words; one page in 100 has `Docsbase` in its title, as a product's name is in a few titles.
 */
import { generateNKeysBetween } from "fractional-indexing";
import { memoryStorage } from "../src/adapters/memory/index.js";
import { commitRevision, requireRevision } from "../src/core/content-tree/revisions.js";
import type { PageVersionRecord } from "../src/core/content-tree/tables.js";
import { buildSearchIndex, rankPages } from "../src/core/search/search-index.js";
import { DerivedCache } from "../src/core/shared/cache.js";
import { randomId, type World } from "../src/core/shared/world.js";
import { spacesTable } from "../src/core/spaces/tables.js";
import { createDocsbase } from "../src/docsbase.js";
import { mulberry32 } from "../src/testing/faults.js";
import { madeUpWords } from "./words.js";

const PAGES = 10_000;
const EDITS = 9;
const WARM = 200;
const BASE = "http://bench.test";

const random = mulberry32(29);
const SYLLABLES = "ka lo mi nu pe ra si to vu we xa yo ze bri cla dro fle gru ste tri".split(" ");
const VOCABULARY = madeUpWords(5_000, SYLLABLES);
const word = () => VOCABULARY[Math.floor(VOCABULARY.length * random() ** 3)]!;
const words = (n: number) => Array.from({ length: n }, word).join(" ");

function markdown(): string {
  const intro = `${words(5 + Math.floor(random() * 20))} docsbase ${words(10 + Math.floor(random() * 30))} space ${words(3)}${
    random() < 0.3 ? ` docsbase ${words(5)}` : ""
  }.`;
  const parts = [intro];
  for (let section = 0; section < 3; section++) {
    parts.push(`## ${words(2)}`, `${words(45)}.`);
  }
  return parts.join("\n\n");
}

/** `word` in the capitals of the bits of `n`: a query string not asked before, the same words. */
const spelled = (text: string, n: number) =>
  [...text].map((letter, i) => ((n >> i) & 1 ? letter.toUpperCase() : letter)).join("");

function percentiles(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p95: at(0.95), max: sorted.at(-1)! };
}

const ms = (value: number) => `${value < 10 ? value.toFixed(2) : Math.round(value)} ms`;
const print = (label: string, value: string) => console.log(`${label.padEnd(68)} ${value.padStart(24)}`);

export async function benchSearchAll(): Promise<void> {
  const storage = memoryStorage();
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
  const space = (await request("POST", `/orgs/${organization}/spaces`, { title: "All" }))["id"] as string;

  const world = {
    storage,
    clock: () => new Date(),
    ids: () => randomId(),
    cache: new DerivedCache(1024 * 1024 * 1024),
  } as unknown as World;
  const positions = generateNKeysBetween(null, null, PAGES);
  const pageIds = await storage.write(async (tx) => {
    const record = (await tx.get(spacesTable, space))!;
    const base = await requireRevision(tx, world, record.revision);
    const pages = new Map<string, PageVersionRecord>();
    const now = new Date().toISOString();
    for (let i = 0; i < PAGES; i++) {
      const page = `page${i}`;
      pages.set(page, {
        id: randomId(),
        page,
        parent: "",
        position: positions[i]!,
        type: "document",
        title: i % 100 === 42 ? `Docsbase ${words(1)}` : words(3),
        slug: `page-${i}`,
        markdown: markdown(),
        hidden: false,
        createdAt: now,
        updatedAt: now,
      });
    }
    const head = await commitRevision(tx, world, { space, base, changes: { pages } });
    await tx.put(spacesTable, { ...record, revision: head.record.id });
    return [...pages.keys()];
  });

  let asked = 0;
  /** A query every page matches, not asked before: the word alone, or with `space` one time in 3. */
  const everyPage = () => {
    asked++;
    return asked % 3 === 0 ? `${spelled("docsbase", asked)} space` : spelled("docsbase", asked);
  };
  // The index alone: every match scored against the best 21 pages, alternated.
  // (an index of its own, built before the instance's, from the same revision).
  const index = await storage.read(async (tx) => {
    const content = await requireRevision(tx, world, (await tx.get(spacesTable, space))!.revision);
    return buildSearchIndex(world, await content.full());
  });
  let start: number;
  for (let i = 0; i < 50; i++) rankPages(index, everyPage(), 21);
  const every: number[] = [];
  const best: number[] = [];
  let scoredEvery = 0;
  let scoredBest = 0;
  for (let i = 0; i < WARM; i++) {
    const query = everyPage();
    let before = index.postings.work.scored;
    start = performance.now();
    rankPages(index, query);
    every.push(performance.now() - start);
    scoredEvery += index.postings.work.scored - before;
    index.remembered.clear();
    before = index.postings.work.scored;
    start = performance.now();
    rankPages(index, query, 21);
    best.push(performance.now() - start);
    scoredBest += index.postings.work.scored - before;
    index.remembered.clear();
  }
  const a = percentiles(every);
  const b = percentiles(best);
  print("search-all, index alone: every match scored, p50 / p95", `${ms(a.p50)} / ${ms(a.p95)}`);
  print("search-all, index alone: the best 21 pages, p50 / p95", `${ms(b.p50)} / ${ms(b.p95)}`);
  print(
    "search-all, index alone: documents scored a query, every / best 21",
    `${Math.round(scoredEvery / WARM)} / ${Math.round(scoredBest / WARM)}`,
  );

  const search = async (query: string) => {
    const body = await request("GET", `/spaces/${space}/search?query=${encodeURIComponent(query)}&limit=20`);
    if (query.toLowerCase().startsWith("docsbase") && body["count"] !== PAGES)
      throw new Error(`${query}: ${String(body["count"])} pages, not every page`);
    return body;
  };
  start = performance.now();
  await search(everyPage());
  print("search-all: first query, index built from nothing", ms(performance.now() - start));
  for (let i = 0; i < 50; i++) await search(everyPage());

  const warm: number[] = [];
  const rare: number[] = [];
  const rareWord = VOCABULARY[4_000]!;
  for (let i = 0; i < WARM; i++) {
    start = performance.now();
    await search(everyPage());
    warm.push(performance.now() - start);
    start = performance.now();
    await search(spelled(rareWord, i + 1));
    rare.push(performance.now() - start);
  }
  const all = percentiles(warm);
  const few = percentiles(rare);
  const matched = (await search(rareWord))["count"] as number;
  print(
    `search-all: warm, every page matches, p50 / p95 (${WARM} queries)`,
    `${ms(all.p50)} / ${ms(all.p95)}`,
  );
  print(
    `search-all: warm, a word ${matched} pages hold, p50 / p95 (small case)`,
    `${ms(few.p50)} / ${ms(few.p95)}`,
  );

  const afterEdit: number[] = [];
  for (let edit = 0; edit < EDITS; edit++) {
    const page = pageIds[Math.floor(random() * pageIds.length)]!;
    await request("PATCH", `/spaces/${space}/content/page/${page}`, { markdown: markdown() });
    start = performance.now();
    await search(everyPage());
    afterEdit.push(performance.now() - start);
  }
  const edited = percentiles(afterEdit);
  print(
    `search-all: first query after a one-page edit, median / max of ${EDITS}`,
    `${ms(edited.p50)} / ${ms(edited.max)}`,
  );

  await storage.close();
}

if (import.meta.url === `file://${process.argv[1]}`) await benchSearchAll();
