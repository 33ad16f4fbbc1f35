import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import type { ClientInput } from "../client.js";
import type { Operations } from "../operations.js";
import { changeRequestsTable } from "./tables.js";
import { revisionsTable } from "../content-tree/tables.js";

const LINES = ["one", "two", "three", "four", "five", "six"].join("\n");

type PageEdit = ClientInput<Operations["updatePage"]>["body"];

async function setup() {
  const workspace = await createWorkspace();
  const { client } = workspace;
  const spaceId = await workspace.space({ title: "Docs" });
  const base = `/spaces/${spaceId}/change-requests`;
  const page = async (title: string, markdown = "", parent?: string) =>
    (await client.createPage({ spaceId, body: { title, markdown, ...(parent ? { parent } : {}) } })).id;
  const a = await page("Alpha", LINES);
  const b = await page("Beta", "beta");
  const cr = await client.createChangeRequest({ spaceId, body: { subject: "Change" } });
  const inCr = { spaceId, changeRequestId: cr.id };
  const editLive = (pageId: string, body: PageEdit) => client.updatePage({ spaceId, pageId, body });
  const editCr = (pageId: string, body: PageEdit) =>
    client.updatePageInChangeRequest({ ...inCr, pageId, body });
  const livePage = (pageId: string) => client.getPageById({ spaceId, pageId, format: "markdown" });
  const crPage = (pageId: string) =>
    client.getPageInChangeRequestById({ ...inCr, pageId, format: "markdown" });
  const spaceRecord = () => client.getSpaceById({ spaceId });
  const changeRequest = () => client.getChangeRequestById(inCr);
  const merge = () => client.mergeChangeRequest(inCr);
  const update = () => client.updateChangeRequest(inCr);
  return {
    ...workspace,
    spaceId,
    base,
    inCr,
    page,
    a,
    b,
    cr,
    editLive,
    editCr,
    livePage,
    crPage,
    spaceRecord,
    changeRequest,
    merge,
    update,
  };
}

const replaceLine = (text: string, index: number, line: string) =>
  text
    .split("\n")
    .map((current, i) => (i === index ? line : current))
    .join("\n");

