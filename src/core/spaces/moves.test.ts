import { createWorkspace } from "../../../test/support/workspace.js";
import { describe, expect, it } from "vitest";

const setup = createWorkspace;

const at = (kind: "space" | "collection", id: string) => ({ type: kind, [kind]: id });

describe("space moves", () => {
  it("moves into a collection (in-collection) and back to the root (private), last by default", async () => {
    const { api, org, collection, space, titles, advance } = await setup();
    const box = await collection({ title: "Box" });
    await space({ title: "Boxed", parent: box });
    const id = await space({ title: "Docs" });
    advance(1000);
    const moved = await api("POST", `/spaces/${id}/move`, { parent: box });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      parent: box,
      visibility: "in-collection",
      updatedAt: "2025-01-01T00:00:01.000Z",
    });
    expect(await titles(`/collections/${box}/spaces`)).toEqual(["Boxed", "Docs"]);
    const back = await api("POST", `/spaces/${id}/move`, { parent: null });
    expect(back.body.parent).toBeUndefined();
    expect(back.body.visibility).toBe("private");
    expect(await titles(`/collections/${box}/spaces`)).toEqual(["Boxed"]);
    expect(await titles(`/orgs/${org}/spaces`)).toEqual(["Boxed", "Docs"]);
  });

  it("places a space between siblings of either kind", async () => {
    const { api, org, collection, space, titles } = await setup();
    const a = await space({ title: "A" });
    const box = await collection({ title: "Box" });
    const b = await space({ title: "B" });
    const c = await space({ title: "C" });
    const list = `/orgs/${org}/spaces`;
    await api("POST", `/spaces/${c}/move`, { position: { before: at("space", a) } });
    expect(await titles(list)).toEqual(["C", "A", "B"]);
    await api("POST", `/spaces/${c}/move`, { position: { after: at("collection", box) } });
    expect(await titles(list)).toEqual(["A", "C", "B"]);
    await api("POST", `/spaces/${a}/move`, { position: { after: at("space", b) } });
    expect(await titles(list)).toEqual(["C", "B", "A"]);
    await api("POST", `/spaces/${a}/move`, {
      position: { after: at("collection", box), before: at("space", c) },
    });
    expect(await titles(list)).toEqual(["A", "C", "B"]);
    // Into a collection, at a given place among its spaces.
    const inside = await space({ title: "Inside", parent: box });
    await api("POST", `/spaces/${b}/move`, { parent: box, position: { before: at("space", inside) } });
    expect(await titles(`/collections/${box}/spaces`)).toEqual(["B", "Inside"]);
  });

  it("refuses bad moves with 400/409 naming the field, and changes nothing", async () => {
    const { api, org, organization, collection, space, titles } = await setup();
    const box = await collection({ title: "Box" });
    const inBox = await space({ title: "InBox", parent: box });
    const a = await space({ title: "A" });
    const b = await space({ title: "B" });
    const foreign = await collection({}, await organization("Other"));
    const gone = await space({ title: "Gone" });
    await api("DELETE", `/spaces/${gone}`);
    const cases: [unknown, number, string][] = [
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
      const response = await api("POST", `/spaces/${a}/move`, body);
      expect([JSON.stringify(body), response.status]).toEqual([JSON.stringify(body), status]);
      expect(response.body.error.message).toContain(message);
    }
    expect((await api("POST", `/spaces/${inBox}/move`, { parent: box })).status).toBe(409);
    expect(await titles(`/orgs/${org}/spaces`)).toEqual(["InBox", "A", "B"]);
    expect((await api("GET", `/spaces/${inBox}`)).body).toMatchObject({
      parent: box,
      visibility: "in-collection",
    });
  });

  it("needs admin on the space and create at the destination", async () => {
    const { api, collection, space, member, outsider } = await setup();
    const id = await space({ title: "Docs" });
    const box = await collection({ title: "Box" });
    expect((await outsider("POST", `/spaces/${id}/move`, { parent: box })).status).toBe(404);
    const reader = await member("read");
    expect((await reader("POST", `/spaces/${id}/move`, { parent: box })).status).toBe(403);
    await api("PATCH", `/spaces/${id}`, { defaultLevel: "admin" });
    // Admin on the space, but only "read" in the box.
    expect((await reader("POST", `/spaces/${id}/move`, { parent: box })).status).toBe(403);
    await api("PATCH", `/collections/${box}`, { defaultLevel: "create" });
    expect((await reader("POST", `/spaces/${id}/move`, { parent: box })).status).toBe(200);
  });
});

describe("space transfers", () => {
  it("moves a root space to the end of another organization", async () => {
    const { api, org, organization, space, titles, advance } = await setup();
    const target = await organization("Target");
    await space({ title: "There" }, target);
    const id = await space({ title: "Docs" });
    advance(1000);
    const moved = await api("POST", `/spaces/${id}/transfer`, { organization: target });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ organization: target, updatedAt: "2025-01-01T00:00:01.000Z" });
    expect(await titles(`/orgs/${target}/spaces`)).toEqual(["There", "Docs"]);
    expect(await titles(`/orgs/${org}/spaces`)).toEqual([]);
  });

  it("answers 404, 409, 412 and 403, changing nothing", async () => {
    const { api, as, test, org, organization, join, member, outsider, collection, space } = await setup();
    const other = await organization("Other");
    const stranger = await test.createUser("Stranger");
    const strangers = (await as(stranger.token)("POST", "/orgs", { title: "Strangers" })).body.id;
    const id = await space({ title: "Docs" });
    const nested = await space({ title: "Nested", parent: await collection() });
    const transfer = (caller: typeof api, spaceId: string, organization: unknown) =>
      caller("POST", `/spaces/${spaceId}/transfer`, { organization });

    expect((await api("POST", `/spaces/${id}/transfer`, {})).status).toBe(400);
    expect((await api("POST", `/spaces/${id}/transfer`, { organization: 1 })).body.error.message).toContain(
      "body.organization",
    );
    expect((await transfer(api, "missing", other)).status).toBe(404);
    expect((await transfer(api, id, "missing")).status).toBe(404);
    expect((await transfer(api, id, strangers)).status).toBe(404);
    expect((await transfer(api, id, org)).status).toBe(409);
    const precondition = await transfer(api, nested, other);
    expect(precondition.status).toBe(412);
    expect(precondition.body.error.message).toContain("The space cannot be moved");
    expect((await transfer(outsider, id, other)).status).toBe(404);
    expect((await transfer(await member("edit"), id, other)).status).toBe(403);
    const adminHere = await member("admin");
    await join(adminHere.userId, "comment", other);
    expect((await transfer(adminHere, id, other)).status).toBe(403);
    expect((await api("GET", `/spaces/${id}`)).body.organization).toBe(org);
    expect((await api("GET", `/spaces/${nested}`)).body.organization).toBe(org);
    await join(adminHere.userId, "create", other);
    const moved = await transfer(adminHere, id, other);
    expect(moved.status).toBe(200);
    expect(moved.body.permissions).toMatchObject({ view: true, admin: false, edit: true });
  });
});
