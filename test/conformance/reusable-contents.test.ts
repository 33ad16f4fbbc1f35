import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";
import { COVERAGE } from "./coverage.js";

describe.each(STORAGE_KINDS)("conformance: reusable contents and documents (%s)", (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(kind);
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.reusable_contents);
    h.expectConformant();
    await h.close();
  });

  it("reads reusable contents written through docsbase's extensions, in a space, a change request and a revision", async () => {
    const owner = await h.test.createUser("Writer");
    const writer = h.test.as(owner);
    const org = (await writer.createOrganization({ body: { title: "Docs Inc" } })).id;
    const space = (await writer.createSpace({ organizationId: org, body: { title: "Guide" } })).id;
    // The writes are docsbase's own operations, outside the official client.
    const created = await writer.createReusableContent({
      spaceId: space,
      body: { title: "Warning", markdown: "Back up **first**." },
    });
    const include = `{% include "${created.id}" %}\n`;
    const a = await writer.createPage({ spaceId: space, body: { title: "A", markdown: include } });
    const b = await writer.createPage({
      spaceId: space,
      body: { title: "B", markdown: `Intro.\n\n${include}` },
    });
    const api = h.client(owner.token);

    const { data: revision } = await api.spaces.getCurrentRevision(space);
    expect(revision.reusableContents).toEqual([created]);
    const { data: live } = await api.spaces.getReusableContentById(space, created.id);
    expect(live).toEqual(created);
    const { data: inRevision } = await api.spaces.getReusableContentInRevisionById(
      space,
      revision.id,
      created.id,
    );
    expect(inRevision.title).toBe("Warning");
    const { data: document } = await api.spaces.getReusableContentDocumentInRevisionById(
      space,
      revision.id,
      created.id,
    );
    expect(JSON.stringify(document)).toContain("first");
    const { data: byId } = await api.spaces.getDocumentById(space, created.document!);
    expect(byId).toEqual(document);
    const { data: page } = await api.spaces.getPageById(space, a.id);
    expect(JSON.stringify(page)).toContain('"reusable-content"');
    expect(await statusOf(api.spaces.getReusableContentById(space, "no-such-content"))).toBe(404);
    expect(await statusOf(api.spaces.getDocumentById(space, "no-such-document"))).toBe(404);

    // Updated once in a change request and merged: both pages show the new content.
    const cr = await writer.createChangeRequest({ spaceId: space, body: { subject: "Reword" } });
    await writer.updateReusableContentInChangeRequest({
      spaceId: space,
      changeRequestId: cr.id,
      reusableContentId: created.id,
      body: { markdown: "New warning." },
    });
    const { data: inCr } = await api.spaces.getReusableContentInChangeRequestById(space, cr.id, created.id);
    expect(inCr).toMatchObject({ id: created.id, title: "Warning" });
    expect(inCr).not.toEqual(created);
    await writer.mergeChangeRequest({ spaceId: space, changeRequestId: cr.id });
    const inlined = async (pageId: string) =>
      (
        await writer.getPageById({
          spaceId: space,
          pageId,
          format: "markdown",
          dereferenced: "reusable-contents",
        })
      ).markdown;
    expect(await inlined(a.id)).toBe("New warning.\n");
    expect(await inlined(b.id)).toBe("Intro.\n\nNew warning.\n");
    // The older revision keeps the old version.
    const { data: old } = await api.spaces.getReusableContentInRevisionById(space, revision.id, created.id);
    expect(old).toEqual(created);

    await writer.deleteReusableContent({ spaceId: space, reusableContentId: created.id });
    expect(await statusOf(api.spaces.getReusableContentById(space, created.id))).toBe(404);
  });
});
