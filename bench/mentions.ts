/**
 * Mentioned users (issue 23, item 4): what `getUserById` costs a lookup's reader token, which may
 * read only the users its revision mentions. One space of 1,000 pages, 10 of them mentioning a
 * user. The baseline is the same read by a member who shares the user's organization, in the same
 * run; then the reader token's read once its revision's mentions are known (the memo), a refused
 * read of a user not mentioned, and the first read after an edit (a new revision: its mentions are
 * worked out from its 1,000 pages, once).
 * `npm run bench -- mentions`; figures in docs/performance.md.
 */
import { loadAverage } from "./load.js";
import { createTestDocsbase } from "../src/testing/double.js";
import { timeReads, type TimedRead } from "./reads.js";

const PAGES = 1000;
const MENTIONING = 10;
const READS = 1000;
const EDITS = 5;

export async function benchMentions(): Promise<void> {
  console.log(`load average at start: ${loadAverage()}`);
  const test = await createTestDocsbase({
    fixture: {
      users: [
        { id: "author", displayName: "Author", token: "author-token-0123456789" },
        { id: "named", displayName: "Named", token: "named-token-0123456789" },
        { id: "stranger", displayName: "Stranger" },
      ],
      organizations: [
        {
          id: "acme",
          title: "Acme",
          members: [
            { user: "author", role: "admin" },
            { user: "named", role: "read" },
          ],
        },
      ],
    },
  });
  const author = { id: "author", token: "author-token-0123456789" };
  const named = { id: "named", token: "named-token-0123456789" };
  const stranger = { id: "stranger" };
  const owner = test.as(author);
  const organizationId = "acme";
  const spaceId = (await owner.createSpace({ organizationId, body: { title: "Docs" } })).id;
  for (let index = 0; index < PAGES; index++) {
    const mention = index % (PAGES / MENTIONING) === 0 ? ` Ask [@${named.id}](user:${named.id}).` : "";
    const markdown = `## Part ${index}\n\nA paragraph of page ${index} with [a link](https://example.com).${mention}`;
    await owner.createPage({ spaceId, body: { title: `Page ${index}`, markdown } });
  }
  const siteId = (await owner.createSite({ organizationId, body: { title: "Handbook", spaces: [spaceId] } }))
    .id;
  await owner.publishSite({ organizationId, siteId });
  const url = encodeURIComponent(`http://docsbase.test/sites/${siteId}/`);
  const lookUp = async () =>
    (await test.request("GET", `/urls/published?url=${url}`, { token: null })).body.apiToken as string;
  const reader = test.docsbase.as({ token: await lookUp() });
  const member = test.docsbase.as({ token: named.token });

  const cases: TimedRead[] = [
    ["member reads a user of their organization (baseline)", () => member.getUserById({ userId: named.id })],
    ["reader token reads a mentioned user", () => reader.getUserById({ userId: named.id })],
    [
      "reader token refused a user not mentioned (404)",
      () => reader.getUserById({ userId: stranger.id }).catch(() => undefined),
    ],
  ];
  await timeReads(cases, READS, 58);
  let first = 0;
  for (let edit = 0; edit < EDITS; edit++) {
    await owner.createPage({ spaceId, body: { title: `Edit ${edit}`, markdown: "One more page." } });
    const fresh = test.docsbase.as({ token: await lookUp() });
    const start = performance.now();
    await fresh.getUserById({ userId: named.id });
    first += performance.now() - start;
  }
  console.log(
    `${`first read after an edit (${PAGES} pages, mean of ${EDITS}):`.padEnd(58)} ${(first / EDITS).toFixed(3)} ms`,
  );
  console.log(`load average at end: ${loadAverage()}`);
}
