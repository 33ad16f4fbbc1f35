import { beforeAll, describe, expect, it } from "vitest";
import { createTestDocsbase, type TestDocsbase } from "../../testing/double.js";
import { PNG } from "../../../test/support/space-pages.js";

/**
 * A link written before its target exists is stored as written (a path naming nothing); the JSON
 * document resolves it when read, so the order in which pages are written does not change it.
 */
describe("links written before their target", () => {
  const MARKDOWN = [
    "See [install](install.md), [setup](install.md#setup) and [nothing](nowhere.md).",
    "",
    "![logo](.gitbook/assets/logo.png)",
  ].join("\n");
  let test: TestDocsbase;
  let owner: { id: string; token: string };
  let spaceId: string;
  let before: string;
  let after: string;
  let install: string;
  let logo: string;
  beforeAll(async () => {
    test = await createTestDocsbase();
    owner = await test.createUser("Owner");
    const client = test.as(owner);
    const organizationId = (await client.createOrganization({ body: { title: "Acme" } })).id;
    spaceId = (await client.createSpace({ organizationId, body: { title: "Docs" } })).id;
    before = (await client.createPage({ spaceId, body: { title: "Before", markdown: MARKDOWN } })).id;
    install = (await client.createPage({ spaceId, body: { title: "Install", markdown: "## Setup" } })).id;
    logo = (
      await client.uploadFile({ spaceId, body: { name: "logo.png", contentType: "image/png", data: PNG } })
    ).id;
    after = (await client.createPage({ spaceId, body: { title: "After", markdown: MARKDOWN } })).id;
  });

  const documentOf = async (pageId: string) => {
    const client = test.as(owner);
    const revisionId = (await client.getCurrentRevision({ spaceId })).id;
    return client.getPageDocumentInRevisionById({ spaceId, revisionId, pageId });
  };
  /** The `ref`s of a document's links and images, in order. */
  const refsOf = (document: unknown) =>
    [...JSON.stringify(document).matchAll(/"ref":(\{[^}]*\})/g)].map((match) => JSON.parse(match[1]!));

  it("resolve in the document once their target exists", async () => {
    expect(refsOf(await documentOf(before))).toEqual([
      { kind: "page", page: install },
      { kind: "anchor", anchor: "setup", page: install },
      { kind: "url", url: "nowhere.md" },
      { kind: "file", file: logo },
    ]);
  });

  it("give the same document as links written after their target", async () => {
    expect(await documentOf(before)).toEqual(await documentOf(after));
    const client = test.as(owner);
    const read = await client.getPageById({ spaceId, pageId: before, format: "document" });
    expect(read.document).toEqual(await documentOf(after));
  });

  it("stay as written in the markdown, where the path already names the target", async () => {
    const read = await test.as(owner).getPageById({ spaceId, pageId: before, format: "markdown" });
    expect(read.markdown).toBe(MARKDOWN);
  });
});
