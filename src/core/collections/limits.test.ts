import { describe, expect, it } from "vitest";
import { createTypedWorkspace } from "../../../test/support/workspace.js";
import { answerOf, expectRefusedUnchanged, LONG_ID, LONGEST_ID } from "../../../test/support/limits.js";

/** Input limits of the collection operations (docs/api.md, "Limits"). */
describe("collections: input limits", () => {
  it("bounds collection ids, parents, positions, texts and page tokens", async () => {
    const { client, org, collection } = await createTypedWorkspace();
    const first = await collection({ title: "First" });
    const second = await collection({ title: "Second" });
    const organizationId = org;
    const observe = async () => ({
      list: await client.listCollectionsInOrganizationById({ organizationId }),
      first: await client.getCollectionById({ collectionId: first }),
    });
    const pointer = (id: string) => ({ type: "collection" as const, collection: id });
    await expectRefusedUnchanged(observe, [
      [() => answerOf(client.getCollectionById({ collectionId: LONG_ID })), "path.collectionId"],
      [
        () => answerOf(client.updateCollectionById({ collectionId: LONG_ID, body: { title: "Renamed" } })),
        "path.collectionId",
      ],
      [() => answerOf(client.createCollection({ organizationId, body: { parent: LONG_ID } })), "body.parent"],
      [
        () => answerOf(client.createCollection({ organizationId, body: { title: "t".repeat(51) } })),
        "body.title",
      ],
      [
        () =>
          answerOf(
            client.updateCollectionById({ collectionId: first, body: { description: "d".repeat(101) } }),
          ),
        "body.description",
      ],
      [
        () => answerOf(client.moveCollection({ collectionId: first, body: { parent: LONG_ID } })),
        "body.parent",
      ],
      [
        () =>
          answerOf(
            client.moveCollection({ collectionId: first, body: { position: { after: pointer(LONG_ID) } } }),
          ),
        "body.position.after.collection",
      ],
      [
        () => answerOf(client.transferCollection({ collectionId: first, body: { organization: LONG_ID } })),
        "body.organization",
      ],
      [
        () => answerOf(client.listCollectionsInOrganizationById({ organizationId, page: "p".repeat(8193) })),
        "query.page",
      ],
      [
        () => answerOf(client.listSpacesInCollectionById({ collectionId: first, page: "p".repeat(8193) })),
        "query.page",
      ],
    ]);

    // Ordinary values and values at the bounds still pass validation.
    await expect(client.getCollectionById({ collectionId: LONGEST_ID })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(
      client.createCollection({ organizationId, body: { parent: LONGEST_ID } }),
    ).rejects.toMatchObject({ message: expect.stringContaining("body.parent") });
    await client.moveCollection({ collectionId: first, body: { position: { after: pointer(second) } } });
    const described = await client.updateCollectionById({
      collectionId: first,
      body: { description: "d".repeat(100) },
    });
    expect(described.description).toHaveLength(100);
  });
});
