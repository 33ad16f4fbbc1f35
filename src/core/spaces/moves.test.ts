import { createTypedWorkspace } from "../../../test/support/workspace.js";
import { answerOf } from "../../../test/support/limits.js";
import { describe, expect, it } from "vitest";
import type { TestClient } from "../../testing/double.js";
import type { ClientInput } from "../client.js";
import type { Operations } from "../operations.js";
import type { ContentPointer } from "../shared/positions.js";

const setup = createTypedWorkspace;

const at = (kind: "space" | "collection", id: string): ContentPointer =>
  kind === "space" ? { type: "space", space: id } : { type: "collection", collection: id };

type MoveBody = ClientInput<Operations["moveSpace"]>["body"];

describe("space moves", () => {
  it("moves into a collection (in-collection) and back to the root (private), last by default", async () => {
    const { client, org, collection, space, titles, advance } = await setup();
    const box = await collection({ title: "Box" });
    await space({ title: "Boxed", parent: box });
    const id = await space({ title: "Docs" });
    const inBox = () => titles(client.listSpacesInCollectionById({ collectionId: box }));
    advance(1000);
    const moved = await client.moveSpace({ spaceId: id, body: { parent: box } });
    expect(moved).toMatchObject({
      parent: box,
      visibility: "in-collection",
      updatedAt: "2025-01-01T00:00:01.000Z",
    });
    expect(await inBox()).toEqual(["Boxed", "Docs"]);
    const back = await client.moveSpace({ spaceId: id, body: { parent: null } });
    expect(back.parent).toBeUndefined();
    expect(back.visibility).toBe("private");
    expect(await inBox()).toEqual(["Boxed"]);
    expect(await titles(client.listSpacesInOrganizationById({ organizationId: org }))).toEqual([
      "Boxed",
      "Docs",
    ]);
  });

  it("places a space between siblings of either kind", async () => {
    const { client, org, collection, space, titles } = await setup();
    const a = await space({ title: "A" });
    const box = await collection({ title: "Box" });
    const b = await space({ title: "B" });
    const c = await space({ title: "C" });
    const list = () => titles(client.listSpacesInOrganizationById({ organizationId: org }));
    const move = (spaceId: string, body: MoveBody) => client.moveSpace({ spaceId, body });
    await move(c, { position: { before: at("space", a) } });
    expect(await list()).toEqual(["C", "A", "B"]);
    await move(c, { position: { after: at("collection", box) } });
    expect(await list()).toEqual(["A", "C", "B"]);
    await move(a, { position: { after: at("space", b) } });
    expect(await list()).toEqual(["C", "B", "A"]);
    await move(a, { position: { after: at("collection", box), before: at("space", c) } });
    expect(await list()).toEqual(["A", "C", "B"]);
    // Into a collection, at a given place among its spaces.
    const inside = await space({ title: "Inside", parent: box });
    await move(b, { parent: box, position: { before: at("space", inside) } });
    expect(await titles(client.listSpacesInCollectionById({ collectionId: box }))).toEqual(["B", "Inside"]);
  });

  it("refuses bad moves with 400/409 naming the field, and changes nothing", async () => {
    const { client, org, organization, collection, space, titles } = await setup();
    const box = await collection({ title: "Box" });
    const inBox = await space({ title: "InBox", parent: box });
    const a = await space({ title: "A" });
    const b = await space({ title: "B" });
    const foreign = await collection({}, await organization("Other"));
    const gone = await space({ title: "Gone" });
    await client.deleteSpaceById({ spaceId: gone });
    const cases: [MoveBody, number, string][] = [
      [{}, 400, "body"],
      [{ parent: "" }, 400, "body.parent"],
      [{ parent: "missing" }, 400, "body.parent"],
      [{ parent: foreign }, 400, "body.parent"],
      [{ parent: a }, 400, "body.parent"],
      [{ position: { before: at("space", "missing") } }, 400, "body.position.before"],
      [{ position: { before: at("space", gone) } }, 400, "body.position.before"],
      [{ position: { after: at("space", inBox) } }, 400, "body.position.after"],
      [{ parent: box, position: { after: at("space", b) } }, 400, "body.position.after"],
      [{ position: { after: at("space", a) } }, 400, "body.position.after"],
      [{ position: { after: at("space", b), before: at("collection", box) } }, 400, "body.position"],
      [{ position: { after: at("collection", box), before: at("space", b) } }, 409, "change"],
      [{ position: {} }, 409, "change"],
      [{ parent: null }, 409, "change"],
      [{ position: { before: at("space", b) } }, 409, "change"],
    ];
    for (const [body, status, message] of cases) {
      const response = await answerOf(client.moveSpace({ spaceId: a, body }));
      expect([JSON.stringify(body), response.status]).toEqual([JSON.stringify(body), status]);
      expect(response.body.error.message).toContain(message);
    }
    await expect(client.moveSpace({ spaceId: inBox, body: { parent: box } })).rejects.toMatchObject({
      code: "conflict",
    });
    expect(await titles(client.listSpacesInOrganizationById({ organizationId: org }))).toEqual([
      "InBox",
      "A",
      "B",
    ]);
    expect(await client.getSpaceById({ spaceId: inBox })).toMatchObject({
      parent: box,
      visibility: "in-collection",
    });
  });

  it("needs admin on the space and create at the destination", async () => {
    const { client, collection, space, member, outsider } = await setup();
    const spaceId = await space({ title: "Docs" });
    const box = await collection({ title: "Box" });
    const move = (caller: TestClient) => caller.moveSpace({ spaceId, body: { parent: box } });
    await expect(move(outsider.client)).rejects.toMatchObject({ code: "not_found" });
    const reader = (await member("read")).client;
    await expect(move(reader)).rejects.toMatchObject({ code: "forbidden" });
    await client.updateSpaceById({ spaceId, body: { defaultLevel: "admin" } });
    // Admin on the space, but only "read" in the box.
    await expect(move(reader)).rejects.toMatchObject({ code: "forbidden" });
    await client.updateCollectionById({ collectionId: box, body: { defaultLevel: "create" } });
    await move(reader);
  });
});

