import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { markdownToDocument, documentToMarkdown } from "../document/index.js";

async function setup() {
  const w = await createWorkspace();
  const spaceId = await w.space({ title: "Docs" });
  const head = async () => (await w.client.getSpaceById({ spaceId })).revision;
  const create = (title: string, markdown: string) =>
    w.client.createReusableContent({ spaceId, body: { title, markdown } });
  return { ...w, spaceId, head, create };
}

const refused = (call: Promise<unknown>, code: string, message?: RegExp) =>
  expect(call).rejects.toMatchObject({
    code,
    ...(message ? { message: expect.stringMatching(message) } : {}),
  });

describe("reusable contents", () => {
  it("are created, read, updated and deleted in a space, each write a new revision", async () => {
    const { client, spaceId, head, create, api } = await setup();
    const before = await head();
    const created = await create("Warning", "Back up **first**.");
    expect(created).toEqual({ id: expect.any(String), title: "Warning", document: expect.any(String) });
    const first = await head();
    expect(first).not.toBe(before);
    const reusableContentId = created.id;
    expect(await client.getReusableContentById({ spaceId, reusableContentId })).toEqual(created);
    expect((await client.getCurrentRevision({ spaceId })).reusableContents).toEqual([created]);
    const document = await client.getReusableContentDocumentInRevisionById({
      spaceId,
      revisionId: first,
      reusableContentId,
    });
    expect(JSON.stringify(document)).toContain("first");

    const updated = await client.updateReusableContent({
      spaceId,
      reusableContentId,
      body: { markdown: "Back up twice." },
    });
    expect(updated.title).toBe("Warning");
    expect(updated.document).not.toBe(created.document);
    // The earlier revision keeps the version it was made with.
    expect(
      await client.getReusableContentInRevisionById({ spaceId, revisionId: first, reusableContentId }),
    ).toEqual(created);
    const now = await head();
    const latest = await client.getReusableContentDocumentInRevisionById({
      spaceId,
      revisionId: now,
      reusableContentId,
    });
    expect(JSON.stringify(latest)).toContain("twice");

    const remove = () => api("DELETE", `/spaces/${spaceId}/content/reusable-contents/${reusableContentId}`);
    expect((await remove()).status).toBe(205);
    expect((await remove()).status).toBe(204);
    await refused(
      client.getReusableContentById({ spaceId, reusableContentId }),
      "not_found",
      /Reusable content/,
    );
    expect((await client.getCurrentRevision({ spaceId })).reusableContents).toEqual([]);
  });

  it("refuses bad input with 400 naming the field, and changes nothing", async () => {
    const { spaceId, head, create, api } = await setup();
    const { id } = await create("Note", "text");
    const before = await head();
    const base = `/spaces/${spaceId}/content/reusable-contents`;
    const untitled = await api("POST", base, { markdown: "x" });
    expect(untitled.status).toBe(400);
    expect(untitled.body.error.message).toMatch(/^body\.title: /);
    const long = await api("POST", base, { title: "T", markdown: "x".repeat(1_000_001) });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toMatch(/^body\.markdown: /);
    const empty = await api("PATCH", `${base}/${id}`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toMatch(/at least one property/);
    const missing = await api("PATCH", `${base}/unknown`, { title: "X" });
    expect(missing.status).toBe(404);
    expect(await head()).toBe(before);
  });

  it("applies the role rules of page writes and reads", async () => {
    const { spaceId, create, member, outsider } = await setup();
    const { id: reusableContentId } = await create("Note", "text");
    const reader = await member("read");
    const editor = await member("edit");
    expect((await reader.client.getReusableContentById({ spaceId, reusableContentId })).title).toBe("Note");
    await refused(reader.client.createReusableContent({ spaceId, body: { title: "R" } }), "forbidden");
    await refused(
      reader.client.updateReusableContent({ spaceId, reusableContentId, body: { title: "R" } }),
      "forbidden",
    );
    await editor.client.updateReusableContent({ spaceId, reusableContentId, body: { title: "By editor" } });
    await refused(outsider.client.getReusableContentById({ spaceId, reusableContentId }), "not_found");
    await refused(outsider.client.createReusableContent({ spaceId, body: { title: "O" } }), "not_found");
  });

  it("are included by pages: a block in the document, inlined with dereferenced=reusable-contents", async () => {
    const { client, spaceId, create } = await setup();
    const { id } = await create("Warning", "Back up **first**.");
    const page = await client.createPage({
      spaceId,
      body: { title: "Install", markdown: `Before.\n\n{% include "${id}" %}\n\nAfter.\n` },
    });
    const asWritten = await client.getPageById({ spaceId, pageId: page.id, format: "document" });
    expect(asWritten.document?.["nodes"]).toContainEqual(
      expect.objectContaining({
        type: "reusable-content",
        isVoid: true,
        data: { ref: { kind: "reusable-content", reusableContent: id } },
      }),
    );
    const markdown = await client.getPageById({ spaceId, pageId: page.id, format: "markdown" });
    expect(markdown.markdown).toContain(`{% include "${id}" %}`);
    const inlined = await client.getPageById({
      spaceId,
      pageId: page.id,
      format: "markdown",
      dereferenced: "reusable-contents",
    });
    expect(inlined.markdown).toBe("Before.\n\nBack up **first**.\n\nAfter.\n");
    const inlinedDocument = await client.getPageById({
      spaceId,
      pageId: page.id,
      dereferenced: "reusable-contents",
    });
    expect(JSON.stringify(inlinedDocument.document)).not.toContain("reusable-content");
    expect(JSON.stringify(inlinedDocument.document)).toContain("first");
  });

  it("round-trips the include between markdown and the document", () => {
    const document = markdownToDocument('{% include "abc" %}\n');
    expect(document.nodes[0]).toMatchObject({
      type: "reusable-content",
      data: { ref: { reusableContent: "abc" } },
    });
    expect(documentToMarkdown(document)).toBe('{% include "abc" %}\n');
    // Not alone in its paragraph: text.
    expect(markdownToDocument('See {% include "abc" %}\n').nodes[0]?.type).toBe("paragraph");
  });

  it("updated once in a change request and merged, change every page that includes them", async () => {
    const { client, spaceId, create, head } = await setup();
    const { id } = await create("Warning", "Old warning.");
    const include = `{% include "${id}" %}\n`;
    const a = await client.createPage({ spaceId, body: { title: "A", markdown: include } });
    const b = await client.createPage({ spaceId, body: { title: "B", markdown: `Intro.\n\n${include}` } });
    const before = await head();
    const cr = await client.createChangeRequest({ spaceId, body: { subject: "Reword" } });
    const inCr = { spaceId, changeRequestId: cr.id };
    await client.updateReusableContentInChangeRequest({
      ...inCr,
      reusableContentId: id,
      body: { markdown: "New warning." },
    });
    // Live content is untouched until the merge.
    expect((await client.getReusableContentById({ spaceId, reusableContentId: id })).document).toBe(
      (await client.getReusableContentInRevisionById({ spaceId, revisionId: before, reusableContentId: id }))
        .document,
    );
    expect(
      (await client.getReusableContentInChangeRequestById({ ...inCr, reusableContentId: id })).title,
    ).toBe("Warning");
    expect((await client.mergeChangeRequest(inCr)).result).toBe("merge");
    const read = (pageId: string) =>
      client.getPageById({ spaceId, pageId, format: "markdown", dereferenced: "reusable-contents" });
    expect((await read(a.id)).markdown).toBe("New warning.\n");
    expect((await read(b.id)).markdown).toBe("Intro.\n\nNew warning.\n");
    const old = await client.getPageInRevisionById({
      spaceId,
      revisionId: before,
      pageId: a.id,
      format: "markdown",
      dereferenced: "reusable-contents",
    });
    expect(old.markdown).toBe("Old warning.\n");
  });

  it("conflict when a change request and the space change one differently", async () => {
    const { client, spaceId, create } = await setup();
    const { id } = await create("Warning", "Old.");
    const cr = await client.createChangeRequest({ spaceId, body: { subject: "Reword" } });
    const inCr = { spaceId, changeRequestId: cr.id };
    await client.updateReusableContentInChangeRequest({
      ...inCr,
      reusableContentId: id,
      body: { markdown: "CR." },
    });
    await client.updateReusableContent({ spaceId, reusableContentId: id, body: { markdown: "Live." } });
    const outcome = await client.mergeChangeRequest(inCr);
    expect(outcome.result).toBe("conflicts");
    expect((outcome as { conflicts?: unknown[] }).conflicts).toEqual([
      { reusableContent: id, reason: expect.any(String) },
    ]);
  });

  it("created in a change request join the space when it merges", async () => {
    const { client, spaceId } = await setup();
    const cr = await client.createChangeRequest({ spaceId, body: { subject: "Add" } });
    const inCr = { spaceId, changeRequestId: cr.id };
    const { id } = await client.createReusableContentInChangeRequest({ ...inCr, body: { title: "New" } });
    await refused(client.getReusableContentById({ spaceId, reusableContentId: id }), "not_found");
    await client.mergeChangeRequest(inCr);
    expect((await client.getReusableContentById({ spaceId, reusableContentId: id })).title).toBe("New");
  });
});

describe("getDocumentById", () => {
  it("answers the document of a reusable content by its id, in its space only", async () => {
    const { client, spaceId, create } = await setup();
    const created = await create("Note", "Kept **once**.");
    const documentId = created.document!;
    const document = await client.getDocumentById({ spaceId, documentId });
    expect(document).toEqual(
      await client.getReusableContentDocumentInRevisionById({
        spaceId,
        revisionId: (await client.getSpaceById({ spaceId })).revision,
        reusableContentId: created.id,
      }),
    );
    // An older version of a content the space still holds stays readable by its id.
    await client.updateReusableContent({
      spaceId,
      reusableContentId: created.id,
      body: { markdown: "New." },
    });
    expect(JSON.stringify(await client.getDocumentById({ spaceId, documentId }))).toContain("once");
    await refused(
      client.getDocumentById({ spaceId, documentId: "unknown" }),
      "not_found",
      /Document "unknown"/,
    );
    const other = await client.createSpace({
      organizationId: (await client.getSpaceById({ spaceId })).organization,
      body: { title: "Other" },
    });
    await refused(client.getDocumentById({ spaceId: other.id, documentId }), "not_found");
    await client.deleteReusableContent({ spaceId, reusableContentId: created.id });
    await refused(client.getDocumentById({ spaceId, documentId }), "not_found");
  });
});

describe("reusable contents and a site's reader token", () => {
  it("are read with the lookup's apiToken, on its own space and revision, and written by no token", async () => {
    const { client, spaceId, create, test, api } = await setup();
    const created = await create("Note", "Shared.");
    const organizationId = (await client.getSpaceById({ spaceId })).organization;
    const siteId = (
      await client.createSite({ organizationId, body: { title: "Handbook", spaces: [spaceId] } })
    ).id;
    await client.publishSite({ organizationId, siteId });
    const url = encodeURIComponent(`http://docsbase.test/sites/${siteId}/`);
    const lookup = (await api("GET", `/urls/published?url=${url}`)).body;
    const reader = test.docsbase.as({ token: lookup.apiToken });
    const reusableContentId = created.id;
    const revisionId = lookup.revision as string;
    expect((await reader.getReusableContentById({ spaceId, reusableContentId })).title).toBe("Note");
    expect(
      (await reader.getReusableContentInRevisionById({ spaceId, revisionId, reusableContentId })).id,
    ).toBe(reusableContentId);
    const document = await reader.getReusableContentDocumentInRevisionById({
      spaceId,
      revisionId,
      reusableContentId,
    });
    expect(document.object).toBe("document");
    expect((await reader.getDocumentById({ spaceId, documentId: created.document! })).object).toBe(
      "document",
    );
    await refused(reader.createReusableContent({ spaceId, body: { title: "T" } }), "forbidden");
  });
});
