import { describe, expect, it } from "vitest";
import { createWorkspace, type WorkspaceUser } from "../../../test/support/workspace.js";
import { revisionsTable } from "../content-tree/tables.js";
import { changeRequestsTable } from "./tables.js";
import { pushesTable } from "./pushes.js";

/**
 * pushChangeRequest (pushes.ts): offline edits arrive as one change request, atomically and
 * idempotently.
 */

async function setup() {
  const workspace = await createWorkspace();
  const { client, storage } = workspace;
  const spaceId = await workspace.space({ title: "Docs" });
  const page = async (title: string, markdown = "", parent?: string) =>
    (await client.createPage({ spaceId, body: { title, markdown, ...(parent ? { parent } : {}) } })).id;
  const guide = await page("Guide", "one\ntwo\nthree");
  const setupPage = await page("Setup", "setup");
  const old = await page("Old", "old");
  const oldChild = await page("Old child", "child", old);
  const revision = (await client.getSpaceById({ spaceId })).revision;
  const editor = await workspace.member("edit");
  const push = (as: WorkspaceUser, pushId: string, body: unknown) =>
    as("PUT", `/spaces/${spaceId}/pushes/${pushId}`, body);
  /** What a push may write: the space's revisions, change requests and pushes. */
  const snapshot = async () =>
    JSON.stringify([
      await storage.read(async (tx) => [
        await tx.list(revisionsTable, { index: "bySpace", where: [spaceId] }),
        await tx.list(changeRequestsTable, { index: "bySpaceNumber", where: [spaceId] }),
        await tx.list(pushesTable, { index: "bySpace", where: [spaceId] }),
      ]),
      await client.getSpaceById({ spaceId }),
    ]);
  const crPages = async (changeRequestId: string) =>
    (await workspace.api("GET", `/spaces/${spaceId}/change-requests/${changeRequestId}/content/pages`)).body
      .pages as { id: string; title: string; slug: string; pages: { id: string; title: string }[] }[];
  const crMarkdown = async (changeRequestId: string, pageId: string) =>
    (await client.getPageInChangeRequestById({ spaceId, changeRequestId, pageId, format: "markdown" }))
      .markdown;
  return {
    ...workspace,
    spaceId,
    guide,
    setupPage,
    old,
    oldChild,
    revision,
    editor,
    push,
    snapshot,
    crPages,
    crMarkdown,
  };
}

const state = (id: string, title: string, markdown: string, parent: string | null = null) => ({
  id,
  parent,
  title,
  markdown,
});

