/**
 * The conversation analysis's cost per conversation (issue 28, item 2) at 10, 1,000 and 10,000
 * conversations analysed before in one organization, in process on memory and SQLite: the median
 * time of one more analysis job (ingested alone, then the job run), and the longest the event loop
 * was held while the measured jobs ran (the largest gap between two runs of a timer rescheduled
 * at 0 ms, with a turn given between ingestion and job). `npm run bench -- analysis`; figures in docs/performance.md,
 * "Conversation analysis (issue 28)".
 *
 * Conversations are 40 to 120 words drawn with a Zipf-like skew from 20,000 made-up words, plus
 * three words of one of 500 topics, so that clusters form and the vocabulary keeps growing.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryStorage } from "../src/adapters/memory/index.js";
import { sqliteStorage } from "../src/adapters/sqlite/index.js";
import type { Storage } from "../src/core/storage/port.js";
import { createTestDocsbase } from "../src/testing/double.js";
import { mulberry32 } from "../src/testing/faults.js";
import { madeUpWords } from "./words.js";

const SIZES = [10, 1_000, 10_000];
const MEASURED = 30;
const BATCH = 100;

const SYLLABLES = "ka lo mi nu pe ra si to vu we xa yo ze bri cla dro fle gru ste tri pra".split(" ");
const VOCABULARY = madeUpWords(20_000, SYLLABLES);

function conversations(seed: number) {
  const random = mulberry32(seed);
  const word = () => VOCABULARY[Math.floor(VOCABULARY.length * random() ** 3)]!;
  let next = 0;
  return () => {
    const topic = Math.floor(random() * 500);
    const words = Array.from({ length: 40 + Math.floor(random() * 80) }, word);
    for (let i = 0; i < 3; i++) words.push(VOCABULARY[19_000 + ((topic * 3 + i) % 1_000)]!);
    return {
      id: `c-${next++}`,
      subject: words.slice(-3).join(" "),
      parts: [{ type: "message" as const, role: "user" as const, body: `${words.join(" ")}.` }],
    };
  };
}

/** The longest gap between two turns of the event loop while it runs (a timer rescheduled at 0 ms). */
function loopHolds() {
  let running = false;
  let last = 0;
  let max = 0;
  const tick = () => {
    const now = performance.now();
    max = Math.max(max, now - last);
    last = now;
    if (running) setTimeout(tick, 0);
  };
  return {
    start() {
      running = true;
      max = 0;
      last = performance.now();
      setTimeout(tick, 0);
    },
    async stop() {
      await new Promise((resolve) => setTimeout(resolve, 0));
      running = false;
      await new Promise((resolve) => setTimeout(resolve, 0));
      return max;
    },
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >>> 1]!;

async function benchStorage(name: string, storage: Storage) {
  const test = await createTestDocsbase({ storage });
  const owner = await test.createUser("Owner");
  const client = test.as(owner);
  const { id: organizationId } = await client.createOrganization({ body: { title: "Acme" } });
  const next = conversations(28);
  const holds = loopHolds();
  let analysed = 0;
  for (const size of SIZES) {
    const seeding = performance.now();
    while (analysed < size) {
      const count = Math.min(BATCH, size - analysed);
      await client.ingestConversation({ organizationId, body: Array.from({ length: count }, next) });
      await test.docsbase.runJobs();
      analysed += count;
    }
    const seedMs = performance.now() - seeding;
    const times: number[] = [];
    holds.start();
    for (let i = 0; i < MEASURED; i++) {
      await client.ingestConversation({ organizationId, body: next() });
      // Turns between the steps: the hold measured is then one job's (or one ingestion's).
      await new Promise((resolve) => setTimeout(resolve, 0));
      const start = performance.now();
      await test.docsbase.runJobs();
      times.push(performance.now() - start);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    const measuredMax = await holds.stop();
    analysed += MEASURED;
    const { count: clusters } = await client.listConversationsIssuesClusters({ organizationId, limit: 1 });
    console.log(
      `${name}: at ${size.toLocaleString("en")} conversations (${clusters} clusters): ` +
        `one more analysis ${median(times).toFixed(1)} ms median, ${Math.max(...times).toFixed(1)} ms max; ` +
        `longest loop hold ${measuredMax.toFixed(0)} ms ` +
        `(history analysed in ${(seedMs / 1000).toFixed(1)} s)`,
    );
  }
  await test.docsbase.close();
}

export async function benchAnalysis() {
  const directory = mkdtempSync(join(tmpdir(), "docsbase-analysis-"));
  try {
    await benchStorage("memory", memoryStorage());
    await benchStorage("sqlite", sqliteStorage({ filename: join(directory, "analysis.sqlite") }));
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