describe("merging change requests", () => {
  it("merges disjoint page edits and records the merge", async () => {
    const { a, b, cr, editLive, editCr, livePage, merge, spaceRecord, changeRequest, stored } = await setup();
    await editCr(a, { title: "Alpha (CR)" });
    await editLive(b, { markdown: "beta (live)" });
    const before = await spaceRecord();
    expect((await changeRequest()).outdated).toBe(true);
    const headOfCr = (await changeRequest()).revision;
    const merged = await merge();
    expect(merged).toEqual({ revision: expect.any(String), result: "merge" });
    expect((await livePage(a)).title).toBe("Alpha (CR)");
    expect((await livePage(b)).markdown).toBe("beta (live)");
    const after = await spaceRecord();
    expect(after.revision).toBe(merged.revision);
    const revision = await stored(revisionsTable, merged.revision);
    expect(revision).toMatchObject({ type: "merge", parents: [before.revision, headOfCr] });
    expect(await changeRequest()).toMatchObject({
      id: cr.id,
      status: "merged",
      revisionMerged: merged.revision,
      outdated: false,
    });
  });

  it("keeps independent edits to different lines of one page", async () => {
    const { a, editLive, editCr, livePage, merge } = await setup();
    await editCr(a, { markdown: replaceLine(LINES, 0, "ONE (cr)") });
    await editLive(a, { markdown: replaceLine(LINES, 5, "SIX (live)") });
    expect((await merge()).result).toBe("merge");
    const page = await livePage(a);
    expect(page.markdown).toBe(replaceLine(replaceLine(LINES, 0, "ONE (cr)"), 5, "SIX (live)"));
  });

  it("answers conflicts, naming the page, and changes nothing", async () => {
    const { a, base, cr, editLive, editCr, merge, update, spaceRecord, changeRequest, stored } =
      await setup();
    await editCr(a, { markdown: replaceLine(LINES, 2, "THREE (cr)") });
    await editLive(a, { markdown: replaceLine(LINES, 2, "THREE (live)") });
    const space = await spaceRecord();
    const before = await changeRequest();
    const stateBefore = await stored(changeRequestsTable, cr.id);
    const merged = await merge();
    expect(merged).toEqual({
      revision: space.revision,
      result: "conflicts",
      conflicts: [{ page: a, reason: expect.stringMatching(/markdown/) }],
    });
    const updated = await update();
    expect(updated).toMatchObject({
      revision: before.revision,
      result: "conflicts",
      conflicts: [{ page: a }],
    });
    expect(await spaceRecord()).toEqual(space);
    expect(await changeRequest()).toEqual(before);
    expect(await stored(changeRequestsTable, cr.id)).toEqual(stateBefore);
    expect(base).toContain(space.id);
  });

  it("merges a move on one side with an edit on the other", async () => {
    const { a, b, editLive, editCr, livePage, merge, crPage } = await setup();
    await editCr(a, { parent: b });
    await editLive(a, { title: "Alpha renamed", markdown: "new body" });
    const crVersion = await crPage(a);
    expect((await merge()).result).toBe("merge");
    const merged = await livePage(a);
    expect(merged).toMatchObject({ title: "Alpha renamed", markdown: "new body", path: "beta/alpha" });
    expect(merged.updatedAt).toBeDefined();
    expect(crVersion.path).toBe("beta/alpha");
  });

  it("updates from the space, then merges", async () => {
    const {
      a,
      b,
      cr,
      editLive,
      editCr,
      crPage,
      livePage,
      update,
      merge,
      changeRequest,
      spaceRecord,
      stored,
    } = await setup();
    // Nothing new in the space: the change request stays as it is.
    expect(await update()).toEqual({ revision: cr.revision, result: "update" });
    await editCr(a, { markdown: replaceLine(LINES, 0, "cr") });
    await editLive(b, { title: "Beta (live)" });
    const head = (await changeRequest()).revision;
    const spaceRevision = (await spaceRecord()).revision;
    const updated = await update();
    expect(updated).toEqual({ revision: expect.any(String), result: "update" });
    expect(await stored(revisionsTable, updated.revision)).toMatchObject({
      type: "update",
      parents: [head, spaceRevision],
    });
    expect(await changeRequest()).toMatchObject({
      revision: updated.revision,
      revisionMergedAncestor: spaceRevision,
      outdated: false,
    });
    expect((await crPage(b)).title).toBe("Beta (live)");
    expect((await crPage(a)).markdown).toBe(replaceLine(LINES, 0, "cr"));
    // The space moves on again; the merge starts from the last update.
    await editLive(a, { markdown: replaceLine(LINES, 4, "live") });
    expect((await changeRequest()).outdated).toBe(true);
    expect((await merge()).result).toBe("merge");
    expect((await livePage(a)).markdown).toBe(replaceLine(replaceLine(LINES, 0, "cr"), 4, "live"));
    expect((await livePage(b)).title).toBe("Beta (live)");
  });

  it("merges an outdated change request that added and deleted pages", async () => {
    const { client, spaceId, a, b, inCr, editLive, merge, changeRequest } = await setup();
    const added = (
      await client.createPageInChangeRequest({ ...inCr, body: { title: "Gamma", markdown: "g" } })
    ).id;
    await client.deletePageInChangeRequest({ ...inCr, pageId: b });
    const liveAdded = (await client.createPage({ spaceId, body: { title: "Delta" } })).id;
    await editLive(a, { emoji: "1f600" });
    expect((await changeRequest()).outdated).toBe(true);
    expect((await merge()).result).toBe("merge");
    const body = await client.listPages({ spaceId });
    const titles = body.pages.map((page) => page.title).sort();
    expect(titles).toEqual(["Alpha", "Delta", "Gamma"]);
    expect(body.pages.find((page) => page.id === a)!.emoji).toBe("1f600");
    expect([added, liveAdded].every((id) => body.pages.some((page) => page.id === id))).toBe(true);
  });

  it("reports a page deleted on one side and edited on the other", async () => {
    const { client, a, inCr, editLive, merge, update } = await setup();
    await client.deletePageInChangeRequest({ ...inCr, pageId: a });
    await editLive(a, { title: "Still here" });
    for (const body of [await merge(), await update()]) {
      expect(body.result).toBe("conflicts");
      expect(body.conflicts).toEqual([{ page: a, reason: expect.stringMatching(/deleted/) }]);
    }
  });

  it("reports two new sibling pages with one slug", async () => {
    const { client, spaceId, inCr, merge } = await setup();
    const mine = await client.createPageInChangeRequest({ ...inCr, body: { title: "Guide" } });
    const theirs = await client.createPage({ spaceId, body: { title: "Guide" } });
    expect(mine.slug).toBe(theirs.slug);
    const body = await merge();
    expect(body.result).toBe("conflicts");
    expect(body.conflicts!.map((c) => ("page" in c ? c.page : undefined)).sort()).toEqual(
      [mine.id, theirs.id].sort(),
    );
    expect(body.conflicts![0]!.reason).toMatch(/slug "guide"/);
  });

  it("needs the merge permission and an active change request", async () => {
    const { client, inCr, member, merge } = await setup();
    const reader = await member("read");
    await expect(reader.client.mergeChangeRequest(inCr)).rejects.toMatchObject({ code: "forbidden" });
    await client.updateChangeRequestById({ ...inCr, body: { status: "archived" } });
    await expect(merge()).rejects.toMatchObject({ code: "conflict" });
    await client.updateChangeRequestById({ ...inCr, body: { status: "open" } });
    await merge();
  });
});
