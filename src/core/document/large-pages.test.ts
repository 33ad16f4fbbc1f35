import { describe, expect, it } from "vitest";
import { fullPage, longList } from "../../../test/support/large-markdown.js";
import { createTestDocsbase } from "../../testing/double.js";

/**
 * Honest pages of any length within the body size are accepted (issue 29): a list of 20,000
 * short items and a page of 1,000,000 characters are written and read back as written. Before
 * pages were parsed in chunks, both were refused as too costly to parse.
 */

describe("pages at any size", () => {
  it.each([
    ["a list of 20,000 items", longList()],
    ["a page of 1,000,000 characters", fullPage()],
  ])(
    "%s is written and reads back as written",
    async (_, markdown) => {
      const test = await createTestDocsbase();
      const owner = test.as(await test.createUser("Owner"));
      const org = await owner.createOrganization({ body: { title: "Acme" } });
      const space = await owner.createSpace({ organizationId: org.id, body: { title: "Docs" } });
      const page = await owner.createPage({ spaceId: space.id, body: { title: "Long", markdown } });
      const read = await owner.getPageById({ spaceId: space.id, pageId: page.id, format: "markdown" });
      expect(read.markdown).toBe(markdown);
    },
    600_000,
  );

  it("sizes the pages as described", () => {
    expect(longList().length).toBeGreaterThan(600_000);
    expect(fullPage()).toHaveLength(1_000_000);
  });
});
