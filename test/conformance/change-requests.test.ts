import { ChangeRequestStatus, type JSONDocument } from "@gitbook/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";
import { COVERAGE } from "./coverage.js";

const DESCRIPTION = {
  object: "document",
  data: {},
  nodes: [
    {
      object: "block",
      type: "paragraph",
      nodes: [{ object: "text", leaves: [{ object: "leaf", text: "Why this change", marks: [] }] }],
    },
  ],
} as unknown as JSONDocument;

describe.each(STORAGE_KINDS)("conformance: change requests (%s)", (kind) => {
  let h: Harness;
  let owners = 0;
  beforeAll(async () => {
    h = await createHarness(kind, { clock: () => new Date("2025-04-01T09:00:00.000Z") });
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.change_requests);
    h.expectConformant();
    await h.close();
  });

  /** A user with an organization and a space holding one page, and helpers to write content. */
  async function setup() {
    owners++;
    const user = await h.test.createUser(`Owner ${owners}`);
    const api = h.client(user.token);
    const org = (await h.test.as(user).createOrganization({ body: { title: "Org" } })).id;
    const { data: space } = await api.orgs.createSpace(org, { title: "Docs" });
    const write = async (method: string, path: string, body?: object) => {
      const answer = await h.test.request(method, `/spaces/${space.id}${path}`, {
        token: user.token,
        ...(body ? { body } : {}),
      });
      if (answer.status >= 400) throw new Error(JSON.stringify(answer.body));
      return answer.body;
    };
    const intro = await write("POST", "/content/pages", { title: "Intro", markdown: "a\nb\nc\nd\ne" });
    return { user, api, org, space, write, intro };
  }

  it("creates, reads, lists and updates change requests", async () => {
    const { api, org, space, user } = await setup();
    const {
      data: cr,
      status,
      headers,
    } = await api.spaces.createChangeRequest(space.id, { subject: "First" });
    expect(status).toBe(201);
    expect(headers.get("location")).toBe(cr.urls.location);
    expect(cr).toMatchObject({ object: "change-request", number: 1, status: "open", subject: "First" });
    expect(cr.createdBy?.id).toBe(user.id);
    const { data: byNumber } = await api.spaces.getChangeRequestById(space.id, "1");
    expect(byNumber).toEqual(cr);
    const { data: draft } = await api.spaces.createChangeRequest(space.id, {
      subject: "Second",
      status: "draft",
    } as { subject: string });
    expect(draft.status).toBe(ChangeRequestStatus.Draft);

    const { data: patched } = await api.spaces.updateChangeRequestById(space.id, cr.id, {
      subject: "First, better",
      description: DESCRIPTION,
    });
    expect(patched).toMatchObject({ subject: "First, better", description: DESCRIPTION });
    expect(
      await statusOf(api.spaces.updateChangeRequestById(space.id, cr.id, { subject: "x".repeat(101) })),
    ).toBe(400);
    expect(await statusOf(api.spaces.getChangeRequestById(space.id, "99"))).toBe(404);

    const { data: open } = await api.spaces.listChangeRequestsForSpace(space.id);
    expect(open.items.map((item) => item.id)).toEqual([cr.id]);
    const { data: drafts } = await api.spaces.listChangeRequestsForSpace(space.id, {
      status: ChangeRequestStatus.Draft,
      creator: user.id,
      limit: 1,
    });
    expect(drafts.items.map((item) => item.id)).toEqual([draft.id]);
    const { data: all } = await api.orgs.listChangeRequestsForOrganization(org, { limit: 1 });
    expect(all.count).toBe(1);
    await api.spaces.updateChangeRequestById(space.id, draft.id, { status: "archived" });
    const { data: after } = await api.spaces.getSpaceById(space.id);
    expect([after.changeRequests, after.changeRequestsOpen, after.changeRequestsDraft]).toEqual([2, 1, 0]);
  });

  it("reads change request content, updates from the space and merges", async () => {
    const { api, space, write, intro } = await setup();
    const { data: cr } = await api.spaces.createChangeRequest(space.id, { subject: "Edit" });
    const inCr = `/change-requests/${cr.id}/content`;
    await write("PATCH", `${inCr}/page/${intro.id}`, { markdown: "A\nb\nc\nd\ne" });
    const added = await write("POST", `${inCr}/pages`, {
      title: "Setup",
      markdown: "steps",
      parent: intro.id,
    });
    const file = await write("POST", `${inCr}/files`, {
      name: "a.txt",
      contentType: "text/plain",
      data: btoa("hi"),
    });
    await write("PATCH", `/content/page/${intro.id}`, { markdown: "a\nb\nc\nd\nE" });

    const { data: revision } = await api.spaces.getRevisionOfChangeRequestById(space.id, cr.id);
    expect(revision.pages.map((page) => page.title)).toEqual(["Intro"]);
    const { data: pages } = await api.spaces.listPagesInChangeRequest(space.id, cr.id);
    expect(pages.pages[0]).toMatchObject({ pages: [{ id: added.id }] });
    const { data: files } = await api.spaces.listFilesInChangeRequestById(space.id, cr.id);
    expect(files.items.map((item) => item.id)).toEqual([file.id]);
    expect((await api.spaces.getFileInChangeRequestById(space.id, cr.id, file.id)).data.name).toBe("a.txt");
    const { data: page } = await api.spaces.getPageInChangeRequestById(space.id, cr.id, intro.id, {
      format: "markdown",
    });
    expect(page).toMatchObject({ markdown: "A\nb\nc\nd\ne" });
    const { data: asDocument } = await api.spaces.getPageInChangeRequestById(space.id, cr.id, intro.id);
    expect(asDocument).toMatchObject({ document: { object: "document" } });
    const { data: byPath } = await api.spaces.getPageInChangeRequestByPath(space.id, cr.id, "intro/setup");
    expect(byPath.id).toBe(added.id);

    expect((await api.spaces.getChangeRequestById(space.id, cr.id)).data.outdated).toBe(true);
    const { data: updated } = await api.spaces.updateChangeRequest(space.id, cr.id);
    expect(updated.result).toBe("update");
    expect(
      (await api.spaces.getPageInChangeRequestById(space.id, cr.id, intro.id, { format: "markdown" })).data,
    ).toMatchObject({
      markdown: "A\nb\nc\nd\nE",
    });
    const { data: merged } = await api.spaces.mergeChangeRequest(space.id, cr.id);
    expect(merged.result).toBe("merge");
    const { data: got } = await api.spaces.getChangeRequestById(space.id, cr.id);
    expect(got).toMatchObject({ status: "merged", revisionMerged: merged.revision, outdated: false });
    expect((await api.spaces.getSpaceById(space.id)).data.revision).toBe(merged.revision);
    expect(await statusOf(api.spaces.mergeChangeRequest(space.id, cr.id))).toBe(409);
  });

  it("takes a push made against an older revision, whose update reports conflicts until resolved", async () => {
    const { api, user, space, write, intro } = await setup();
    const revision = (await api.spaces.getSpaceById(space.id)).data.revision;
    await write("PATCH", `/content/page/${intro.id}`, { markdown: "a\nb (live)\nc\nd\ne" });
    // The push is a docsbase extension: through the typed in-process client.
    const pushed = await h.test.as(user).pushChangeRequest({
      spaceId: space.id,
      pushId: `conformance-${kind}`,
      body: {
        revision,
        subject: "Offline",
        pages: [
          { id: intro.id, parent: null, title: "Intro", markdown: "a\nb (offline)\nc\nd\ne" },
          { id: "pushed-page", parent: null, title: "Pushed", markdown: "new" },
        ],
      },
    });
    const { data: cr } = await api.spaces.getChangeRequestById(space.id, pushed.id);
    expect(cr).toMatchObject({
      status: "open",
      subject: "Offline",
      revisionInitial: revision,
      outdated: true,
    });
    const { data: conflicting } = await api.spaces.updateChangeRequest(space.id, cr.id);
    expect(conflicting).toMatchObject({ result: "conflicts", conflicts: [{ page: intro.id }] });
    const resolved = await h.test.as(user).updateChangeRequest({
      spaceId: space.id,
      changeRequestId: cr.id,
      body: { resolutions: { pages: { [intro.id]: "changeRequest" } } },
    });
    expect(resolved.result).toBe("update");
    const { data: merged } = await api.spaces.mergeChangeRequest(space.id, cr.id);
    expect(merged.result).toBe("merge");
    const { data: pages } = await api.spaces.listPages(space.id);
    expect(pages.pages.map((page) => page.id)).toEqual([intro.id, "pushed-page"]);
  });

  it("answers conflicts without changing anything, and enforces roles", async () => {
    const { api, space, write, intro } = await setup();
    const { data: cr } = await api.spaces.createChangeRequest(space.id, {});
    await write("PATCH", `/change-requests/${cr.id}/content/page/${intro.id}`, { markdown: "a\nX\nc\nd\ne" });
    await write("PATCH", `/content/page/${intro.id}`, { markdown: "a\nY\nc\nd\ne" });
    const { data: before } = await api.spaces.getSpaceById(space.id);
    const { data: merge } = await api.spaces.mergeChangeRequest(space.id, cr.id);
    expect(merge).toMatchObject({
      revision: before.revision,
      result: "conflicts",
      conflicts: [{ page: intro.id }],
    });
    const { data: head } = await api.spaces.getChangeRequestById(space.id, cr.id);
    const { data: update } = await api.spaces.updateChangeRequest(space.id, cr.id);
    expect(update).toMatchObject({ revision: head.revision, result: "conflicts" });
    expect((await api.spaces.getChangeRequestById(space.id, cr.id)).data).toEqual(head);
    expect((await api.spaces.getSpaceById(space.id)).data.revision).toBe(before.revision);

    const stranger = h.client((await h.test.createUser("Stranger")).token);
    expect(await statusOf(stranger.spaces.getChangeRequestById(space.id, cr.id))).toBe(404);
    expect(await statusOf(stranger.spaces.createChangeRequest(space.id, {}))).toBe(404);
  });

  it("applies a template to a space and to a change request", async () => {
    const { api, org, space } = await setup();
    const { data: template } = await api.orgs.createSpace(org, { title: "Template" });
    const { status } = await api.spaces.applyTemplateToSpace(template.id, { id: space.id });
    expect(status).toBe(201);
    const { data: cr } = await api.spaces.createChangeRequest(space.id, {});
    // The API's `changeRequestId` is not in the client's ApplySpaceTemplate type.
    await api.spaces.applyTemplateToSpace(space.id, { id: template.id, changeRequestId: cr.id } as {
      id: string;
    });
    const { data: pages } = await api.spaces.listPagesInChangeRequest(space.id, cr.id);
    expect(pages.pages.map((page) => (page as { slug?: string }).slug)).toEqual(["intro", "intro-2"]);
    expect(await statusOf(api.spaces.applyTemplateToSpace(space.id, { id: "missing" }))).toBe(400);
  });

  it("lists the contributors of a change request", async () => {
    const { api, space, write, intro, user } = await setup();
    const { data: cr } = await api.spaces.createChangeRequest(space.id, { subject: "Edit" });
    expect((await api.spaces.getContributorsByChangeRequestId(space.id, cr.id)).data.items).toEqual([]);
    await write("PATCH", `/change-requests/${cr.id}/content/page/${intro.id}`, { markdown: "A" });
    await api.spaces.postCommentInChangeRequest(space.id, cr.id, { body: { markdown: "Why?" } });
    const { data: list } = await api.spaces.getContributorsByChangeRequestId(space.id, cr.id);
    expect(list.items.map((item) => [item.user.id, item.actionType, item.count])).toEqual(
      expect.arrayContaining([
        [user.id, "edit", 1],
        [user.id, "comment", 1],
      ]),
    );
    expect(list.items).toHaveLength(2);
    expect(await statusOf(api.spaces.getContributorsByChangeRequestId(space.id, "99"))).toBe(404);
  });

  it("lists what a change request changes against its base", async () => {
    const { api, space, write, intro } = await setup();
    const { data: cr } = await api.spaces.createChangeRequest(space.id, { subject: "Edit" });
    const inCr = `/change-requests/${cr.id}/content`;
    await write("PATCH", `${inCr}/page/${intro.id}`, { title: "Introduction", markdown: "A" });
    const added = await write("POST", `${inCr}/pages`, { title: "Setup", parent: intro.id });
    const moved = await write("POST", `/content/pages`, { title: "Later" });
    await write("PATCH", `/content/page/${moved.id}`, { markdown: "live" });
    await api.spaces.updateChangeRequest(space.id, cr.id);
    await write("PATCH", `${inCr}/page/${moved.id}`, { parent: intro.id });
    const file = await write("POST", `${inCr}/files`, {
      name: "a.txt",
      contentType: "text/plain",
      data: btoa("hi"),
    });
    await write("DELETE", `${inCr}/files/${file.id}`);
    const other = await write("POST", `${inCr}/files`, {
      name: "b.txt",
      contentType: "text/plain",
      data: btoa("hi"),
    });
    const { data } = await api.spaces.getChangeRequestChanges(space.id, cr.id);
    expect(data.changes.map((change) => change.type)).toEqual([
      "page_edited",
      "page_created",
      "page_moved",
      "file_created",
    ]);
    expect(data.changes[0]).toMatchObject({
      page: { id: intro.id, title: "Introduction" },
      attributes: { title: { before: "Intro", after: "Introduction" } },
    });
    expect(data.changes[1]).toMatchObject({ page: { id: added.id, path: "intro/setup" } });
    expect(data.changes[2]).toMatchObject({ parent: { after: { id: intro.id } } });
    expect(data.changes[3]).toMatchObject({ file: { id: other.id, name: "b.txt" } });
    const { data: limited } = await api.spaces.getChangeRequestChanges(space.id, cr.id, { limit: 1 });
    expect([limited.changes.length, limited.more]).toEqual([1, 3]);
    expect(await statusOf(api.spaces.getChangeRequestChanges(space.id, "99"))).toBe(404);
  });
});
