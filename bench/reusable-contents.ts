/**
 * Reusable contents (issue 23, item 8): what inlining them costs a page read. One space holding the
 * most reusable contents a space may hold (1,000), and a page including 10 of them. The baseline
 * is the same page read as written (the includes left as they are), in the same run; then with
 * `dereferenced=reusable-contents`, as markdown and as a JSON document (the document is converted
 * once and cached, so what repeats is finding and reading the 10 included contents), and a page
 * including nothing, read with `dereferenced` (one scan of its markdown).
 * `npm run bench -- reusable-contents`; figures in docs/performance.md.
 */
import { loadAverage } from "./load.js";
import { ownedSpace, timeReads, type TimedRead } from "./reads.js";

const CONTENTS = 1000;
const INCLUDED = 10;
const READS = 300;

export async function benchReusableContents(): Promise<void> {
  console.log(`load average at start: ${loadAverage()}`);
  const { owner, spaceId } = await ownedSpace();
  const ids: string[] = [];
  for (let index = 0; index < CONTENTS; index++) {
    const body = { title: `Snippet ${index}`, markdown: `Snippet **${index}**: a paragraph kept once.` };
    ids.push((await owner.createReusableContent({ spaceId, body })).id);
  }
  const markdown = ids
    .slice(0, INCLUDED)
    .map((id, index) => `## Part ${index}\n\n{% include "${id}" %}`)
    .join("\n\n");
  const pageId = (await owner.createPage({ spaceId, body: { title: "Guide", markdown } })).id;
  const plain = (await owner.createPage({ spaceId, body: { title: "Plain", markdown: "Just text." } })).id;
  const deref = "reusable-contents" as const;

  const cases: TimedRead[] = [
    ["as written, markdown (baseline)", () => owner.getPageById({ spaceId, pageId, format: "markdown" })],
    ["as written, document", () => owner.getPageById({ spaceId, pageId })],
    [
      `inlined (${INCLUDED} includes), markdown`,
      () => owner.getPageById({ spaceId, pageId, format: "markdown", dereferenced: deref }),
    ],
    [
      `inlined (${INCLUDED} includes), document`,
      () => owner.getPageById({ spaceId, pageId, dereferenced: deref }),
    ],
    [
      "no includes, dereferenced, markdown",
      () => owner.getPageById({ spaceId, pageId: plain, format: "markdown", dereferenced: deref }),
    ],
  ];
  await timeReads(cases, READS);
  console.log(`load average at end: ${loadAverage()}`);
}
