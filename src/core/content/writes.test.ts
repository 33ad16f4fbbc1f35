import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import type { TestClient } from "../../testing/double.js";
import type { ClientInput } from "../client.js";
import type { Operations } from "../operations.js";
import { DerivedCache } from "../shared/cache.js";
import { mapDiff, NodeStore } from "../content-tree/hamt.js";
import { type RevisionRecord, revisionsTable } from "../content-tree/tables.js";

type CreatePage = ClientInput<Operations["createPage"]>["body"];

async function setup() {
  const w = await createWorkspace();
  const space = await w.space({ title: "Docs" });
  /** Over HTTP, for what only HTTP shows: a delete's 205 or 204, bodies no client type allows. */
  const write = (method: string, path: string, body?: unknown) =>
    w.api(method, `/spaces/${space}/content${path}`, body);
  const createPage = (body: CreatePage, as: TestClient = w.client) => as.createPage({ spaceId: space, body });
  const updatePage = (pageId: string, body: ClientInput<Operations["updatePage"]>["body"]) =>
    w.client.updatePage({ spaceId: space, pageId, body });
  const head = async () => (await w.client.getSpaceById({ spaceId: space })).revision;
  return { ...w, space, write, createPage, updatePage, head };
}

const refused = (call: Promise<unknown>, code: string, message?: RegExp) =>
  expect(call).rejects.toMatchObject({
    code,
    ...(message ? { message: expect.stringMatching(message) } : {}),
  });

describe("content writes", () => {
  it("refuses bad input with 400 naming the field, and changes nothing", async () => {
    const { client, space, write, createPage, updatePage, head } = await setup();
    const before = await head();
    const upload = (body: ClientInput<Operations["uploadFile"]>["body"]) =>
      client.uploadFile({ spaceId: space, body });
    // Over HTTP: a page without a title is a body no client type allows.
    const untitled = await write("POST", "/pages", {});
    expect(untitled.status).toBe(400);
    expect(untitled.body.error.message).toMatch(/^body\.title: /);
    const cases: [string, () => Promise<unknown>, RegExp][] = [
      ["slug", () => createPage({ title: "A", slug: "Not A Slug" }), /^body\.slug: /],
      ["parent", () => createPage({ title: "A", parent: "missing" }), /^body\.parent: /],
      ["name", () => upload({ name: "a/b.txt", contentType: "text/plain", data: "aGk=" }), /^body\.name: /],
      [
        "contentType",
        () => upload({ name: "a.txt", contentType: "text", data: "aGk=" }),
        /^body\.contentType: /,
      ],
      [
        "data",
        () => upload({ name: "a.txt", contentType: "text/plain", data: "not base64!" }),
        /^body\.data: /,
      ],
    ];
    for (const [label, send, message] of cases) {
      await expect(send(), label).rejects.toMatchObject({
        code: "bad_request",
        message: expect.stringMatching(message),
      });
    }
    const page = (await createPage({ title: "A" })).id;
    const afterCreate = await head();
    expect(afterCreate).not.toBe(before);
    await refused(updatePage(page, {}), "bad_request");
    await refused(updatePage("missing", { title: "B" }), "not_found");
    expect(await head()).toBe(afterCreate);
  });

  it("keeps slugs unique among siblings and refuses moves under a descendant", async () => {
    const { createPage, updatePage } = await setup();
    const parent = await createPage({ title: "Guide", slug: "guide" });
    const child = await createPage({ title: "Step", parent: parent.id });
    await refused(createPage({ title: "Other", slug: "guide" }), "conflict");
    // The same slug under another parent is fine.
    expect((await createPage({ title: "Guide", parent: parent.id })).path).toBe("guide/guide");
    await refused(updatePage(parent.id, { parent: child.id }), "bad_request", /^body\.parent: /);
    // Moving a page keeps its slug unless a sibling has it, then derives a free one.
    const root = await createPage({ title: "Step" });
    expect(root.slug).toBe("step");
    const up = await updatePage(child.id, { parent: null });
    expect(up).toMatchObject({ path: "step-2", slug: "step-2" });
  });

  it("deletes a page with its descendants: 205, then 204", async () => {
    const { client, write, createPage, space } = await setup();
    const parent = await createPage({ title: "Parent" });
    await createPage({ title: "Child", parent: parent.id });
    expect((await write("DELETE", `/page/${parent.id}`)).status).toBe(205);
    expect((await write("DELETE", `/page/${parent.id}`)).status).toBe(204);
    expect((await client.listPages({ spaceId: space })).pages).toEqual([]);
  });

  it("applies the role rules: read members cannot write, locked spaces refuse everyone, outsiders get 404", async () => {
    const { client, createPage, member, outsider, space } = await setup();
    const reader = await member("read");
    const editor = await member("edit");
    await refused(createPage({ title: "By reader" }, reader.client), "forbidden");
    await createPage({ title: "By editor" }, editor.client);
    await refused(createPage({ title: "By outsider" }, outsider.client), "not_found");
    expect((await client.getSpaceById({ spaceId: space })).permissions.edit).toBe(true);
    await client.updateSpaceById({ spaceId: space, body: { editMode: "locked" } });
    expect((await client.getSpaceById({ spaceId: space })).permissions.edit).toBe(false);
    await refused(createPage({ title: "By admin" }), "forbidden");
  });

  it("stores one page version per edit and shares the others", async () => {
    const { client, space, createPage, updatePage, head, stored, storage } = await setup();
    for (let i = 0; i < 5; i++) await createPage({ title: `Page ${i}`, markdown: "x".repeat(1000) });
    const pages = (await client.listPages({ spaceId: space })).pages;
    await updatePage(pages[2]!.id, { markdown: "edited" });
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
    const { client, space, write, test } = await setup();
    const text = "hello, docs";
    const file = await client.uploadFile({
      spaceId: space,
      body: { name: "note.txt", contentType: "text/plain", data: btoa(text) },
    });
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
