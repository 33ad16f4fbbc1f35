import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";
import { COVERAGE } from "./coverage.js";
import { PNG } from "../support/space-pages.js";

describe.each(STORAGE_KINDS)("conformance: space and revision content (%s)", (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(kind);
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.content);
    h.expectConformant();
    await h.close();
  });

  it("reads the current content and an older revision through the official client", async () => {
    const owner = await h.test.createUser("Writer");
    const org = (await h.test.as(owner).createOrganization({ body: { title: "Docs Inc" } })).id;
    // Content writes are docsbase's own operations, outside the official client.
    const writer = h.test.as(owner);
    const space = (await writer.createSpace({ organizationId: org, body: { title: "Guide" } })).id;
    const intro = await writer.createPage({
      spaceId: space,
      body: { title: "Introduction", markdown: "# Welcome\n\nHello **world**." },
    });
    const child = await writer.createPage({
      spaceId: space,
      body: { title: "Install", parent: intro.id, markdown: "Run `npm i`." },
    });
    const file = await writer.uploadFile({
      spaceId: space,
      body: { name: "pixel.png", contentType: "image/png", data: PNG },
    });
    const api = h.client(owner.token);

    const { data: revision } = await api.spaces.getCurrentRevision(space);
    expect(revision.pages.map((page) => page.title)).toEqual(["Introduction"]);
    expect(revision.files.map((entry) => entry.name)).toEqual(["pixel.png"]);
    const { data: tree } = await api.spaces.listPages(space);
    expect(tree.pages[0]).toMatchObject({ pages: [{ id: child.id, path: "introduction/install" }] });
    const { data: files } = await api.spaces.listFiles(space, { limit: 10 });
    expect(files.items).toHaveLength(1);
    const { data: oneFile } = await api.spaces.getFileById(space, file.id);
    expect(oneFile.dimensions).toEqual({ width: 1, height: 1 });
    const { data: page } = await api.spaces.getPageById(space, intro.id, { format: "markdown" });
    expect(page).toMatchObject({ title: "Introduction", markdown: "# Welcome\n\nHello **world**." });
    const { data: byPath } = await api.spaces.getPageByPath(space, "introduction/install", {
      format: "markdown",
    });
    expect(byPath.id).toBe(child.id);
    expect(await statusOf(api.spaces.getPageByPath(space, "nowhere"))).toBe(404);

    const older = revision.id;
    await writer.updatePage({
      spaceId: space,
      pageId: intro.id,
      body: { title: "Intro", markdown: "Changed." },
    });
    const { data: oldRevision } = await api.spaces.getRevisionById(space, older);
    expect(oldRevision.pages[0]?.title).toBe("Introduction");
    const { data: oldTree } = await api.spaces.listPagesInRevisionById(space, older);
    expect(oldTree.pages[0]?.title).toBe("Introduction");
    const { data: oldFiles } = await api.spaces.listFilesInRevisionById(space, older);
    expect(oldFiles.count).toBe(1);
    const { data: oldFile } = await api.spaces.getFileInRevisionById(space, older, file.id);
    expect(oldFile.name).toBe("pixel.png");
    const { data: oldPage } = await api.spaces.getPageInRevisionById(space, older, intro.id, {
      format: "markdown",
    });
    expect(oldPage).toMatchObject({ markdown: "# Welcome\n\nHello **world**." });
    const { data: oldByPath } = await api.spaces.getPageInRevisionByPath(space, older, "introduction");
    expect(oldByPath.id).toBe(intro.id);
    const { data: document } = await api.spaces.getPageDocumentInRevisionById(space, older, intro.id);
    expect(document).toMatchObject({
      object: "document",
      nodes: [{ type: "heading-1" }, { type: "paragraph" }],
    });
    const { data: evaluated } = await api.spaces.getPageDocumentInRevisionById(space, older, child.id, {
      evaluated: true,
    });
    expect(evaluated.nodes).toHaveLength(1);
    expect(await statusOf(api.spaces.getPageDocumentInRevisionById(space, older, "no-such-page"))).toBe(404);
    expect(await statusOf(api.spaces.getRevisionById(space, "no-such-revision"))).toBe(404);
  });
});
