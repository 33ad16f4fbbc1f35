/**
 * Links written before their target (issue 23, item 9): what resolving them when a JSON document
 * is read costs. One space of 200 pages, and pages of 100 links to them: one written before its
 * targets existed (the links stay paths, resolved on every document read), one written after (the
 * links are references), and the first read as markdown (no resolution: the baseline). Reads
 * through the test double (memory storage); the document itself is converted once and cached, so
 * what repeats is the lookups.
 * `npm run bench -- written-links`; figures in docs/performance.md.
 */
import { loadAverage } from "./load.js";
import { createTestDocsbase } from "../src/testing/double.js";

const TARGETS = 200;
const LINKS = 100;
const READS = 200;

export async function benchWrittenLinks(): Promise<void> {
  console.log(`load average at start: ${loadAverage()}`);
  const test = await createTestDocsbase();
  const owner = test.as(await test.createUser("Owner"));
  const org = await owner.createOrganization({ body: { title: "Acme" } });
  const spaceId = (await owner.createSpace({ organizationId: org.id, body: { title: "Docs" } })).id;
  const markdown = Array.from(
    { length: LINKS },
    (_, index) => `- [Page ${index}](page-${index * 2}.md)`,
  ).join("\n");
  const before = (await owner.createPage({ spaceId, body: { title: "Before", markdown } })).id;
  for (let index = 0; index < TARGETS; index++) {
    await owner.createPage({ spaceId, body: { title: `Page ${index}`, markdown: "Text." } });
  }
  const after = (await owner.createPage({ spaceId, body: { title: "After", markdown } })).id;
  const revisionId = (await owner.getCurrentRevision({ spaceId })).id;

  const cases: [string, () => Promise<unknown>][] = [
    [
      "written before, read as markdown (baseline)",
      () => owner.getPageById({ spaceId, pageId: before, format: "markdown" }),
    ],
    [
      "written after (references), document",
      () => owner.getPageDocumentInRevisionById({ spaceId, revisionId, pageId: after }),
    ],
    [
      "written before (paths resolved), document",
      () => owner.getPageDocumentInRevisionById({ spaceId, revisionId, pageId: before }),
    ],
  ];
  for (const [, read] of cases) await read(); // the document conversion, once each
  for (const [label, read] of cases) {
    const start = performance.now();
    for (let index = 0; index < READS; index++) await read();
    const each = (performance.now() - start) / READS;
    console.log(`${`${label}:`.padEnd(50)} ${each.toFixed(3)} ms per read`);
  }
  console.log(`load average at end: ${loadAverage()}`);
}
