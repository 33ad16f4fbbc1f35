import { describe, expect, it } from "vitest";
import { fullPage } from "../../../test/support/large-markdown.js";
import { createTestDocsbase } from "../../testing/double.js";
import { chunked, parserRuns } from "../document/markdown.js";

/**
 * A page write parses its markdown once (issue 29): the body's limit check, the link sites stored
 * as references and a document read right after share one parse. Counted in parser runs (one run
 * is one chunk given to the parser), against the runs of one parse of the same markdown.
 */

/** The parser runs of `work`. */
async function runsOf(work: () => Promise<unknown>): Promise<number> {
  const before = parserRuns.count;
  await work();
  return parserRuns.count - before;
}

describe("one parse per page write", () => {
  it("writes a page of links and reads its document back with the runs of one parse", async () => {
    // Over 16 KiB, so that no per-text memo of small pages answers; links, so that link sites are
    // looked for; text no other test writes.
    const markdown = `# One parse\n\nSee [the guide](https://example.com/guide).\n\n${fullPage(40_000)}`;
    const onePass = await runsOf(async () => chunked(markdown));
    expect(onePass).toBeGreaterThan(10);

    const test = await createTestDocsbase();
    const owner = test.as(await test.createUser("Owner"));
    const org = await owner.createOrganization({ body: { title: "Acme" } });
    const space = await owner.createSpace({ organizationId: org.id, body: { title: "Docs" } });
    let pageId = "";
    const write = await runsOf(async () => {
      pageId = (await owner.createPage({ spaceId: space.id, body: { title: "Long", markdown } })).id;
    });
    expect(write).toBe(onePass);

    let document: unknown;
    const read = await runsOf(async () => {
      document = await owner.getPageById({ spaceId: space.id, pageId });
    });
    expect(read).toBe(0);
    expect(JSON.stringify(document)).toContain('"url":"https://example.com/guide"');
    const back = await owner.getPageById({ spaceId: space.id, pageId, format: "markdown" });
    expect(back.markdown).toBe(markdown);

    const edited = `${markdown}\nAnd [one more](https://example.com/more).\n`;
    const oneEditedPass = await runsOf(async () => chunked(edited));
    const update = await runsOf(() =>
      owner.updatePage({ spaceId: space.id, pageId, body: { markdown: edited } }),
    );
    expect(update).toBe(oneEditedPass);
  });
});
