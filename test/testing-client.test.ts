import { GitBookAPI } from "@gitbook/api";
import { describe, expect, expectTypeOf, it } from "vitest";
import { officialClient } from "../src/testing/client.js";
import { createTestDocsbase } from "../src/testing/double.js";
import { UnservedOperationError } from "../src/testing/unserved.js";

describe("test double: the official client (test.client)", () => {
  it("is a GitBookAPI acting as the user, whose calls are journaled with their operationIds", async () => {
    const test = await createTestDocsbase();
    const alice = await test.createUser("Alice");
    const api = await test.client(alice);
    expectTypeOf(api).toEqualTypeOf<GitBookAPI>();
    expect(api).toBeInstanceOf(GitBookAPI);
    expect(api.endpoint).toBe(test.endpoint);
    const { data: user } = await api.user.getAuthenticatedUser();
    expect(user.id).toBe(alice.id);
    const byToken = await test.client(alice.token);
    expect((await byToken.user.getAuthenticatedUser()).data.id).toBe(alice.id);
    expect(test.calls()).toMatchObject([
      { operationId: "getAuthenticatedUser", method: "GET", path: "/user", status: 200, user: alice.id },
      { operationId: "getAuthenticatedUser", status: 200, user: alice.id },
    ]);
  });

  it("gets the faults of the double: an error answer, then a network failure", async () => {
    const test = await createTestDocsbase();
    const api = await test.client(test.operatorToken);
    test.fault({ operationId: "listOrganizationsForAuthenticatedUser", status: 503, times: 1 });
    await expect(api.orgs.listOrganizationsForAuthenticatedUser()).rejects.toMatchObject({ code: 503 });
    expect((await api.orgs.listOrganizationsForAuthenticatedUser()).status).toBe(200);
    test.fault({ operationId: "getAuthenticatedUser", networkError: true });
    await expect(api.user.getAuthenticatedUser()).rejects.toThrow(TypeError);
    expect(test.calls().map((call) => [call.operationId, call.status])).toEqual([
      ["listOrganizationsForAuthenticatedUser", 503],
      ["listOrganizationsForAuthenticatedUser", 200],
      ["getAuthenticatedUser", 0],
    ]);
  });

  it("gets a 501 for an unserved operation, or its UnservedOperationError with onUnserved: throw", async () => {
    const test = await createTestDocsbase();
    const api = await test.client(test.operatorToken);
    await expect(api.spaces.getSpaceGitInfo("space-1")).rejects.toMatchObject({
      code: 501,
      message: expect.stringContaining("docsbase does not implement getSpaceGitInfo"),
    });
    const strict = await createTestDocsbase({ onUnserved: "throw" });
    const strictApi = await strict.client(strict.operatorToken);
    const error = await strictApi.spaces.getSpaceGitInfo("space-1").catch((error: unknown) => error);
    expect(error).toBeInstanceOf(UnservedOperationError);
    expect(error).toMatchObject({ operationId: "getSpaceGitInfo" });
  });

  it("says to install @gitbook/api when the package cannot be loaded", async () => {
    const test = await createTestDocsbase();
    const missing = Object.assign(new Error("Cannot find package '@gitbook/api'"), {
      code: "ERR_MODULE_NOT_FOUND",
    });
    const error = await officialClient(test, test.operatorToken, () => Promise.reject(missing)).catch(
      (error: unknown) => error,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/install it \(npm install --save-dev @gitbook\/api\)/);
    expect((error as Error).cause).toBe(missing);
  });
});
