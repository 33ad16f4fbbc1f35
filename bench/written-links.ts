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
import { ownedSpace, timeReads, type TimedRead } from "./reads.js";

const TARGETS = 200;
const LINKS = 100;
const READS = 200;

export async function benchWrittenLinks(): Promise<void> {
  console.log(`load average at start: ${loadAverage()}`);
  const { owner, spaceId } = await ownedSpace();
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

  const cases: TimedRead[] = [
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
  await timeReads(cases, READS);
  console.log(`load average at end: ${loadAverage()}`);
}
