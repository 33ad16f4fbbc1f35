import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { expectRefusedUnchanged, LONG_ID, LONGEST_ID } from "../../../test/support/limits.js";

/** Input limits of the member operations (docs/api.md, "Limits"). */
describe("members: input limits", () => {
  it("bounds member ids and the search texts", async () => {
    const { api, org, owner } = await createWorkspace();
    const observe = async () => (await api("GET", `/orgs/${org}/members`)).body;
    await expectRefusedUnchanged(observe, [
      [() => api("PATCH", `/orgs/${org}/members/${LONG_ID}`, { role: "read" }), "path.userId"],
      [() => api("DELETE", `/orgs/${org}/members/${LONG_ID}`), "path.userId"],
      [() => api("PATCH", `/orgs/${LONG_ID}/members/${owner.id}`, { role: "read" }), "path.organizationId"],
      [() => api("GET", `/orgs/${org}/members?search=${"s".repeat(513)}`), "query.search"],
      [() => api("GET", `/orgs/${org}/members/${owner.id}/teams?title=${"t".repeat(513)}`), "query.title"],
      [() => api("GET", `/orgs/${org}/members?page=${"p".repeat(8193)}`), "query.page"],
    ]);

    // At the bounds, validation passes.
    expect((await api("GET", `/orgs/${org}/members/${LONGEST_ID}`)).status).toBe(404);
    const found = await api("GET", `/orgs/${org}/members?search=${"s".repeat(512)}`);
    expect(found.status).toBe(200);
    expect(found.body.count).toBe(0);
    expect((await api("GET", `/orgs/${org}/members?search=owner`)).body.count).toBe(1);
  });
});