describe("space transfers", () => {
  it("moves a root space to the end of another organization", async () => {
    const { client, org, organization, space, titles, advance } = await setup();
    const target = await organization("Target");
    await space({ title: "There" }, target);
    const id = await space({ title: "Docs" });
    advance(1000);
    const moved = await client.transferSpace({ spaceId: id, body: { organization: target } });
    expect(moved).toMatchObject({ organization: target, updatedAt: "2025-01-01T00:00:01.000Z" });
    expect(await titles(client.listSpacesInOrganizationById({ organizationId: target }))).toEqual([
      "There",
      "Docs",
    ]);
    expect(await titles(client.listSpacesInOrganizationById({ organizationId: org }))).toEqual([]);
  });

  it("answers 404, 409, 412 and 403, changing nothing", async () => {
    const { api, client, test, org, organization, join, member, outsider, collection, space } = await setup();
    const other = await organization("Other");
    const stranger = await test.createUser("Stranger");
    const strangers = (await test.as(stranger).createOrganization({ body: { title: "Strangers" } })).id;
    const id = await space({ title: "Docs" });
    const nested = await space({ title: "Nested", parent: await collection() });
    const transfer = (caller: TestClient, spaceId: string, organization: string) =>
      caller.transferSpace({ spaceId, body: { organization } });

    // Bodies no client type allows, as JSON sent over HTTP.
    expect((await api("POST", `/spaces/${id}/transfer`, {})).status).toBe(400);
    expect((await api("POST", `/spaces/${id}/transfer`, { organization: 1 })).body.error.message).toContain(
      "body.organization",
    );
    await expect(transfer(client, "missing", other)).rejects.toMatchObject({ code: "not_found" });
    await expect(transfer(client, id, "missing")).rejects.toMatchObject({ code: "not_found" });
    await expect(transfer(client, id, strangers)).rejects.toMatchObject({ code: "not_found" });
    await expect(transfer(client, id, org)).rejects.toMatchObject({ code: "conflict" });
    await expect(transfer(client, nested, other)).rejects.toMatchObject({
      code: "precondition_failed",
      message: expect.stringContaining("The space cannot be moved"),
    });
    await expect(transfer(outsider.client, id, other)).rejects.toMatchObject({ code: "not_found" });
    await expect(transfer((await member("edit")).client, id, other)).rejects.toMatchObject({
      code: "forbidden",
    });
    const adminHere = await member("admin");
    await join(adminHere.userId, "comment", other);
    await expect(transfer(adminHere.client, id, other)).rejects.toMatchObject({ code: "forbidden" });
    expect((await client.getSpaceById({ spaceId: id })).organization).toBe(org);
    expect((await client.getSpaceById({ spaceId: nested })).organization).toBe(org);
    await join(adminHere.userId, "create", other);
    const moved = await transfer(adminHere.client, id, other);
    expect(moved.permissions).toMatchObject({ view: true, admin: false, edit: true });
  });
});
