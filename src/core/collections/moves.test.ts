import { createTypedWorkspace } from "../../../test/support/workspace.js";
import { answerOf } from "../../../test/support/limits.js";
import { describe, expect, it } from "vitest";
import type { TestClient } from "../../testing/double.js";
import type { ClientInput } from "../client.js";
import type { Operations } from "../operations.js";
import type { ContentPointer } from "../shared/positions.js";

const setup = createTypedWorkspace;

const after = (kind: "space" | "collection", id: string): ContentPointer =>
  kind === "space" ? { type: "space", space: id } : { type: "collection", collection: id };

type MoveBody = ClientInput<Operations["moveCollection"]>["body"];

describe("collection moves", () => {
  it("reorders siblings with before/after pointers of either kind", async () => {
    const { client, org, collection, space: createSpace, titles } = await setup();
    const a = await collection({ title: "A" });
    const b = await collection({ title: "B" });
    const c = await collection({ title: "C" });
    const space = await createSpace({ title: "S" });
    const list = () =>
      titles(client.listCollectionsInOrganizationById({ organizationId: org, nested: false }));
    const move = (collectionId: string, body: MoveBody) => client.moveCollection({ collectionId, body });

    await move(c, { position: { before: after("collection", a) } });
    expect(await list()).toEqual(["C", "A", "B"]);
    await move(c, { position: { after: after("collection", a), before: after("collection", b) } });
    expect(await list()).toEqual(["A", "C", "B"]);
    // Spaces and collections share one order: "after S" puts A after every other root item here.
    await move(a, { position: { after: after("space", space) } });
    expect(await list()).toEqual(["C", "B", "A"]);
    await expect(move(a, { position: { after: after("space", space) } })).rejects.toMatchObject({
      code: "conflict",
    });
  });

  it("moves into a collection and back to the root, last among the new siblings", async () => {
    const { client, org, collection, titles } = await setup();
    const box = await collection({ title: "Box" });
    const inside = await collection({ title: "Inside", parent: box });
    const a = await collection({ title: "A" });
    const moved = await client.moveCollection({ collectionId: a, body: { parent: box } });
    expect(moved.parent).toBe(box);
    expect(
      (await client.listCollectionsInOrganizationById({ organizationId: org })).items.map((c) => [
        c.title,
        c.parent,
      ]),
    ).toEqual([
      ["Box", undefined],
      ["Inside", box],
      ["A", box],
    ]);
    await client.moveCollection({
      collectionId: a,
      body: { parent: box, position: { before: after("collection", inside) } },
    });
    expect((await client.getCollectionById({ collectionId: inside })).parent).toBe(box);
    const root = await client.moveCollection({ collectionId: a, body: { parent: null } });
    expect(root.parent).toBeUndefined();
    expect(
      await titles(client.listCollectionsInOrganizationById({ organizationId: org, nested: false })),
    ).toEqual(["Box", "A"]);
  });

  it("refuses bad moves with 400/409 naming the field, and changes nothing", async () => {
    const { api, client, org, organization, collection, titles } = await setup();
    const a = await collection({ title: "A" });
    const a1 = await collection({ title: "A1", parent: a });
    const a2 = await collection({ title: "A2", parent: a1 });
    const b = await collection({ title: "B" });
    const foreign = await collection({ title: "F" }, await organization("Other"));
    const cases: [string, MoveBody, number, string][] = [
      [a, {}, 400, "body"],
      [a, { parent: "missing" }, 400, "body.parent"],
      [a, { parent: foreign }, 400, "body.parent"],
      [a, { parent: a }, 400, "body.parent"],
      [a, { parent: a2 }, 400, "body.parent"],
      [a, { position: { before: after("collection", "missing") } }, 400, "body.position.before"],
      [a, { position: { after: after("collection", a1) } }, 400, "body.position.after"],
      [a, { position: { after: after("collection", a) } }, 400, "body.position.after"],
      [
        a,
        { position: { after: after("collection", b), before: after("collection", b) } },
        400,
        "body.position",
      ],
      [b, { position: { after: after("collection", a) } }, 409, "change"],
      [b, { parent: null }, 409, "change"],
      [a1, { parent: a }, 409, "change"],
      [a, { position: { before: after("collection", b) } }, 409, "change"],
    ];
    for (const [collectionId, body, status, message] of cases) {
      const response = await answerOf(client.moveCollection({ collectionId, body }));
      expect([JSON.stringify(body), response.status]).toEqual([JSON.stringify(body), status]);
      expect(response.body.error.message).toContain(message);
    }
    // A pointer no client type allows, as JSON sent over HTTP.
    const page = await api("POST", `/collections/${a}/move`, {
      position: { before: { type: "page", page: "x" } },
    });
    expect(page.status).toBe(400);
    expect(page.body.error.message).toContain("body.position.before");
    await expect(
      client.moveCollection({ collectionId: "missing", body: { parent: null } }),
    ).rejects.toMatchObject({ code: "not_found" });
    expect(await titles(client.listCollectionsInOrganizationById({ organizationId: org }))).toEqual([
      "A",
      "A1",
      "A2",
      "B",
    ]);
    expect((await client.getCollectionById({ collectionId: a2 })).parent).toBe(a1);
  });

  it("needs admin on the collection and create at the destination", async () => {
    const { client, member, collection } = await setup();
    const a = await collection({ title: "A" });
    const target = await collection({ title: "Target" });
    const creator = (await member("create")).client;
    await expect(creator.moveCollection({ collectionId: a, body: { parent: target } })).rejects.toMatchObject(
      { code: "forbidden" },
    );
    await client.updateCollectionById({ collectionId: a, body: { defaultLevel: "admin" } });
    await client.updateCollectionById({ collectionId: target, body: { defaultLevel: "read" } });
    await creator.moveCollection({ collectionId: a, body: { parent: target } });
    const reader = (await member("read")).client;
    await client.updateCollectionById({ collectionId: target, body: { defaultLevel: null } });
    const b = await collection({ title: "B", parent: target });
    await client.updateCollectionById({ collectionId: b, body: { defaultLevel: "admin" } });
    // Admin on b, but only "read" at the root: b may move within Target, not out of it.
    await expect(reader.moveCollection({ collectionId: b, body: { parent: null } })).rejects.toMatchObject({
      code: "forbidden",
    });
    await reader.moveCollection({ collectionId: b, body: { position: { before: after("collection", a) } } });
  });
});

