import { beforeAll, describe, expect, it } from "vitest";
import { createTestDocsbase, type TestDocsbase } from "../../testing/double.js";

describe("getPageDocumentInRevisionById", () => {
  let test: TestDocsbase;
  let owner: { id: string; token: string };
  let organizationId: string;
  let spaceId: string;
  let pageId: string;
  let revisionId: string;
  beforeAll(async () => {
    test = await createTestDocsbase();
    owner = await test.createUser("Owner");
    const client = test.as(owner);
    organizationId = (await client.createOrganization({ body: { title: "Acme" } })).id;
    spaceId = (await client.createSpace({ organizationId, body: { title: "Docs" } })).id;
    const page = await client.createPage({
      spaceId,
      body: { title: "Intro", markdown: "Version {{ page.vars.v }}.", variables: { v: "2" } },
    });
    pageId = page.id;
    revisionId = (await client.getCurrentRevision({ spaceId })).id;
  });

  const textOf = (document: { nodes: unknown[] }) =>
    JSON.stringify(document.nodes).match(/"text":"([^"]*)"/)?.[1];

  it("is the page's document, as the page read with format=document gives it", async () => {
    const client = test.as(owner);
    const document = await client.getPageDocumentInRevisionById({ spaceId, revisionId, pageId });
    const page = await client.getPageInRevisionById({ spaceId, revisionId, pageId, format: "document" });
    expect(document).toEqual(page.document);
    // Not evaluated: the expression stays in the document.
    expect(JSON.stringify(document)).toContain("page.vars.v");
  });

  it("evaluates the page's expressions when asked", async () => {
    const client = test.as(owner);
    const evaluated = await client.getPageDocumentInRevisionById({
      spaceId,
      revisionId,
      pageId,
      evaluated: true,
    });
    expect(textOf(evaluated)).toBe("Version 2.");
    const deterministic = await client.getPageDocumentInRevisionById({
      spaceId,
      revisionId,
      pageId,
      evaluated: "deterministic-only",
    });
    expect(textOf(deterministic)).toBe("Version 2.");
    // Over HTTP, the query's strings.
    const answer = await test.request(
      "GET",
      `/spaces/${spaceId}/revisions/${revisionId}/page/${pageId}/document?evaluated=true`,
      { token: owner.token },
    );
    expect(textOf(answer.body)).toBe("Version 2.");
    const bad = await test.request(
      "GET",
      `/spaces/${spaceId}/revisions/${revisionId}/page/${pageId}/document?evaluated=maybe`,
      { token: owner.token },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("evaluated");
  });

  it("answers 404 for an unknown space, revision or page, and for a space the caller cannot see", async () => {
    const client = test.as(owner);
    for (const input of [
      { spaceId: "nope", revisionId, pageId },
      { spaceId, revisionId: "nope", pageId },
      { spaceId, revisionId, pageId: "nope" },
    ]) {
      await expect(client.getPageDocumentInRevisionById(input)).rejects.toMatchObject({ code: "not_found" });
    }
    const stranger = await test.createUser("Stranger");
    await expect(
      test.as(stranger).getPageDocumentInRevisionById({ spaceId, revisionId, pageId }),
    ).rejects.toMatchObject({ code: "not_found" });
  });

  it("is read by a site's reader token, for the revision it was issued with only", async () => {
    const client = test.as(owner);
    const siteId = (
      await client.createSite({ organizationId, body: { title: "Handbook", spaces: [spaceId] } })
    ).id;
    await client.publishSite({ organizationId, siteId });
    const url = encodeURIComponent(`http://docsbase.test/sites/${siteId}/`);
    const lookup = (await test.request("GET", `/urls/published?url=${url}`, { token: null })).body;
    const reader = test.docsbase.as({ token: lookup.apiToken });
    const document = await reader.getPageDocumentInRevisionById({
      spaceId,
      revisionId: lookup.revision,
      pageId,
    });
    expect(document.object).toBe("document");
    await client.updatePage({ spaceId, pageId, body: { markdown: "Later." } });
    const later = (await client.getCurrentRevision({ spaceId })).id;
    await expect(
      reader.getPageDocumentInRevisionById({ spaceId, revisionId: later, pageId }),
    ).rejects.toMatchObject({ code: "forbidden" });
  });
});
