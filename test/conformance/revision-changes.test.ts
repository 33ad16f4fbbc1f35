import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";
import { COVERAGE } from "./coverage.js";

describe.each(STORAGE_KINDS)("conformance: semantic changes of revisions (%s)", (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(kind);
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.revision_changes);
    h.expectConformant();
    await h.close();
  });

  it("lists reusable contents among a change request's and a revision's changes, and a merge's change request", async () => {
    const owner = await h.test.createUser("Writer");
    const writer = h.test.as(owner);
    const org = (await writer.createOrganization({ body: { title: "Docs Inc" } })).id;
    const space = (await writer.createSpace({ organizationId: org, body: { title: "Guide" } })).id;
    const api = h.client(owner.token);
    const first = (await writer.getSpaceById({ spaceId: space })).revision;
    const { data: empty } = await api.spaces.getRevisionSemanticChanges(space, first);
    expect(empty).toEqual({ changes: [], more: 0 });

    // Written through docsbase's own operations (extensions), read through the official client.
    const page = await writer.createPage({ spaceId: space, body: { title: "Intro", markdown: "Hi" } });
    const kept = await writer.createReusableContent({
      spaceId: space,
      body: { title: "Warning", markdown: "a" },
    });
    const gone = await writer.createReusableContent({
      spaceId: space,
      body: { title: "Tip", markdown: "t" },
    });
    const { data: created } = await api.spaces.getRevisionSemanticChanges(
      space,
      (await writer.getSpaceById({ spaceId: space })).revision,
    );
    expect(created.changes).toEqual([{ type: "reusable_content_created", reusableContent: gone }]);

    const cr = await writer.createChangeRequest({ spaceId: space, body: { subject: "Reword" } });
    const inCr = { spaceId: space, changeRequestId: cr.id };
    await writer.updatePageInChangeRequest({ ...inCr, pageId: page.id, body: { title: "Start" } });
    const edited = await writer.updateReusableContentInChangeRequest({
      ...inCr,
      reusableContentId: kept.id,
      body: { title: "Caution", markdown: "b" },
    });
    await writer.deleteReusableContentInChangeRequest({ ...inCr, reusableContentId: gone.id });
    const made = await writer.createReusableContentInChangeRequest({ ...inCr, body: { title: "Banner" } });
    const { data: changes } = await api.spaces.getChangeRequestChanges(space, cr.id);
    expect(changes.changes.map((change) => change.type)).toEqual([
      "page_edited",
      "reusable_content_created",
      "reusable_content_edited",
      "reusable_content_deleted",
    ]);
    expect(changes.changes[2]).toEqual({
      type: "reusable_content_edited",
      reusableContent: edited,
      attributes: {
        title: { before: "Warning", after: "Caution" },
        document: { before: kept.document, after: edited.document },
      },
    });
    expect(changes.changes[1]).toEqual({ type: "reusable_content_created", reusableContent: made });

    const merged = await writer.mergeChangeRequest(inCr);
    const { data: merge } = await api.spaces.getRevisionSemanticChanges(space, merged.revision);
    expect(merge.changes).toEqual(changes.changes);
    expect(merge.more).toBe(0);
    const { data: mergedCr } = await api.spaces.getChangeRequestById(space, cr.id);
    expect(merge.mergedFrom).toEqual(mergedCr);
    // The merge revision itself: the reference's RevisionTypeMerge requires mergedFrom.
    const { data: current } = await api.spaces.getCurrentRevision(space);
    const { data: byId } = await api.spaces.getRevisionById(space, merged.revision);
    for (const revision of [current, byId]) {
      expect(revision).toMatchObject({ id: merged.revision, type: "merge", mergedFrom: mergedCr });
    }
    const { data: limited } = await api.spaces.getRevisionSemanticChanges(space, merged.revision, {
      limit: 1,
      metadata: false,
      computed: false,
    });
    expect([limited.changes.length, limited.more]).toEqual([1, 3]);

    expect(await statusOf(api.spaces.getRevisionSemanticChanges(space, "no-such-revision"))).toBe(404);
    expect(await statusOf(api.spaces.getRevisionSemanticChanges(space, merged.revision, { limit: -1 }))).toBe(
      400,
    );
    const stranger = h.client((await h.test.createUser("Stranger")).token);
    expect(await statusOf(stranger.spaces.getRevisionSemanticChanges(space, merged.revision))).toBe(404);
  });
});
