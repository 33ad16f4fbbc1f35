import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Docsbase } from "../../docsbase.js";
import { createTestDocsbase, type TestDocsbase } from "../../testing/double.js";
import { defineModule, type OperationsOf } from "../module.js";
import { operations, type Operations } from "../operations.js";
import { defineOperation } from "../registry.js";
import { pathParam } from "../shared/schema.js";
import { onSpace } from "../spaces/access.js";
import { readableWithReaderToken } from "./reader-token.js";

/**
 * The reader token (the `apiToken` of a published-content lookup) as access data: the operations it
 * may call declare it on their rule (`readableWithReaderToken`), `invoke` refuses it everything
 * else, and the OpenAPI document shows the declaration.
 */

/**
 * The operations the token could call before the rule was data: every GET whose path matched
 * `/^\/spaces\/\{spaceId\}(\/content(\/.*)?|\/revisions\/\{revisionId\}(\/.*)?|\/links|\/search)?$/`
 * (the `SCOPED_PATH` of `invoke.ts`), listed once from the registry of that time. The declared set
 * must stay exactly this one until a change means to widen or narrow it.
 */
const OPEN_BEFORE = [
  "getSpaceById",
  "getCurrentRevision",
  "listPages",
  "listFiles",
  "getFileById",
  "getPageById",
  "getPageByPath",
  "getRevisionById",
  "listPagesInRevisionById",
  "listFilesInRevisionById",
  "getFileInRevisionById",
  "getPageInRevisionById",
  "getPageInRevisionByPath",
  // Opened since: the body of a page as a renderer reads it.
  "getPageDocumentInRevisionById",
  // Opened since: the embed of a URL that a page of the space shows.
  "getEmbedByUrlInSpace",
  "listSpaceLinks",
  "listPageLinksInSpace",
  "listSpacePageBacklinks",
  "listSpaceFileBacklinks",
  "searchSpaceContent",
  // Opened since: reusable contents and their documents, as a renderer reads them.
  "getReusableContentById",
  "getReusableContentInRevisionById",
  "getReusableContentDocumentInRevisionById",
  "getDocumentById",
  // Opened since: what its revision changes (what its pages already show), without `mergedFrom`.
  "getRevisionSemanticChanges",
];

/**
 * The reads of a site opened since, to a token for the site whose lookup issued it
 * (`path.siteId`), as the renderer calls them with the lookup's `apiToken`.
 */
const OPEN_ON_SITE = ["getPublishedContentSite", "getSiteRedirectBySource", "searchSiteContent"];
/** The reads of a user opened since, to a token whose revision mentions that user (`path.userId`). */
const OPEN_ON_MENTIONED = ["getUserById"];
const OPEN = [...OPEN_BEFORE, ...OPEN_ON_SITE, ...OPEN_ON_MENTIONED].sort();
/** The reads among them that the reference sends as POST (a search's body). */
const POSTED_READS = ["searchSiteContent"];

/** A host module's two reads of a space: one says nothing of reader tokens, one opens itself to them. */
const spaceParams = z.object({ spaceId: pathParam() });
const notes = defineModule({
  name: "notes",
  tables: [],
  operations: {
    listNotes: defineOperation({
      id: "listNotes",
      method: "get",
      path: "/spaces/{spaceId}/notes",
      tag: "notes",
      summary: "List the notes of a space",
      access: onSpace("view"),
      params: spaceParams,
      response: z.object({ space: z.string() }),
      run: async ({ space }) => ({ space: space.id }),
    }),
    listPublicNotes: defineOperation({
      id: "listPublicNotes",
      method: "get",
      path: "/spaces/{spaceId}/public-notes",
      tag: "notes",
      summary: "List the public notes of a space",
      access: readableWithReaderToken(onSpace("view")),
      params: spaceParams,
      response: z.object({ space: z.string() }),
      run: async ({ space }) => ({ space: space.id }),
    }),
  },
});

