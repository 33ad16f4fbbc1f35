import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { changeRequestsTable } from "./tables.js";
import { revisionsTable } from "../content-tree/tables.js";

const LINES = ["one", "two", "three", "four", "five", "six"].join("\n");

async function setup() {
  const workspace = await createWorkspace();
  const { api } = workspace;
  const spaceId = await workspace.space({ title: "Docs" });
  const live = `/spaces/${spaceId}/content`;
  const base = `/spaces/${spaceId}/change-requests`;
  const page = async (title: string, markdown = "", parent?: string) =>
    (await api("POST", `${live}/pages`, { title, markdown, ...(parent ? { parent } : {}) })).body
      .id as string;
  const a = await page("Alpha", LINES);
  const b = await page("Beta", "beta");
  const cr = (await api("POST", base, { subject: "Change" })).body;
  const inCr = `${base}/${cr.id}/content`;
  const editLive = (id: string, body: object) => api("PATCH", `${live}/page/${id}`, body);
  const editCr = (id: string, body: object) => api("PATCH", `${inCr}/page/${id}`, body);
  const livePage = async (id: string) => (await api("GET", `${live}/page/${id}?format=markdown`)).body;
  const crPage = async (id: string) => (await api("GET", `${inCr}/page/${id}?format=markdown`)).body;
  const spaceRecord = async () => (await api("GET", `/spaces/${spaceId}`)).body;
  const changeRequest = async () => (await api("GET", `${base}/${cr.id}`)).body;
  const merge = () => api("POST", `${base}/${cr.id}/merge`);
  const update = () => api("POST", `${base}/${cr.id}/update`);
  return {
    ...workspace,
    spaceId,
    live,
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
    expect(merged.status).toBe(200);
    expect(merged.body).toEqual({ revision: expect.any(String), result: "merge" });
    expect((await livePage(a)).title).toBe("Alpha (CR)");
    expect((await livePage(b)).markdown).toBe("beta (live)");
    const after = await spaceRecord();
    expect(after.revision).toBe(merged.body.revision);
    const revision = await stored(revisionsTable, merged.body.revision);
    expect(revision).toMatchObject({ type: "merge", parents: [before.revision, headOfCr] });
    expect(await changeRequest()).toMatchObject({
      id: cr.id,
      status: "merged",
      revisionMerged: merged.body.revision,
      outdated: false,
    });
  });

  it("keeps independent edits to different lines of one page", async () => {
    const { a, editLive, editCr, livePage, merge } = await setup();
    await editCr(a, { markdown: replaceLine(LINES, 0, "ONE (cr)") });
    await editLive(a, { markdown: replaceLine(LINES, 5, "SIX (live)") });
    expect((await merge()).body.result).toBe("merge");
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
    expect(merged.status).toBe(200);
    expect(merged.body).toEqual({
      revision: space.revision,
      result: "conflicts",
      conflicts: [{ page: a, reason: expect.stringMatching(/markdown/) }],
    });
    const updated = await update();
    expect(updated.body).toMatchObject({
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
    expect((await merge()).body.result).toBe("merge");
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
    expect((await update()).body).toEqual({ revision: cr.revision, result: "update" });
    await editCr(a, { markdown: replaceLine(LINES, 0, "cr") });
    await editLive(b, { title: "Beta (live)" });
    const head = (await changeRequest()).revision;
    const spaceRevision = (await spaceRecord()).revision;
    const updated = await update();
    expect(updated.body).toEqual({ revision: expect.any(String), result: "update" });
    expect(await stored(revisionsTable, updated.body.revision)).toMatchObject({
      type: "update",
      parents: [head, spaceRevision],
    });
    expect(await changeRequest()).toMatchObject({
      revision: updated.body.revision,
      revisionMergedAncestor: spaceRevision,
      outdated: false,
    });
    expect((await crPage(b)).title).toBe("Beta (live)");
    expect((await crPage(a)).markdown).toBe(replaceLine(LINES, 0, "cr"));
    // The space moves on again; the merge starts from the last update.
    await editLive(a, { markdown: replaceLine(LINES, 4, "live") });
    expect((await changeRequest()).outdated).toBe(true);
    expect((await merge()).body.result).toBe("merge");
    expect((await livePage(a)).markdown).toBe(replaceLine(replaceLine(LINES, 0, "cr"), 4, "live"));
    expect((await livePage(b)).title).toBe("Beta (live)");
  });

  it("merges an outdated change request that added and deleted pages", async () => {
    const { api, a, b, inCr, live, editLive, merge, changeRequest } = await setup();
    const added = (await api("POST", `${inCr}/pages`, { title: "Gamma", markdown: "g" })).body.id;
    await api("DELETE", `${inCr}/page/${b}`);
    const liveAdded = (await api("POST", `${live}/pages`, { title: "Delta" })).body.id;
    await editLive(a, { emoji: "1f600" });
    expect((await changeRequest()).outdated).toBe(true);
    expect((await merge()).body.result).toBe("merge");
    const { body } = await api("GET", `${live}/pages`);
    const titles = body.pages.map((page: any) => page.title).sort();
    expect(titles).toEqual(["Alpha", "Delta", "Gamma"]);
    expect(body.pages.find((page: any) => page.id === a).emoji).toBe("1f600");
    expect([added, liveAdded].every((id) => body.pages.some((page: any) => page.id === id))).toBe(true);
  });

  it("reports a page deleted on one side and edited on the other", async () => {
    const { api, a, inCr, editLive, merge, update } = await setup();
    await api("DELETE", `${inCr}/page/${a}`);
    await editLive(a, { title: "Still here" });
    for (const { body } of [await merge(), await update()]) {
      expect(body.result).toBe("conflicts");
      expect(body.conflicts).toEqual([{ page: a, reason: expect.stringMatching(/deleted/) }]);
    }
  });

  it("reports two new sibling pages with one slug", async () => {
    const { api, inCr, live, merge } = await setup();
    const mine = (await api("POST", `${inCr}/pages`, { title: "Guide" })).body;
    const theirs = (await api("POST", `${live}/pages`, { title: "Guide" })).body;
    expect(mine.slug).toBe(theirs.slug);
    const { body } = await merge();
    expect(body.result).toBe("conflicts");
    expect(body.conflicts.map((c: any) => c.page).sort()).toEqual([mine.id, theirs.id].sort());
    expect(body.conflicts[0].reason).toMatch(/slug "guide"/);
  });

  it("needs the merge permission and an active change request", async () => {
    const { api, base, cr, member, merge } = await setup();
    const reader = await member("read");
    expect((await reader("POST", `${base}/${cr.id}/merge`)).status).toBe(403);
    await api("PATCH", `${base}/${cr.id}`, { status: "archived" });
    expect((await merge()).status).toBe(409);
    await api("PATCH", `${base}/${cr.id}`, { status: "open" });
    expect((await merge()).status).toBe(200);
  });
});
