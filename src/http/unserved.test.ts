import { describe, expect, it } from "vitest";
import { createTestDocsbase } from "../testing/double.js";
import { UnservedOperations } from "./unserved.js";

const unservedBody = (message: string) => ({ error: { code: 501, message } });

describe("operations of the reference docsbase does not serve", () => {
  it("answer 501 naming the operation, its method and its path template", async () => {
    const test = await createTestDocsbase();
    const ask = await test.request("POST", "/orgs/acme/ask", { body: { query: "?" } });
    expect(ask.status).toBe(501);
    expect(ask.body).toEqual(
      unservedBody("docsbase does not implement askInOrganization (POST /orgs/{organizationId}/ask)"),
    );
    const root = await test.request("GET", "/");
    expect(root.body).toEqual(unservedBody("docsbase does not implement getApiInformation (GET /)"));
    const git = await test.request("GET", "/spaces/s1/git/info");
    expect(git.body).toEqual(
      unservedBody("docsbase does not implement getSpaceGitInfo (GET /spaces/{spaceId}/git/info)"),
    );
    // Without a token too: the answer is the same for anyone.
    expect((await test.request("GET", "/spaces/s1/git/info", { token: null })).status).toBe(501);
  });

  it("answer 501 rather than 405 on a served path whose other method the reference has", async () => {
    const test = await createTestDocsbase();
    // GET .../publishing/auth is served, PATCH is the reference's updateSitePublishingAuthById,
    // DELETE is nothing.
    const path = "/orgs/o1/sites/s1/publishing/auth";
    const patch = await test.request("PATCH", path, { body: {} });
    expect(patch.status).toBe(501);
    expect(patch.body.error.message).toBe(
      "docsbase does not implement updateSitePublishingAuthById (PATCH /orgs/{organizationId}/sites/{siteId}/publishing/auth)",
    );
    const remove = await test.request("DELETE", path);
    expect(remove.status).toBe(405);
    expect(remove.headers.get("allow")).toBe("GET");
  });

  it("leave served operations and unknown paths as they were", async () => {
    const test = await createTestDocsbase();
    expect((await test.request("GET", "/user")).status).toBe(200);
    const missing = await test.request("GET", "/nothing/here");
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe("No route for GET /v1/nothing/here");
    // A reference path with a method the reference does not have on it.
    expect((await test.request("DELETE", "/spaces/s1/git/info")).status).toBe(404);
    // A `{param}` of the reference matches one segment, not several.
    expect((await test.request("GET", "/spaces/s1/extra/git/info")).status).toBe(404);
  });

  it("prefer the literal of two templates that match a path", () => {
    // Both templates unserved, listed parameter first, so that the order of the list cannot decide.
    const versions = "/orgs/{organizationId}/openapi/{specSlug}/versions";
    const unserved = new UnservedOperations(new Set(), [
      { operationId: "getOpenAPISpecVersionById", method: "get", path: `${versions}/{versionId}` },
      { operationId: "getLatestOpenAPISpecVersion", method: "get", path: `${versions}/latest` },
    ]);
    expect(unserved.match("GET", "/v1/orgs/o/openapi/s/versions/latest")?.operationId).toBe(
      "getLatestOpenAPISpecVersion",
    );
    expect(unserved.match("GET", "/v1/orgs/o/openapi/s/versions/v1")?.operationId).toBe(
      "getOpenAPISpecVersionById",
    );
  });

  it("leave out what the registry serves", () => {
    expect(new UnservedOperations(new Set()).match("GET", "/v1/user")?.operationId).toBe(
      "getAuthenticatedUser",
    );
    expect(
      new UnservedOperations(new Set(["getAuthenticatedUser"])).match("GET", "/v1/user"),
    ).toBeUndefined();
  });
});
