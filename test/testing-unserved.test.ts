import { describe, expect, it } from "vitest";
import { createTestDocsbase, UnservedOperationError } from "../src/testing/index.js";

describe("test double: onUnserved: throw", () => {
  it("throws only for unserved operations: served calls and unknown paths answer as before", async () => {
    const strict = await createTestDocsbase({ onUnserved: "throw" });
    await expect(strict.request("POST", "/orgs/acme/ask", { body: {} })).rejects.toMatchObject({
      operationId: "askInOrganization",
    });
    await expect(strict.fetch("http://docsbase.test/v1/")).rejects.toBeInstanceOf(UnservedOperationError);
    expect((await strict.request("GET", "/user")).status).toBe(200);
    expect((await strict.request("GET", "/nothing/here")).status).toBe(404);
    expect((await strict.request("DELETE", "/user")).status).toBe(405);
    const typed = await strict.as(strict.operatorToken).getAuthenticatedUser();
    expect(typed.id).toBeTruthy();
  });
});
