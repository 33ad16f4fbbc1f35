import { createWorkspace } from "../../../test/support/workspace.js";
import { describe, expect, it } from "vitest";
import { changeRequestsTable } from "../change-requests/tables.js";
import { commentRepliesTable, commentsTable } from "../comments/tables.js";
import { revisionsTable } from "../content-tree/tables.js";
import { spacesTable } from "./tables.js";

const DAY = 24 * 60 * 60 * 1000;

const setup = createWorkspace;

describe("space deletion, restore and purge", () => {
  it("deletes (205, then 204), hides the space, and restores it within 7 days", async () => {
    const { api, org, space, titles, advance } = await setup();
    const id = await space({ title: "Docs" });
    await space({ title: "Other" });
    advance(1000);
    expect((await api("DELETE", `/spaces/${id}`)).status).toBe(205);
    expect((await api("DELETE", `/spaces/${id}`)).status).toBe(204);
    expect((await api("DELETE", `/spaces/missing`)).status).toBe(204);
    for (const [method, path] of [
      ["GET", `/spaces/${id}`],
      ["PATCH", `/spaces/${id}`],
      ["POST", `/spaces/${id}/duplicate`],
      ["POST", `/spaces/${id}/move`],
      ["POST", `/spaces/${id}/transfer`],
    ] as const) {
      const body =
        method === "GET"
          ? undefined
          : method === "PATCH"
            ? { title: "x" }
            : { parent: null, organization: org };
      expect((await api(method, path, body)).status).toBe(404);
    }
    expect(await titles(`/orgs/${org}/spaces`)).toEqual(["Other"]);

    advance(7 * DAY - 2000);
    const restored = await api("POST", `/spaces/${id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ id, title: "Docs", updatedAt: "2025-01-07T23:59:59.000Z" });
    expect(restored.body.deletedAt).toBeUndefined();
    expect(await titles(`/orgs/${org}/spaces`)).toEqual(["Docs", "Other"]);
    expect((await api("POST", `/spaces/${id}/restore`)).status).toBe(409);
    expect((await api("POST", `/spaces/missing/restore`)).status).toBe(404);
  });

  it("answers 404 after 7 days whether or not the purge has run, and purges the space with its revisions, change requests and comments", async () => {
    const { test, api, space, advance, stored } = await setup();
    const early = await space({ title: "Early" });
    const late = await space({ title: "Late" });
    const { revision } = (await api("GET", `/spaces/${early}`)).body;
    const changeRequest = (await api("POST", `/spaces/${early}/change-requests`, { subject: "Gone soon" }))
      .body;
    const comment = (await api("POST", `/spaces/${early}/comments`, { body: { markdown: "Bye" } })).body;
    const reply = (
      await api("POST", `/spaces/${early}/comments/${comment.id}/replies`, { body: { markdown: "Ok" } })
    ).body;
    await api("DELETE", `/spaces/${early}`);
    advance(DAY);
    await api("DELETE", `/spaces/${late}`);
    advance(6 * DAY);
    // Exactly 7 days after its deletion: no longer restorable, even before the job runs.
    expect(await stored(spacesTable, early)).toMatchObject({ state: "deleted" });
    expect((await api("POST", `/spaces/${early}/restore`)).status).toBe(404);
    expect(await test.docsbase.runJobs()).toBe(1);
    expect(await stored(spacesTable, early)).toBeUndefined();
    expect(await stored(revisionsTable, revision)).toBeUndefined();
    expect(await stored(revisionsTable, changeRequest.revision)).toBeUndefined();
    expect(await stored(changeRequestsTable, changeRequest.id)).toBeUndefined();
    expect(await stored(commentsTable, comment.id)).toBeUndefined();
    expect(await stored(commentRepliesTable, reply.id)).toBeUndefined();
    expect((await api("POST", `/spaces/${early}/restore`)).status).toBe(404);
    expect((await api("DELETE", `/spaces/${early}`)).status).toBe(204);
    // The later deletion is still within its window.
    expect((await api("POST", `/spaces/${late}/restore`)).status).toBe(200);
  });

  it("keeps a space restored then deleted again until its latest deletion expires", async () => {
    const { test, api, space, advance, stored } = await setup();
    const id = await space({ title: "Docs" });
    await api("DELETE", `/spaces/${id}`);
    advance(3 * DAY);
    await api("POST", `/spaces/${id}/restore`);
    await api("DELETE", `/spaces/${id}`);
    advance(4 * DAY);
    expect(await test.docsbase.runJobs()).toBe(1);
    expect(await stored(spacesTable, id)).toMatchObject({ state: "deleted" });
    advance(3 * DAY);
    expect(await test.docsbase.runJobs()).toBe(1);
    expect(await stored(spacesTable, id)).toBeUndefined();
  });

  it("needs admin to delete or restore; non-members get 404", async () => {
    const { api, space, member, outsider } = await setup();
    const id = await space({ title: "Docs" });
    const creator = await member("create");
    expect((await creator("DELETE", `/spaces/${id}`)).status).toBe(403);
    expect((await creator("GET", `/spaces/${id}`)).body.permissions.admin).toBe(false);
    expect((await api("DELETE", `/spaces/${id}`)).status).toBe(205);
    expect((await creator("POST", `/spaces/${id}/restore`)).status).toBe(403);
    expect((await outsider("POST", `/spaces/${id}/restore`)).status).toBe(404);
    expect((await (await member("admin"))("POST", `/spaces/${id}/restore`)).status).toBe(200);
  });

  it("answers 404, not 403, to a non-admin restoring a space past its 7 days", async () => {
    const { api, space, member, advance } = await setup();
    const id = await space({ title: "Docs" });
    const reader = await member("read");
    await api("DELETE", `/spaces/${id}`);
    expect((await reader("POST", `/spaces/${id}/restore`)).status).toBe(403);
    advance(7 * DAY);
    expect((await reader("POST", `/spaces/${id}/restore`)).status).toBe(404);
  });
});

describe("space duplication", () => {
  it("copies a space right after it, with a revision descending from the source's", async () => {
    const { api, org, collection, space, titles, stored } = await setup();
    const box = await collection();
    const source = await space({ title: "Guide", emoji: "📘", parent: box, language: "fr" });
    await space({ title: "Next", parent: box });
    await api("PATCH", `/spaces/${source}`, { defaultLevel: "comment", editMode: "locked" });
    const original = (await api("GET", `/spaces/${source}`)).body;

    const copy = await api("POST", `/spaces/${source}/duplicate`);
    expect(copy.status).toBe(201);
    expect(copy.headers.get("location")).toBe(copy.body.urls.location);
    expect(copy.body).toMatchObject({
      title: "Guide (copy)",
      emoji: "📘",
      parent: box,
      language: "fr",
      visibility: "in-collection",
      editMode: "locked",
      defaultLevel: "comment",
      organization: org,
    });
    expect(copy.body.id).not.toBe(source);
    expect(copy.body.revision).not.toBe(original.revision);
    expect(await stored(revisionsTable, copy.body.revision)).toMatchObject({
      space: copy.body.id,
      parents: [original.revision],
    });
    expect(await titles(`/collections/${box}/spaces`)).toEqual(["Guide", "Guide (copy)", "Next"]);
    expect((await api("POST", `/spaces/${copy.body.id}/duplicate`)).body.title).toBe("Guide (copy) (copy)");
    expect(await titles(`/collections/${box}/spaces`)).toEqual([
      "Guide",
      "Guide (copy)",
      "Guide (copy) (copy)",
      "Next",
    ]);
  });

  it("truncates the title to 50 characters", async () => {
    const { api, space } = await setup();
    const id = await space({ title: "x".repeat(48) + "🎉" });
    const copy = await api("POST", `/spaces/${id}/duplicate`);
    expect(copy.body.title).toBe(("x".repeat(48) + "🎉 (copy)").slice(0, 50));
    const long = await space({ title: "y".repeat(49) + "🎉" });
    expect((await api("POST", `/spaces/${long}/duplicate`)).body.title).toBe("y".repeat(49));
  });

  it("needs read on the source and create at its place", async () => {
    const { api, org, collection, space, member, titles } = await setup();
    const reader = await member("read");
    const id = await space({ title: "Docs" });
    expect((await reader("POST", `/spaces/${id}/duplicate`)).status).toBe(403);
    const box = await collection();
    await api("PATCH", `/collections/${box}`, { defaultLevel: "create" });
    const inBox = await space({ title: "Boxed", parent: box });
    expect((await reader("POST", `/spaces/${inBox}/duplicate`)).status).toBe(201);
    expect(await titles(`/orgs/${org}/spaces`)).toEqual(["Docs", "Boxed", "Boxed (copy)"]);
  });
});
