/**
 * Page creation and link lists (issue 29, items 2 and 4), in process through the fetch handler, on
 * memory and SQLite:
 *
 * - a parent's 10,000 children created page by page (the time of the whole build, and of the first
 *   and the last 500 creations), then creations under it against creations under a parent of 10
 *   in the same space (median of 60 each, interleaved), with their ratio;
 * - the bytes of a link list (`GET /spaces/{id}/links`, and a page's backlinks) whose one link sits
 *   on a one-line page, then on a page of about 1 MB.
 */
import { join } from "node:path";
import { memoryStorage } from "../src/adapters/memory/index.js";
import { sqliteStorage } from "../src/adapters/sqlite/index.js";
import type { Storage } from "../src/core/storage/port.js";
import { createTestDocsbase } from "../src/testing/double.js";
import { loadAverage } from "./load.js";

const SIBLINGS = 10_000;
const SAMPLES = 60;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const row = (label: string, value: string) => console.log(`${label.padEnd(64)} ${value}`);

async function open(storage: Storage) {
  const test = await createTestDocsbase({ storage });
  const { token } = await test.createUser("Owner");
  const request = async <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => {
    const response = await test.request<T>(method, path, { token, ...(body !== undefined ? { body } : {}) });
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status}`);
    return response.body;
  };
  const org = (await request<{ id: string }>("POST", "/orgs", { title: "Bench" })).id;
  const space = (await request<{ id: string }>("POST", `/orgs/${org}/spaces`, { title: "Docs" })).id;
  const create = async (title: string, parent?: string, markdown = `About ${title}.`) =>
    (
      await request<{ id: string }>("POST", `/spaces/${space}/content/pages`, {
        title,
        markdown,
        ...(parent ? { parent } : {}),
      })
    ).id;
  return { test, request, space, create };
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

async function benchCreation(kind: string, storage: Storage) {
  const { create } = await open(storage);
  const few = await create("Few");
  const lots = await create("Lots");
  for (let i = 0; i < 10; i++) await create(`Few ${i}`, few);
  const times: number[] = [];
  const start = performance.now();
  for (let i = 0; i < SIBLINGS; i++) times.push(await timed(() => create(`Page ${i}`, lots)));
  const total = performance.now() - start;
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  row(
    `${kind}: build ${SIBLINGS.toLocaleString("en")} siblings page by page`,
    `${(total / 1000).toFixed(1)} s`,
  );
  row(`${kind}: mean creation, siblings 0-500`, `${mean(times.slice(0, 500)).toFixed(2)} ms`);
  row(
    `${kind}: mean creation, siblings ${SIBLINGS - 500}-${SIBLINGS}`,
    `${mean(times.slice(-500)).toFixed(2)} ms`,
  );
  const under10: number[] = [];
  const under10k: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    under10.push(await timed(() => create(`Few more ${i}`, few)));
    under10k.push(await timed(() => create(`Lots more ${i}`, lots)));
  }
  const [small, large] = [median(under10), median(under10k)];
  row(`${kind}: creation under 10 siblings (median of ${SAMPLES})`, `${small.toFixed(2)} ms`);
  row(`${kind}: creation under 10,000 siblings (median of ${SAMPLES})`, `${large.toFixed(2)} ms`);
  row(`${kind}: ratio 10,000 / 10`, (large / small).toFixed(2));
}

async function benchLinks(kind: string, storage: Storage) {
  const { request, space, create } = await open(storage);
  const target = await create("Target", undefined, "The target.");
  const source = await create("Source", undefined, "See [the target](target.md).");
  const bytes = async () => {
    const links = await request("GET", `/spaces/${space}/links`);
    const backlinks = await request("GET", `/spaces/${space}/content/page/${target}/backlinks`);
    return [JSON.stringify(links).length, JSON.stringify(backlinks).length] as const;
  };
  const small = await bytes();
  const paragraph = "Plain words in a paragraph that links to nothing at all.\n\n";
  const markdown = paragraph.repeat(Math.floor(990_000 / paragraph.length)) + "See [the target](target.md).";
  await request("PATCH", `/spaces/${space}/content/page/${source}`, { markdown });
  const large = await bytes();
  const page = `${(markdown.length / 1e6).toFixed(2)} MB page`;
  row(`${kind}: link list, one link on a one-line page`, `${small[0].toLocaleString("en")} bytes`);
  row(`${kind}: link list, one link on a ${page}`, `${large[0].toLocaleString("en")} bytes`);
  row(`${kind}: backlinks, one link on a one-line page`, `${small[1].toLocaleString("en")} bytes`);
  row(`${kind}: backlinks, one link on a ${page}`, `${large[1].toLocaleString("en")} bytes`);
}

export async function benchCreationAndLinks(directory: string) {
  console.log(`load average at start: ${loadAverage()}`);
  await benchLinks("memory", memoryStorage());
  await benchCreation("memory", memoryStorage());
  await benchCreation("sqlite", sqliteStorage({ filename: join(directory, "creation.sqlite") }));
  console.log(`load average at end: ${loadAverage()}`);
}
