import { it, expect } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
it("writes pages and files, derives paths and slugs, and reads any revision", async () => {
  const w = await createWorkspace();
  const space = await w.space({ title: "Docs" });
  const a = await w.api("POST", `/spaces/${space}/content/pages`, {
    title: "Getting started",
    markdown: "# Hello\n\nWorld",
  });
  expect(a.status).toBe(201);
  const b = await w.api("POST", `/spaces/${space}/content/pages`, {
    title: "Install",
    parent: a.body.id,
    markdown: "Run it",
  });
  expect(b.body.path).toBe("getting-started/install");
  const dup = await w.api("POST", `/spaces/${space}/content/pages`, { title: "Getting started" });
  expect(dup.body.slug).toBe("getting-started-2");
  const byPath = await w.api(
    "GET",
    `/spaces/${space}/content/path/${encodeURIComponent("getting-started/install")}`,
  );
  expect(byPath.body.id).toBe(b.body.id);
  const rev = await w.api("GET", `/spaces/${space}/content`);
  expect(rev.body.pages).toHaveLength(2);
  const f = await w.api("POST", `/spaces/${space}/content/files`, {
    name: "a.png",
    contentType: "image/png",
    data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  });
  expect(f.status).toBe(201);
  expect(f.body.dimensions).toEqual({ width: 1, height: 1 });
  const dl = await w.test.fetch(f.body.downloadURL);
  expect(dl.headers.get("content-type")).toBe("image/png");
  expect((await dl.arrayBuffer()).byteLength).toBe(f.body.size);
  const moved = await w.api("PATCH", `/spaces/${space}/content/page/${b.body.id}`, { parent: null });
  expect(moved.body.path).toBe("install");
  const del = await w.api("DELETE", `/spaces/${space}/content/page/${a.body.id}`);
  expect(del.status).toBe(205);
  const rev2 = await w.api("GET", `/spaces/${space}/revisions/${rev.body.id}`);
  expect(rev2.body.pages).toHaveLength(2);
  const files = await w.api("GET", `/spaces/${space}/content/files?limit=1`);
  expect(files.body.count).toBe(1);
  await w.api("PATCH", `/spaces/${space}`, { editMode: "locked" });
  expect((await w.api("POST", `/spaces/${space}/content/pages`, { title: "x" })).status).toBe(403);
});