describe("pushChangeRequest", () => {
  it("opens one change request from the revision the edits were made against", async () => {
    const { spaceId, guide, setupPage, old, revision, editor, push, crPages, crMarkdown, client } =
      await setup();
    const answer = await push(editor, "push-0001", {
      revision,
      subject: "Offline edits",
      pages: [
        state(guide, "Guide", "one\ntwo (edited)\nthree"),
        state("new-page-1", "Fresh page", "new"),
        { id: old, deleted: true },
      ],
      files: [{ id: "file-1", name: "a.txt", contentType: "text/plain", data: btoa("bytes") }],
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      object: "change-request",
      number: 1,
      status: "open",
      subject: "Offline edits",
      revisionInitial: revision,
      createdBy: { id: editor.userId },
    });
    expect(answer.body.revision).not.toBe(revision);
    const cr = answer.body.id as string;
    // The old page went with its child; the new page is last at the root, with the id pushed.
    expect((await crPages(cr)).map((page) => [page.id, page.slug])).toEqual([
      [guide, "guide"],
      [setupPage, "setup"],
      ["new-page-1", "fresh-page"],
    ]);
    expect(await crMarkdown(cr, guide)).toBe("one\ntwo (edited)\nthree");
    const file = await client.getFileInChangeRequestById({ spaceId, changeRequestId: cr, fileId: "file-1" });
    expect(file).toMatchObject({ id: "file-1", name: "a.txt", size: 5 });
    const contributors = await client.getContributorsByChangeRequestId({ spaceId, changeRequestId: cr });
    expect(contributors.items.map((item) => item.user.id)).toEqual([editor.userId]);
    // The space itself did not change.
    expect((await client.getSpaceById({ spaceId })).revision).toBe(revision);
  });

  it("recognises a retried push: one change request, one revision, nothing applied twice", async () => {
    const { guide, revision, editor, push, snapshot, workspaceMember } = await (async () => {
      const base = await setup();
      return { ...base, workspaceMember: await base.member("edit") };
    })();
    const body = { revision, pages: [state(guide, "Guide", "edited")] };
    const first = await push(editor, "retry-0001", body);
    expect(first.status).toBe(200);
    const before = await snapshot();
    // Keys in another order are the same body.
    const again = await push(editor, "retry-0001", { pages: body.pages, revision });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await snapshot()).toBe(before);
    const other = await push(editor, "retry-0001", { revision, pages: [state(guide, "Guide", "other")] });
    expect(other.status).toBe(409);
    expect(other.body.error.message).toContain("pushId");
    const stranger = await push(workspaceMember, "retry-0001", body);
    expect(stranger.status).toBe(409);
    expect(stranger.body.error.message).toContain("pushId");
    expect(await snapshot()).toBe(before);
  });

  it("extends the change request an earlier push of the caller opened", async () => {
    const { spaceId, guide, setupPage, revision, editor, push, crPages, crMarkdown, api, member } =
      await setup();
    const opened = (await push(editor, "open-0001", { revision, pages: [state(guide, "Guide", "v1")] })).body;
    const extended = await push(editor, "more-0001", {
      changeRequest: opened.id,
      pages: [state(setupPage, "Setup", "v2", guide)],
    });
    expect(extended.status).toBe(200);
    expect(extended.body).toMatchObject({ id: opened.id, number: 1, revisionInitial: revision });
    expect(extended.body.revision).not.toBe(opened.revision);
    expect(await crMarkdown(opened.id, guide)).toBe("v1");
    expect((await crPages(opened.id))[0]!.pages.map((page) => page.id)).toEqual([setupPage]);
    // Another editor's push may not extend it; a change request made otherwise takes no pushes.
    const other = await member("edit");
    const refused = await push(other, "more-0002", { changeRequest: opened.id, pages: [] });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain("body.changeRequest");
    const manual = (await editor("POST", `/spaces/${spaceId}/change-requests`, {})).body.id;
    const notPushed = await push(editor, "more-0003", { changeRequest: manual, pages: [] });
    expect(notPushed.status).toBe(409);
    // Merged: no more pushes.
    expect((await api("POST", `/spaces/${spaceId}/change-requests/${opened.id}/merge`)).status).toBe(200);
    const merged = await push(editor, "more-0004", {
      changeRequest: opened.id,
      pages: [state(guide, "G", "x")],
    });
    expect(merged.status).toBe(409);
    expect(merged.body.error.message).toContain("merged");
  });

  it("refuses bad input with a 4xx naming the field, storing nothing", async () => {
    const {
      guide,
      setupPage,
      old,
      oldChild,
      revision,
      editor,
      push,
      snapshot,
      api,
      organization,
      space,
      test,
    } = await setup();
    const otherSpace = await space({ title: "Other" });
    const otherRevision = (await api("GET", `/spaces/${otherSpace}`)).body.revision;
    void organization;
    void test;
    const cases: [string, unknown, number, string][] = [
      ["bad!", { revision, pages: [state(guide, "G", "x")] }, 400, "pushId"],
      ["short", { revision, pages: [state(guide, "G", "x")] }, 400, "pushId"],
      ["bad-input-1", { pages: [state(guide, "G", "x")] }, 400, "body.revision"],
      ["bad-input-2", { revision: "nope", pages: [state(guide, "G", "x")] }, 404, "body.revision"],
      ["bad-input-3", { revision: otherRevision, pages: [state(guide, "G", "x")] }, 404, "body.revision"],
      ["bad-input-4", { revision, pages: [state("p", "P", "x", "missing")] }, 400, "body.pages.0.parent"],
      ["bad-input-5", { revision, pages: [state(old, "Old", "x", oldChild)] }, 400, "body.pages.0.parent"],
      [
        "bad-input-6",
        { revision, pages: [state("p", "P", "x"), state("p", "P", "x")] },
        400,
        "body.pages.1.id",
      ],
      [
        "bad-input-7",
        { revision, pages: [{ ...state(setupPage, "S", "x"), slug: "guide" }] },
        409,
        "body.pages.0.slug",
      ],
      ["bad-input-8", { revision, pages: [state("n1", "Guide", "x")] }, 409, "body.pages.0.slug"],
      ["bad-input-9", { revision, pages: [] }, 400, "nothing to push"],
      ["bad-input-10", { revision }, 400, "nothing to push"],
      ["bad-input-11", { revision, pages: [state(guide, "", "x")] }, 400, "body.pages.0.title"],
      [
        "bad-input-12",
        { revision, files: [{ id: "f", name: "a", contentType: "text/plain", data: "%%%" }] },
        400,
        "body.files.0.data",
      ],
      ["bad-input-13", { revision, pages: [{ id: guide, deleted: "yes" }] }, 400, "body.pages.0.deleted"],
      ["bad-input-14", { revision, changeRequest: "nope", pages: [] }, 404, "body.changeRequest"],
      [
        "bad-input-15",
        { revision, subject: "x".repeat(101), pages: [state(guide, "G", "x")] },
        400,
        "body.subject",
      ],
      // A page moved into the subtree of a deleted page has no parent left.
      [
        "bad-input-16",
        { revision, pages: [{ id: old, deleted: true }, state(guide, "G", "x", oldChild)] },
        400,
        "body.pages.1.parent",
      ],
    ];
    const before = await snapshot();
    for (const [pushId, body, status, field] of cases) {
      const answer = await push(editor, pushId, body);
      expect([pushId, answer.status]).toEqual([pushId, status]);
      expect(answer.body.error.message).toContain(field);
    }
    const tooMany = Array.from({ length: 10_001 }, (_, i) => ({ id: `gone-${i}`, deleted: true }));
    const limited = await push(editor, "too-many-1", { revision, pages: tooMany });
    expect(limited.status).toBe(400);
    expect(limited.body.error.message).toContain("body.pages");
    expect(await snapshot()).toBe(before);
  });

  it("needs edit on the space, which a locked space denies", async () => {
    const { spaceId, guide, revision, push, snapshot, member, api } = await setup();
    const body = { revision, pages: [state(guide, "Guide", "x")] };
    const before = await snapshot();
    for (const role of ["read", "comment"] as const) {
      expect((await push(await member(role), `role-${role}-1`, body)).status).toBe(403);
    }
    expect(await snapshot()).toBe(before);
    expect((await api("PATCH", `/spaces/${spaceId}`, { editMode: "locked" })).status).toBe(200);
    expect((await push(await member("edit"), "locked-0001", body)).status).toBe(403);
    expect((await api("PATCH", `/spaces/${spaceId}`, { editMode: "live" })).status).toBe(200);
    expect((await push(await member("edit"), "unlocked-01", body)).status).toBe(200);
  });

  it("keeps a page's place under an unchanged parent; a moved page goes last; descendants kept by their own entry stay", async () => {
    const { guide, setupPage, old, oldChild, revision, editor, push, crPages } = await setup();
    const cr = (
      await push(editor, "places-001", {
        revision,
        pages: [
          state(setupPage, "Setup", "setup (edited)"),
          { id: old, deleted: true },
          state(oldChild, "Old child", "child", guide),
          state("second", "Second", "", guide),
        ],
      })
    ).body.id;
    const tree = await crPages(cr);
    expect(tree.map((page) => page.id)).toEqual([guide, setupPage]);
    expect(tree[0]!.pages.map((page) => page.id)).toEqual([oldChild, "second"]);
  });

  it("opened from an older revision: the update reports the pages changed meanwhile, and merges the rest once resolved", async () => {
    const { spaceId, guide, setupPage, old, revision, editor, push, member, client, crMarkdown } =
      await setup();
    // Meanwhile another user edits Guide and Setup on the live space.
    const other = await member("edit");
    await other.client.updatePage({ spaceId, pageId: guide, body: { markdown: "one\ntwo (live)\nthree" } });
    await other.client.updatePage({ spaceId, pageId: setupPage, body: { markdown: "setup (live)" } });
    const spaceRevision = (await client.getSpaceById({ spaceId })).revision;
    const cr = (
      await push(editor, "older-0001", {
        revision,
        pages: [
          state(guide, "Guide", "one\ntwo (offline)\nthree"),
          state(setupPage, "Setup", "setup (offline)"),
          { id: old, deleted: true },
          state("added-1", "Added", "added"),
        ],
      })
    ).body;
    const inCr = { spaceId, changeRequestId: cr.id as string };
    const path = `/spaces/${spaceId}/change-requests/${cr.id}/update`;
    // The official client sends no body: the conflicts are reported, nothing is written.
    const update = await editor.client.updateChangeRequest(inCr);
    expect(update.result).toBe("conflicts");
    expect(update.conflicts?.map((item) => ("page" in item ? item.page : "")).sort()).toEqual(
      [guide, setupPage].sort(),
    );
    expect((await client.getChangeRequestById(inCr)).revision).toBe(cr.revision);
    const bad = await editor("POST", path, { resolutions: { pages: { [guide]: "mine" } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain(`body.resolutions.pages.${guide}`);
    // Resolving one of two: the other is still listed, alone; a resolution of a page not in
    // conflict (the deleted one) is ignored.
    const partly = await editor("POST", path, {
      resolutions: { pages: { [guide]: "changeRequest", [old]: "space" } },
    });
    expect(partly.body).toEqual({
      revision: cr.revision,
      result: "conflicts",
      conflicts: [{ page: setupPage, reason: expect.any(String) }],
    });
    expect((await client.getChangeRequestById(inCr)).revision).toBe(cr.revision);
    const resolved = await editor("POST", path, {
      resolutions: { pages: { [guide]: "changeRequest", [setupPage]: "space", [old]: "space" } },
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body.result).toBe("update");
    expect(await client.getChangeRequestById(inCr)).toMatchObject({
      revision: resolved.body.revision,
      revisionMergedAncestor: spaceRevision,
      outdated: false,
    });
    expect(await crMarkdown(cr.id, guide)).toBe("one\ntwo (offline)\nthree");
    expect(await crMarkdown(cr.id, setupPage)).toBe("setup (live)");
    // The next merge is clean and brings the rest: the deletion and the new page.
    expect((await client.mergeChangeRequest(inCr)).result).toBe("merge");
    const live = await client.listPages({ spaceId });
    expect(live.pages.map((page) => page.id)).toEqual([guide, setupPage, "added-1"]);
    const markdown = async (pageId: string) =>
      (await client.getPageById({ spaceId, pageId, format: "markdown" })).markdown;
    expect(await markdown(guide)).toBe("one\ntwo (offline)\nthree");
    expect(await markdown(setupPage)).toBe("setup (live)");
  });
});
