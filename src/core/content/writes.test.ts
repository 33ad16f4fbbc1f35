import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { DerivedCache } from "../shared/cache.js";
import { mapDiff, NodeStore } from "../content-tree/hamt.js";
import { type RevisionRecord, revisionsTable } from "../content-tree/tables.js";

async function setup() {
  const w = await createWorkspace();
  const space = await w.space({ title: "Docs" });
  const write = (method: string, path: string, body?: unknown, as = w.api) =>
    as(method, `/spaces/${space}/content${path}`, body);
  const head = async () => (await w.api("GET", `/spaces/${space}`)).body.revision as string;
  return { ...w, space, write, head };
}

describe("content writes", () => {
  it("refuses bad input with 400 naming the field, and changes nothing", async () => {
    const { write, head } = await setup();
    const before = await head();
    const cases: [string, string, unknown, RegExp][] = [
      ["POST", "/pages", {}, /^body\.title: /],
      ["POST", "/pages", { title: "A", slug: "Not A Slug" }, /^body\.slug: /],
      ["POST", "/pages", { title: "A", parent: "missing" }, /^body\.parent: /],
      ["POST", "/files", { name: "a/b.txt", contentType: "text/plain", data: "aGk=" }, /^body\.name: /],
      ["POST", "/files", { name: "a.txt", contentType: "text", data: "aGk=" }, /^body\.contentType: /],
      ["POST", "/files", { name: "a.txt", contentType: "text/plain", data: "not base64!" }, /^body\.data: /],
    ];
    for (const [method, path, body, message] of cases) {
      const response = await write(method, path, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.message).toMatch(message);
    }
    const page = (await write("POST", "/pages", { title: "A" })).body.id;
    const afterCreate = await head();
    expect(afterCreate).not.toBe(before);
    expect((await write("PATCH", `/page/${page}`, {})).status).toBe(400);
    expect((await write("PATCH", "/page/missing", { title: "B" })).status).toBe(404);
    expect(await head()).toBe(afterCreate);
  });

  it("keeps slugs unique among siblings and refuses moves under a descendant", async () => {
    const { write } = await setup();
    const parent = (await write("POST", "/pages", { title: "Guide", slug: "guide" })).body;
    const child = (await write("POST", "/pages", { title: "Step", parent: parent.id })).body;
    expect((await write("POST", "/pages", { title: "Other", slug: "guide" })).status).toBe(409);
    // The same slug under another parent is fine.
    expect((await write("POST", "/pages", { title: "Guide", parent: parent.id })).body.path).toBe(
      "guide/guide",
    );
    const moved = await write("PATCH", `/page/${parent.id}`, { parent: child.id });
    expect(moved.status).toBe(400);
    expect(moved.body.error.message).toMatch(/^body\.parent: /);
    // Moving a page keeps its slug unless a sibling has it, then derives a free one.
    const root = (await write("POST", "/pages", { title: "Step" })).body;
    expect(root.slug).toBe("step");
    const up = await write("PATCH", `/page/${child.id}`, { parent: null });
    expect(up.body).toMatchObject({ path: "step-2", slug: "step-2" });
  });

  it("deletes a page with its descendants: 205, then 204", async () => {
    const { write, api, space } = await setup();
    const parent = (await write("POST", "/pages", { title: "Parent" })).body;
    await write("POST", "/pages", { title: "Child", parent: parent.id });
    expect((await write("DELETE", `/page/${parent.id}`)).status).toBe(205);
    expect((await write("DELETE", `/page/${parent.id}`)).status).toBe(204);
    expect((await api("GET", `/spaces/${space}/content/pages`)).body.pages).toEqual([]);
  });

  it("applies the role rules: read members cannot write, locked spaces refuse everyone, outsiders get 404", async () => {
    const { write, member, outsider, api, space } = await setup();
    const reader = await member("read");
    const editor = await member("edit");
    expect((await write("POST", "/pages", { title: "By reader" }, reader)).status).toBe(403);
    expect((await write("POST", "/pages", { title: "By editor" }, editor)).status).toBe(201);
    expect((await write("POST", "/pages", { title: "By outsider" }, outsider)).status).toBe(404);
    expect((await api("GET", `/spaces/${space}`, undefined)).body.permissions.edit).toBe(true);
    await api("PATCH", `/spaces/${space}`, { editMode: "locked" });
    expect((await api("GET", `/spaces/${space}`)).body.permissions.edit).toBe(false);
    expect((await write("POST", "/pages", { title: "By admin" })).status).toBe(403);
  });

  it("stores one page version per edit and shares the others", async () => {
    const { write, head, stored, storage } = await setup();
    for (let i = 0; i < 5; i++)
      await write("POST", "/pages", { title: `Page ${i}`, markdown: "x".repeat(1000) });
    const pages = (await write("GET", "/pages")).body.pages as { id: string }[];
    await write("PATCH", `/page/${pages[2]!.id}`, { markdown: "edited" });
    const revision = await stored<RevisionRecord>(revisionsTable, await head());
    const parent = await stored<RevisionRecord>(revisionsTable, revision!.parents[0]!);
    // The two revisions' page trees differ by the edited page only; every other version is shared.
    const changes = await storage.read((tx) =>
      mapDiff(new NodeStore(tx, new DerivedCache()), parent!.tree!.pages, revision!.tree!.pages),
    );
    expect([...changes.keys()]).toEqual([pages[2]!.id]);
    expect(changes.get(pages[2]!.id)?.before).not.toEqual(changes.get(pages[2]!.id)?.after);
  });

  it("serves uploaded bytes at the download URL with their content type", async () => {
    const { write, test } = await setup();
    const text = "hello, docs";
    const file = (
      await write("POST", "/files", { name: "note.txt", contentType: "text/plain", data: btoa(text) })
    ).body;
    expect(file).toMatchObject({ name: "note.txt", size: text.length });
    expect(file.dimensions).toBeUndefined();
    const download = await test.fetch(file.downloadURL);
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("text/plain");
    expect(await download.text()).toBe(text);
    expect((await test.fetch("http://docsbase.test/v1/files/unknown/x.txt")).status).toBe(404);
    expect((await write("DELETE", `/files/${file.id}`)).status).toBe(205);
    expect((await write("DELETE", `/files/${file.id}`)).status).toBe(204);
  });
});
