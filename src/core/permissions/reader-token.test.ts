import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestDocsbase, type TestDocsbase } from "../../testing/double.js";
import { defineModule } from "../module.js";
import { operations } from "../operations.js";
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
  "listSpaceLinks",
  "listPageLinksInSpace",
  "listSpacePageBacklinks",
  "listSpaceFileBacklinks",
  "searchSpaceContent",
];

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
  it("are declared on exactly the operations the path rule opened", () => {
    const declared = Object.values(operations).filter((operation) => operation.access.readerToken);
    expect(declared.map((operation) => operation.id).sort()).toEqual([...OPEN_BEFORE].sort());
    for (const operation of declared) {
      expect([operation.id, operation.method, operation.path]).toEqual([
        operation.id,
        "get",
        expect.stringMatching(/^\/spaces\/\{spaceId\}/),
      ]);
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
    expect(shown.map((operation: any) => operation.operationId).sort()).toEqual([...OPEN_BEFORE].sort());
  });
});

describe("a reader token", () => {
  let test: TestDocsbase;
  let space: string;
  let token: string;
  let owner: { id: string; token: string };
  beforeAll(async () => {
    test = await createTestDocsbase({ modules: [notes] });
    owner = await test.createUser("Owner");
    const api = async (method: string, path: string, body?: unknown) =>
      (await test.request(method, path, { token: owner.token, ...(body === undefined ? {} : { body }) }))
        .body;
    const org = (await api("POST", "/orgs", { title: "Acme" })).id;
    space = (await api("POST", `/orgs/${org}/spaces`, { title: "Docs" })).id;
    await api("POST", `/spaces/${space}/content/pages`, { title: "Intro", markdown: "Hello" });
    const site = (await api("POST", `/orgs/${org}/sites`, { title: "Handbook", spaces: [space] })).id;
    await api("POST", `/orgs/${org}/sites/${site}/publish`);
    const url = encodeURIComponent(`http://docsbase.test/sites/${site}/`);
    token = (await test.request("GET", `/urls/published?url=${url}`, { token: null })).body.apiToken;
  });

  it("is refused an operation that does not declare it, a new one included", async () => {
    const answer = await test.request("GET", `/spaces/${space}/notes`, { token });
    expect(answer.status).toBe(403);
    expect(answer.body.error.message).toMatch(/only reads the published content of space/);
    // A member reads it: the refusal is the token's.
    expect((await test.request("GET", `/spaces/${space}/notes`, { token: owner.token })).status).toBe(200);
  });

  it("reads through an operation that declares it, on its own space only", async () => {
    const answer = await test.request("GET", `/spaces/${space}/public-notes`, { token });
    expect(answer).toMatchObject({ status: 200, body: { space } });
    expect((await test.request("GET", `/spaces/other/public-notes`, { token })).status).toBe(403);
  });
});
