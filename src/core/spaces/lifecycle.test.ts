import { createTypedWorkspace } from "../../../test/support/workspace.js";
import { describe, expect, it } from "vitest";
import { changeRequestsTable } from "../change-requests/tables.js";
import { commentRepliesTable, commentsTable } from "../comments/tables.js";
import { revisionsTable } from "../content-tree/tables.js";
import { spacesTable } from "./tables.js";

const DAY = 24 * 60 * 60 * 1000;

const setup = createTypedWorkspace;

describe("space deletion, restore and purge", () => {
  it("deletes (205, then 204), hides the space, and restores it within 7 days", async () => {
    const { api, client, org, space, titles, advance } = await setup();
    const id = await space({ title: "Docs" });
    await space({ title: "Other" });
    const spaces = () => titles(client.listSpacesInOrganizationById({ organizationId: org }));
    advance(1000);
    // Over HTTP for the statuses: 205 when a space went, 204 when there was none.
    expect((await api("DELETE", `/spaces/${id}`)).status).toBe(205);
    expect((await api("DELETE", `/spaces/${id}`)).status).toBe(204);
    expect((await api("DELETE", `/spaces/missing`)).status).toBe(204);
    const spaceId = id;
    for (const call of [
      () => client.getSpaceById({ spaceId }),
      () => client.updateSpaceById({ spaceId, body: { title: "x" } }),
      () => client.duplicateSpace({ spaceId }),
      () => client.moveSpace({ spaceId, body: { parent: null } }),
      () => client.transferSpace({ spaceId, body: { organization: org } }),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: "not_found" });
    }
    expect(await spaces()).toEqual(["Other"]);

    advance(7 * DAY - 2000);
    const restored = await client.restoreSpace({ spaceId });
    expect(restored).toMatchObject({ id, title: "Docs", updatedAt: "2025-01-07T23:59:59.000Z" });
    expect(restored.deletedAt).toBeUndefined();
    expect(await spaces()).toEqual(["Docs", "Other"]);
    await expect(client.restoreSpace({ spaceId })).rejects.toMatchObject({ code: "conflict" });
    await expect(client.restoreSpace({ spaceId: "missing" })).rejects.toMatchObject({ code: "not_found" });
  });

  it("answers 404 after 7 days whether or not the purge has run, and purges the space with its revisions, change requests and comments", async () => {
    const { test, api, client, space, advance, stored } = await setup();
    const early = await space({ title: "Early" });
    const late = await space({ title: "Late" });
    const { revision } = await client.getSpaceById({ spaceId: early });
    const changeRequest = await client.createChangeRequest({
      spaceId: early,
      body: { subject: "Gone soon" },
    });
    const comment = await client.postCommentInSpace({ spaceId: early, body: { body: { markdown: "Bye" } } });
    const reply = await client.postCommentReplyInSpace({
      spaceId: early,
      commentId: comment.id,
      body: { body: { markdown: "Ok" } },
    });
    await client.deleteSpaceById({ spaceId: early });
    advance(DAY);
    await client.deleteSpaceById({ spaceId: late });
    advance(6 * DAY);
    // Exactly 7 days after its deletion: no longer restorable, even before the job runs.
    expect(await stored(spacesTable, early)).toMatchObject({ state: "deleted" });
    await expect(client.restoreSpace({ spaceId: early })).rejects.toMatchObject({ code: "not_found" });
    expect(await test.docsbase.runJobs()).toBe(1);
    expect(await stored(spacesTable, early)).toBeUndefined();
    expect(await stored(revisionsTable, revision)).toBeUndefined();
    expect(await stored(revisionsTable, changeRequest.revision)).toBeUndefined();
    expect(await stored(changeRequestsTable, changeRequest.id)).toBeUndefined();
    expect(await stored(commentsTable, comment.id)).toBeUndefined();
    expect(await stored(commentRepliesTable, reply.id)).toBeUndefined();
    await expect(client.restoreSpace({ spaceId: early })).rejects.toMatchObject({ code: "not_found" });
    // Over HTTP for the status: 204, nothing was deleted.
    expect((await api("DELETE", `/spaces/${early}`)).status).toBe(204);
    // The later deletion is still within its window.
    await client.restoreSpace({ spaceId: late });
  });

  it("keeps a space restored then deleted again until its latest deletion expires", async () => {
    const { test, client, space, advance, stored } = await setup();
    const id = await space({ title: "Docs" });
    await client.deleteSpaceById({ spaceId: id });
    advance(3 * DAY);
    await client.restoreSpace({ spaceId: id });
    await client.deleteSpaceById({ spaceId: id });
    advance(4 * DAY);
    expect(await test.docsbase.runJobs()).toBe(1);
    expect(await stored(spacesTable, id)).toMatchObject({ state: "deleted" });
    advance(3 * DAY);
    expect(await test.docsbase.runJobs()).toBe(1);
    expect(await stored(spacesTable, id)).toBeUndefined();
  });

  it("needs admin to delete or restore; non-members get 404", async () => {
    const { api, space, member, outsider } = await setup();
    const spaceId = await space({ title: "Docs" });
    const creator = (await member("create")).client;
    await expect(creator.deleteSpaceById({ spaceId })).rejects.toMatchObject({ code: "forbidden" });
    expect((await creator.getSpaceById({ spaceId })).permissions.admin).toBe(false);
    // Over HTTP for the status: 205, the space was deleted.
    expect((await api("DELETE", `/spaces/${spaceId}`)).status).toBe(205);
    await expect(creator.restoreSpace({ spaceId })).rejects.toMatchObject({ code: "forbidden" });
    await expect(outsider.client.restoreSpace({ spaceId })).rejects.toMatchObject({ code: "not_found" });
    await (await member("admin")).client.restoreSpace({ spaceId });
  });

  it("answers 404, not 403, to a non-admin restoring a space past its 7 days", async () => {
    const { client, space, member, advance } = await setup();
    const spaceId = await space({ title: "Docs" });
    const reader = (await member("read")).client;
    await client.deleteSpaceById({ spaceId });
    await expect(reader.restoreSpace({ spaceId })).rejects.toMatchObject({ code: "forbidden" });
    advance(7 * DAY);
    await expect(reader.restoreSpace({ spaceId })).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("space duplication", () => {
  it("copies a space right after it, with a revision descending from the source's", async () => {
    const { api, client, org, collection, space, titles, stored } = await setup();
    const box = await collection();
    const source = await space({ title: "Guide", emoji: "📘", parent: box, language: "fr" });
    await space({ title: "Next", parent: box });
    await client.updateSpaceById({ spaceId: source, body: { defaultLevel: "comment", editMode: "locked" } });
    const original = await client.getSpaceById({ spaceId: source });
    const inBox = () => titles(client.listSpacesInCollectionById({ collectionId: box }));

    // Over HTTP for the 201 and its Location header.
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
    expect(await inBox()).toEqual(["Guide", "Guide (copy)", "Next"]);
    expect((await client.duplicateSpace({ spaceId: copy.body.id })).title).toBe("Guide (copy) (copy)");
    expect(await inBox()).toEqual(["Guide", "Guide (copy)", "Guide (copy) (copy)", "Next"]);
  });

  it("truncates the title to 50 characters", async () => {
    const { client, space } = await setup();
    const id = await space({ title: "x".repeat(48) + "🎉" });
    const copy = await client.duplicateSpace({ spaceId: id });
    expect(copy.title).toBe(("x".repeat(48) + "🎉 (copy)").slice(0, 50));
    const long = await space({ title: "y".repeat(49) + "🎉" });
    expect((await client.duplicateSpace({ spaceId: long })).title).toBe("y".repeat(49));
  });

  it("needs read on the source and create at its place", async () => {
    const { client, org, collection, space, member, titles } = await setup();
    const reader = (await member("read")).client;
    const id = await space({ title: "Docs" });
    await expect(reader.duplicateSpace({ spaceId: id })).rejects.toMatchObject({ code: "forbidden" });
    const box = await collection();
    await client.updateCollectionById({ collectionId: box, body: { defaultLevel: "create" } });
    const inBox = await space({ title: "Boxed", parent: box });
    await reader.duplicateSpace({ spaceId: inBox });
    expect(await titles(client.listSpacesInOrganizationById({ organizationId: org }))).toEqual([
      "Docs",
      "Boxed",
      "Boxed (copy)",
    ]);
  });
});
