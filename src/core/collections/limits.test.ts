import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { expectRefusedUnchanged, LONG_ID, LONGEST_ID } from "../../../test/support/limits.js";

/** Input limits of the collection operations (docs/api.md, "Limits"). */
describe("collections: input limits", () => {
  it("bounds collection ids, parents, positions, texts and page tokens", async () => {
    const { api, org, collection } = await createWorkspace();
    const first = await collection({ title: "First" });
    const second = await collection({ title: "Second" });
    const observe = async () => ({
      list: (await api("GET", `/orgs/${org}/collections`)).body,
      first: (await api("GET", `/collections/${first}`)).body,
    });
    const pointer = (id: string) => ({ type: "collection", collection: id });
    await expectRefusedUnchanged(observe, [
      [() => api("GET", `/collections/${LONG_ID}`), "path.collectionId"],
      [() => api("PATCH", `/collections/${LONG_ID}`, { title: "Renamed" }), "path.collectionId"],
      [() => api("POST", `/orgs/${org}/collections`, { parent: LONG_ID }), "body.parent"],
      [() => api("POST", `/orgs/${org}/collections`, { title: "t".repeat(51) }), "body.title"],
      [() => api("PATCH", `/collections/${first}`, { description: "d".repeat(101) }), "body.description"],
      [() => api("POST", `/collections/${first}/move`, { parent: LONG_ID }), "body.parent"],
      [
        () => api("POST", `/collections/${first}/move`, { position: { after: pointer(LONG_ID) } }),
        "body.position.after.collection",
      ],
      [() => api("POST", `/collections/${first}/transfer`, { organization: LONG_ID }), "body.organization"],
      [() => api("GET", `/orgs/${org}/collections?page=${"p".repeat(8193)}`), "query.page"],
      [() => api("GET", `/collections/${first}/spaces?page=${"p".repeat(8193)}`), "query.page"],
    ]);

    // Ordinary values and values at the bounds still pass validation.
    expect((await api("GET", `/collections/${LONGEST_ID}`)).status).toBe(404);
    expect(
      (await api("POST", `/orgs/${org}/collections`, { parent: LONGEST_ID })).body.error.message,
    ).toContain("body.parent");
    const moved = await api("POST", `/collections/${first}/move`, { position: { after: pointer(second) } });
    expect(moved.status).toBe(200);
    const described = await api("PATCH", `/collections/${first}`, { description: "d".repeat(100) });
    expect(described.body.description).toHaveLength(100);
  });
});
