import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { createTestDocsbase } from "../../testing/double.js";
import { revisionsTable } from "../content-tree/tables.js";
import { changeRequestsTable } from "./tables.js";

/** `getRevisionSemanticChanges`: what one revision changes against its first parent. */
async function setup() {
  const workspace = await createWorkspace();
  const { client } = workspace;
  const spaceId = await workspace.space({ title: "Docs" });
  const head = async () => (await client.getSpaceById({ spaceId })).revision;
  const changes = (revisionId: string, limit?: number) =>
    client.getRevisionSemanticChanges({ spaceId, revisionId, ...(limit === undefined ? {} : { limit }) });
  const types = async (revisionId: string) =>
    (await changes(revisionId, 100)).changes.map((change) => change.type);
  return { ...workspace, spaceId, head, changes, types };
}

describe("changes of a revision", () => {
  it("lists what each revision changes against its first parent; a first revision creates all it holds", async () => {
    const { client, spaceId, head, changes, types } = await setup();
    const first = await head();
    expect(await changes(first)).toEqual({ changes: [], more: 0 });

    const page = await client.createPage({ spaceId, body: { title: "Intro", markdown: "Hi" } });
    const created = await head();
    expect(await changes(created)).toEqual({
      changes: [
        { type: "page_created", page: { id: page.id, type: "document", title: "Intro", path: "intro" } },
      ],
      more: 0,
    });

    const reusable = await client.createReusableContent({
      spaceId,
      body: { title: "Warning", markdown: "a" },
    });
    const withReusable = await head();
    expect(await changes(withReusable)).toEqual({
      changes: [{ type: "reusable_content_created", reusableContent: reusable }],
      more: 0,
    });
    const edited = await client.updateReusableContent({
      spaceId,
      reusableContentId: reusable.id,
      body: { title: "Caution", markdown: "b" },
    });
    expect((await changes(await head())).changes).toEqual([
      {
        type: "reusable_content_edited",
        reusableContent: edited,
        attributes: {
          title: { before: "Warning", after: "Caution" },
          document: { before: reusable.document, after: edited.document },
        },
      },
    ]);
    await client.deleteReusableContent({ spaceId, reusableContentId: reusable.id });
    expect(await changes(await head())).toEqual({
      changes: [{ type: "reusable_content_deleted", reusableContent: edited }],
      more: 0,
    });
    // An older revision still answers what it changed.
    expect(await types(created)).toEqual(["page_created"]);

    // A duplicate's first revision has the source's as parent: it is compared with empty content.
    const copy = await client.duplicateSpace({ spaceId });
    expect(
      (await client.getRevisionSemanticChanges({ spaceId: copy.id, revisionId: copy.revision })).changes.map(
        (change) => change.type,
      ),
    ).toEqual(["page_created"]);
  });

  it("answers `mergedFrom` for the merge of a change request, listing what the merge brought in", async () => {
    const { client, spaceId, head, changes, types, storage, owner } = await setup();
    const page = await client.createPage({ spaceId, body: { title: "Intro", markdown: "Hi" } });
    const changeRequest = await client.createChangeRequest({ spaceId, body: { subject: "Reword" } });
    const cr = { spaceId, changeRequestId: changeRequest.id };
    await client.updatePageInChangeRequest({ ...cr, pageId: page.id, body: { markdown: "Hello" } });
    const reusable = await client.createReusableContentInChangeRequest({
      ...cr,
      body: { title: "Tip", markdown: "t" },
    });
    // A change request's own revision lists its edit, and has no `mergedFrom`.
    const edit = (await client.getChangeRequestById(cr)).revision;
    expect(await changes(edit)).toEqual({
      changes: [{ type: "reusable_content_created", reusableContent: reusable }],
      more: 0,
    });
    // The space moved on meanwhile: the merge lists only what the change request brings.
    await client.createPage({ spaceId, body: { title: "Live" } });
    const merged = await client.mergeChangeRequest(cr);
    expect(merged.result).toBe("merge");
    const answer = await changes(merged.revision);
    expect(answer.changes.map((change) => change.type)).toEqual(["page_edited", "reusable_content_created"]);
    expect(answer.mergedFrom).toEqual(await client.getChangeRequestById(cr));
    expect(answer.mergedFrom).toMatchObject({
      id: changeRequest.id,
      status: "merged",
      revisionMerged: merged.revision,
    });
    expect(merged.revision).toBe(await head());

    // A merge written before revisions recorded their change request, read by an instance that
    // starts on that storage (this one's cache still holds the record as written): found by
    // `revisionMerged`.
    await storage.write(async (tx) => {
      const { changeRequest: _recorded, ...record } = (await tx.get(revisionsTable, merged.revision))!;
      await tx.put(revisionsTable, record);
    });
    const restarted = (await createTestDocsbase({ storage })).as(owner);
    const legacy = () => restarted.getRevisionSemanticChanges({ spaceId, revisionId: merged.revision });
    expect((await legacy()).mergedFrom).toMatchObject({ id: changeRequest.id });
    // Scanned once, then remembered: a later read finds it without `revisionMerged` (which never
    // changes; altered here only to show that the read does not look again).
    await storage.write(async (tx) => {
      const stored = (await tx.get(changeRequestsTable, changeRequest.id))!;
      await tx.put(changeRequestsTable, { ...stored, revisionMerged: "elsewhere" });
    });
    expect((await legacy()).mergedFrom).toMatchObject({ id: changeRequest.id });
    // A revision read shows the same change request.
    expect(await restarted.getRevisionById({ spaceId, revisionId: merged.revision })).toMatchObject({
      type: "merge",
      mergedFrom: { id: changeRequest.id },
    });
    // An update (the space pulled into a change request) is no merge.
    const other = await client.createChangeRequest({ spaceId, body: {} });
    await client.createPageInChangeRequest({ spaceId, changeRequestId: other.id, body: { title: "Mine" } });
    await client.createPage({ spaceId, body: { title: "Theirs" } });
    const updated = await client.updateChangeRequest({ spaceId, changeRequestId: other.id });
    const update = await changes(updated.revision);
    expect(update).not.toHaveProperty("mergedFrom");
    expect(await types(updated.revision)).toEqual(["page_created"]);
  });

  it("keeps the first `limit` changes and refuses a bad limit naming it", async () => {
    const { client, spaceId, head, changes, types } = await setup();
    const before = await head();
    const changeRequest = await client.createChangeRequest({ spaceId, body: {} });
    for (let i = 0; i < 12; i++) {
      await client.createPageInChangeRequest({
        spaceId,
        changeRequestId: changeRequest.id,
        body: { title: `P${i}` },
      });
    }
    const { revision } = await client.mergeChangeRequest({ spaceId, changeRequestId: changeRequest.id });
    expect(await types(revision)).toHaveLength(12);
    const all = (await changes(revision, 100)).changes;
    expect(await changes(revision)).toEqual({
      changes: all.slice(0, 10),
      more: 2,
      mergedFrom: expect.any(Object),
    });
    expect((await changes(revision, 0)).more).toBe(12);
    for (const limit of [-1, 1001]) {
      await expect(changes(revision, limit)).rejects.toMatchObject({
        code: "bad_request",
        message: expect.stringContaining("query.limit"),
      });
    }
    // `metadata` and `computed` are accepted and change nothing.
    expect(
      await client.getRevisionSemanticChanges({
        spaceId,
        revisionId: revision,
        metadata: false,
        computed: false,
      }),
    ).toEqual(await changes(revision));
    expect(await changes(before)).toEqual({ changes: [], more: 0 });
  });

  it("answers 404 for an unknown revision, one of another space, and callers who cannot see the space", async () => {
    const { client, spaceId, head, changes, member, outsider, space } = await setup();
    await client.createPage({ spaceId, body: { title: "Intro" } });
    const revisionId = await head();
    await expect(changes("no-such-revision")).rejects.toMatchObject({
      code: "not_found",
      message: expect.stringContaining('"no-such-revision"'),
    });
    const elsewhere = await space({ title: "Elsewhere" });
    await expect(client.getRevisionSemanticChanges({ spaceId: elsewhere, revisionId })).rejects.toMatchObject(
      { code: "not_found" },
    );
    await expect(outsider.client.getRevisionSemanticChanges({ spaceId, revisionId })).rejects.toMatchObject({
      code: "not_found",
    });
    const reader = await member("read");
    expect((await reader.client.getRevisionSemanticChanges({ spaceId, revisionId })).changes).toHaveLength(1);
  });

  it("gives a published site's reader token its own revision's changes, without `mergedFrom`, and nothing else", async () => {
    const { client, api, org, spaceId, head, test } = await setup();
    const page = await client.createPage({ spaceId, body: { title: "Intro" } });
    const changeRequest = await client.createChangeRequest({ spaceId, body: {} });
    await client.updatePageInChangeRequest({
      spaceId,
      changeRequestId: changeRequest.id,
      pageId: page.id,
      body: { title: "Start" },
    });
    const { revision } = await client.mergeChangeRequest({ spaceId, changeRequestId: changeRequest.id });
    expect(revision).toBe(await head());
    const site = (await api("POST", `/orgs/${org}/sites`, { title: "Site", spaces: [spaceId] })).body
      .id as string;
    expect((await api("POST", `/orgs/${org}/sites/${site}/publish`)).status).toBe(200);
    const url = encodeURIComponent(`http://docsbase.test/sites/${site}/`);
    const lookup = await test.request("GET", `/urls/published?url=${url}`, { token: null });
    expect(lookup.status).toBe(200);
    const token = lookup.body.apiToken as string;
    const read = (revisionId: string) =>
      test.request("GET", `/spaces/${spaceId}/revisions/${revisionId}/changes`, { token });
    const own = await read(revision);
    expect(own.status).toBe(200);
    expect(own.body).toEqual({
      changes: [expect.objectContaining({ type: "page_edited" })],
      more: 0,
    });
    expect((await read(changeRequest.revision)).status).toBe(403);
    // The merge revision read as a revision: a member sees the merge and its change request; the
    // reader token, which reads no change request, an edit.
    const current = await test.request("GET", `/spaces/${spaceId}/content`, { token });
    expect(current.body).toMatchObject({ id: revision, type: "edits" });
    expect(current.body).not.toHaveProperty("mergedFrom");
    const asMember = await client.getCurrentRevision({ spaceId });
    expect(asMember).toMatchObject({ id: revision, type: "merge", mergedFrom: { id: changeRequest.id } });
  });
});
