import { it, expect } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
it("writes pages and files, derives paths and slugs, and reads any revision", async () => {
  const w = await createWorkspace();
  const spaceId = await w.space({ title: "Docs" });
  const a = await w.client.createPage({
    spaceId,
    body: { title: "Getting started", markdown: "# Hello\n\nWorld" },
  });
  const b = await w.client.createPage({
    spaceId,
    body: { title: "Install", parent: a.id, markdown: "Run it" },
  });
  expect(b.path).toBe("getting-started/install");
  const dup = await w.client.createPage({ spaceId, body: { title: "Getting started" } });
  expect(dup.slug).toBe("getting-started-2");
  const byPath = await w.client.getPageByPath({ spaceId, pagePath: "getting-started/install" });
  expect(byPath.id).toBe(b.id);
  const rev = await w.client.getCurrentRevision({ spaceId });
  expect(rev.pages).toHaveLength(2);
  const f = await w.client.uploadFile({
    spaceId,
    body: {
      name: "a.png",
      contentType: "image/png",
      data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    },
  });
  expect(f.dimensions).toEqual({ width: 1, height: 1 });
  const dl = await w.test.fetch(f.downloadURL);
  expect(dl.headers.get("content-type")).toBe("image/png");
  expect((await dl.arrayBuffer()).byteLength).toBe(f.size);
  const moved = await w.client.updatePage({ spaceId, pageId: b.id, body: { parent: null } });
  expect(moved.path).toBe("install");
  // Over HTTP for its 205.
  const del = await w.api("DELETE", `/spaces/${spaceId}/content/page/${a.id}`);
  expect(del.status).toBe(205);
  const rev2 = await w.client.getRevisionById({ spaceId, revisionId: rev.id });
  expect(rev2.pages).toHaveLength(2);
  const files = await w.client.listFiles({ spaceId, limit: 1 });
  expect(files.count).toBe(1);
  await w.client.updateSpaceById({ spaceId, body: { editMode: "locked" } });
  await expect(w.client.createPage({ spaceId, body: { title: "x" } })).rejects.toMatchObject({
    code: "forbidden",
  });
});