describe("the operations open to a reader token", () => {
  it("are declared on exactly the operations the path rule opened, and the site and user reads since", () => {
    const declared = Object.values(operations).filter((operation) => operation.access.readerToken);
    expect(declared.map((operation) => operation.id).sort()).toEqual(OPEN);
    expect(operations.getUserById.access.readerToken).toEqual({ user: "userId" });
    for (const operation of declared) {
      if (OPEN_ON_MENTIONED.includes(operation.id)) continue;
      const onSite = OPEN_ON_SITE.includes(operation.id);
      if (POSTED_READS.includes(operation.id)) expect(operation.transaction).toBe("read");
      expect([operation.id, operation.method, operation.path]).toEqual([
        operation.id,
        POSTED_READS.includes(operation.id) ? "post" : "get",
        expect.stringMatching(
          onSite ? /^\/orgs\/\{organizationId\}\/sites\/\{siteId\}\// : /^\/spaces\/\{spaceId\}/,
        ),
      ]);
      expect(operation.access.readerToken).toEqual(
        onSite ? { site: "siteId" } : expect.objectContaining({ space: "spaceId" }),
      );
    }
  });

  it("are shown in the OpenAPI document, with the path parameters the token is held to", async () => {
    const test = await createTestDocsbase();
    const document = (await test.request("GET", "/openapi.json")).body;
    const revision = document.paths["/spaces/{spaceId}/revisions/{revisionId}"].get;
    expect(revision["x-docsbase-reader-token"]).toEqual({ space: "spaceId", revision: "revisionId" });
    expect(revision.description).toContain("a reader token");
    const space = document.paths["/spaces/{spaceId}"];
    expect(space.get["x-docsbase-reader-token"]).toEqual({ space: "spaceId" });
    expect(space.get.description).toMatch(/^Access: .*\. Also a reader token .* in path\.spaceId\.$/);
    expect(space.patch["x-docsbase-reader-token"]).toBeUndefined();
    expect(space.patch.description).not.toContain("reader token");
    const shown = Object.values(document.paths).flatMap((item: any) =>
      Object.values(item).filter((operation: any) => operation["x-docsbase-reader-token"]),
    );
    expect(shown.map((operation: any) => operation.operationId).sort()).toEqual(OPEN);
    const redirect = document.paths["/orgs/{organizationId}/sites/{siteId}/redirect"].get;
    expect(redirect["x-docsbase-reader-token"]).toEqual({ site: "siteId" });
    expect(redirect.description).toMatch(
      /Also a reader token .* for the site whose lookup issued it, in path\.siteId\.$/,
    );
    const user = document.paths["/users/{userId}"].get;
    expect(user["x-docsbase-reader-token"]).toEqual({ user: "userId" });
    expect(user.description).toMatch(/Also a reader token .* mentions, in path\.userId\.$/);
  });
});

describe("a reader token", () => {
  let test: TestDocsbase;
  let space: string;
  let token: string;
  let owner: { id: string; token: string };
  /**
   * The typed client acting with `token`, with the notes module's operations: the double's
   * `docsbase` is typed with docsbase's own operations only, though it mounts `notes` too.
   */
  const as = (token: string) =>
    (test.docsbase as Docsbase<Operations & OperationsOf<[typeof notes]>>).as({ token });
  beforeAll(async () => {
    test = await createTestDocsbase({ modules: [notes] });
    owner = await test.createUser("Owner");
    const client = test.as(owner);
    const organizationId = (await client.createOrganization({ body: { title: "Acme" } })).id;
    space = (await client.createSpace({ organizationId, body: { title: "Docs" } })).id;
    await client.createPage({ spaceId: space, body: { title: "Intro", markdown: "Hello" } });
    const site = (await client.createSite({ organizationId, body: { title: "Handbook", spaces: [space] } }))
      .id;
    await client.publishSite({ organizationId, siteId: site });
    const url = encodeURIComponent(`http://docsbase.test/sites/${site}/`);
    // The lookup is anonymous: over HTTP.
    token = (await test.request("GET", `/urls/published?url=${url}`, { token: null })).body.apiToken;
  });

  it("is refused an operation that does not declare it, a new one included", async () => {
    await expect(as(token).listNotes({ spaceId: space })).rejects.toMatchObject({
      code: "forbidden",
      message: expect.stringMatching(/only reads the published content of space/),
    });
    // A member reads it: the refusal is the token's.
    await as(owner.token).listNotes({ spaceId: space });
  });

  it("reads through an operation that declares it, on its own space only", async () => {
    expect(await as(token).listPublicNotes({ spaceId: space })).toEqual({ space });
    await expect(as(token).listPublicNotes({ spaceId: "other" })).rejects.toMatchObject({
      code: "forbidden",
    });
  });
});
