/**
 * Markdown at any size (issue 29, item 1): the parse time of pages at the size the whole-page
 * parse accepted (a list just over the old work budget, and 1 MB of short paragraphs),
 * parsed at once (as before) and in chunks (as now); and a list of 20,000 items and a page of
 * 1,000,000 characters written and read back through the test double (memory storage), with the
 * pages the write and the read parsed (one write parses its page once; the read right after uses
 * that tree).
 * `npm run bench -- markdown`; figures in docs/performance.md, "Markdown at any size (issue 29)".
 */
import { loadAverage } from "./load.js";
import { chunked, parserRuns, parseWhole } from "../src/core/document/markdown.js";
import { createTestDocsbase } from "../src/testing/double.js";
import { fullPage, longList } from "../test/support/large-markdown.js";

function timed(fn: () => unknown): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

async function timedAsync(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

function row(label: string, measured: string) {
  console.log(`${label.padEnd(64)} ${measured}`);
}

const ms = (value: number) => `${Math.round(value).toLocaleString("en")} ms`;

export async function benchMarkdown(): Promise<void> {
  console.log(`load average at start: ${loadAverage()}`);
  // Warm the parser up, so that the first figure does not pay for compiling it.
  for (let index = 0; index < 20; index++) chunked(longList(50));

  const largestAccepted = {
    "1,000 list items (38 KB, just over the old budget)": longList(1_000),
    "1 MB of short paragraphs with emphasis": "Some *emphasis*, **strong** and ~~struck~~ words.\n\n".repeat(
      19_600,
    ),
  };
  for (const [label, markdown] of Object.entries(largestAccepted)) {
    const whole = timed(() => parseWhole(markdown));
    const parts = timed(() => chunked(markdown));
    row(
      `parse ${label}: whole page / chunks`,
      `${ms(whole)} / ${ms(parts)} (${(parts / whole).toFixed(2)}x)`,
    );
  }

  const test = await createTestDocsbase();
  const owner = test.as(await test.createUser("Owner"));
  const org = await owner.createOrganization({ body: { title: "Acme" } });
  const space = await owner.createSpace({ organizationId: org.id, body: { title: "Docs" } });
  const small = "- Fixed issue 1 in the sync job\n";
  const pages = {
    "1 list item (baseline)": small,
    "20,000 list items (628 KB)": longList(),
    "1,000,000 characters of sections": fullPage(),
  };
  for (const [label, markdown] of Object.entries(pages)) {
    let pageId = "";
    const parsedBefore = parserRuns.pages;
    const write = await timedAsync(async () => {
      pageId = (await owner.createPage({ spaceId: space.id, body: { title: label, markdown } })).id;
    });
    const writeParses = parserRuns.pages - parsedBefore;
    let same = false;
    const readBefore = parserRuns.pages;
    const read = await timedAsync(async () => {
      const page = await owner.getPageById({ spaceId: space.id, pageId });
      same =
        (await owner.getPageById({ spaceId: space.id, pageId, format: "markdown" })).markdown === markdown;
      return page;
    });
    row(
      `write / read back (document and markdown) ${label}`,
      `${ms(write)} / ${ms(read)}${same ? "" : " DIFFERS"} ` +
        `(pages parsed: ${writeParses} / ${parserRuns.pages - readBefore})`,
    );
  }
  console.log(`load average at end: ${loadAverage()}`);
}