describe("collection transfers", () => {
  it("carries nested collections and spaces, deleted ones included, to the end of the target", async () => {
    const { client, org, organization, collection, space, titles } = await setup();
    const target = await organization("Target");
    await collection({ title: "Existing" }, target);
    await space({ title: "Existing space" }, target);
    const top = await collection({ title: "Top" });
    const inner = await collection({ title: "Inner", parent: top });
    const s1 = await space({ title: "S1", parent: top });
    const s2 = await space({ title: "S2", parent: inner });
    const gone = await space({ title: "Gone", parent: inner });
    // Inner is already before S1: the move changes nothing (it answered an unchecked 409 over HTTP).
    await expect(
      client.moveCollection({ collectionId: inner, body: { position: { before: after("space", s1) } } }),
    ).rejects.toMatchObject({ code: "conflict" });
    await client.deleteSpaceById({ spaceId: gone });

    const moved = await client.transferCollection({ collectionId: top, body: { organization: target } });
    expect(moved).toMatchObject({ id: top, organization: target, permissions: { admin: true } });
    expect(await titles(client.listCollectionsInOrganizationById({ organizationId: target }))).toEqual([
      "Existing",
      "Top",
      "Inner",
    ]);
    expect(await titles(client.listSpacesInOrganizationById({ organizationId: target }))).toEqual([
      "Existing space",
      "S1",
      "S2",
    ]);
    expect(await client.getSpaceById({ spaceId: s2 })).toMatchObject({ organization: target, parent: inner });
    expect((await client.listCollectionsInOrganizationById({ organizationId: org })).count).toBe(0);
    expect((await client.listSpacesInOrganizationById({ organizationId: org })).count).toBe(0);
    const restored = await client.restoreSpace({ spaceId: gone });
    expect(restored).toMatchObject({ organization: target, parent: inner });
  });

  it("answers 404, 409, 412 and 403 as the reference does, changing nothing", async () => {
    const { api, client, test, org, organization, join, member, outsider, collection, titles } =
      await setup();
    const other = await organization("Other");
    const stranger = await test.createUser("Stranger");
    const strangers = (await test.as(stranger).createOrganization({ body: { title: "Strangers" } })).id;
    const top = await collection({ title: "Top" });
    const nested = await collection({ title: "Nested", parent: top });
    const transfer = (caller: TestClient, id: string, organization: string) =>
      caller.transferCollection({ collectionId: id, body: { organization } });

    // A body no client type allows, as JSON sent over HTTP.
    expect((await api("POST", `/collections/${top}/transfer`, {})).status).toBe(400);
    await expect(transfer(client, top, "missing")).rejects.toMatchObject({ code: "not_found" });
    await expect(transfer(client, top, strangers)).rejects.toMatchObject({ code: "not_found" });
    await expect(transfer(client, top, org)).rejects.toMatchObject({ code: "conflict" });
    await expect(transfer(client, nested, other)).rejects.toMatchObject({
      code: "precondition_failed",
      message: expect.stringContaining("The collection cannot be moved"),
    });
    await expect(transfer(outsider.client, top, other)).rejects.toMatchObject({ code: "not_found" });
    await expect(transfer((await member("create")).client, top, other)).rejects.toMatchObject({
      code: "forbidden",
    });
    // Admin here, but only "read" in the target organization.
    const adminHere = await member("admin");
    await join(adminHere.userId, "read", other);
    await expect(transfer(adminHere.client, top, other)).rejects.toMatchObject({ code: "forbidden" });
    expect((await client.getCollectionById({ collectionId: nested })).organization).toBe(org);
    await join(adminHere.userId, "create", other);
    await transfer(adminHere.client, top, other);
    expect((await adminHere.client.getCollectionById({ collectionId: top })).permissions).toMatchObject({
      admin: false,
    });

    expect(await titles(client.listCollectionsInOrganizationById({ organizationId: other }))).toEqual([
      "Top",
      "Nested",
    ]);
  });
});
