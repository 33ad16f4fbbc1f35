import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";

/**
 * Issue 29, item 4: each location of a link list embedded its page with the page's whole
 * markdown, so a list cost the size of the pages holding the links. A location names its page
 * (id, title, path, urls...) with an empty body: the bytes follow the number of links.
 */

/** About `chars` characters of plain paragraphs, then one link to `target.md`. */
const pageOf = (chars: number) =>
  "Plain words in a paragraph that links to nothing at all.\n\n".repeat(Math.ceil(chars / 58)) +
  "See [the target](target.md).";

describe("link locations", () => {
  it("weigh the same for a page of 300 KB as for a page of one line", async () => {
    const w = await createWorkspace();
    const spaceId = await w.space({ title: "Docs" });
    await w.client.createPage({ spaceId, body: { title: "Target", markdown: "The target." } });
    const { id: pageId } = await w.client.createPage({
      spaceId,
      body: { title: "Source", markdown: pageOf(0) },
    });
    const target = (await w.client.listSpaceLinks({ spaceId })).items[0]!.targetReference!;
    const bytes = async () => {
      const links = await w.api("GET", `/spaces/${spaceId}/links`);
      const backlinks = await w.api(
        "GET",
        `/spaces/${spaceId}/content/page/${target.kind === "page" ? target.page.id : ""}/backlinks`,
      );
      expect([links.status, backlinks.status]).toEqual([200, 200]);
      expect(links.body.items).toHaveLength(1);
      expect(backlinks.body.items).toHaveLength(1);
      return JSON.stringify(links.body).length + JSON.stringify(backlinks.body).length;
    };
    const small = await bytes();
    await w.client.updatePage({ spaceId, pageId, body: { markdown: pageOf(300_000) } });
    const large = await bytes();
    expect(large - small).toBeLessThan(200);
    const { items } = await w.client.listSpaceLinks({ spaceId });
    const [source] = items[0]!.locationReferences;
    expect(source).toMatchObject({ kind: "page", page: { id: pageId, title: "Source", path: "source" } });
    // The reference's page must hold a body, markdown or JSON: a location's is empty.
    expect(source).toMatchObject({ page: { markdown: "" } });
    expect(source!.kind === "page" && source!.page).not.toHaveProperty("document");
  });
});
