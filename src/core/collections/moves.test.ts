import { createWorkspace } from "../../../test/support/workspace.js";
import { describe, expect, it } from "vitest";

const setup = createWorkspace;

const after = (kind: "space" | "collection", id: string) => ({ type: kind, [kind]: id });

describe("collection moves", () => {
  it("reorders siblings with before/after pointers of either kind", async () => {
    const { api, org, collection, titles } = await setup();
    const a = await collection({ title: "A" });
    const b = await collection({ title: "B" });
    const c = await collection({ title: "C" });
    const space = (await api("POST", `/orgs/${org}/spaces`, { title: "S" })).body.id;
    const list = `/orgs/${org}/collections?nested=false`;

    expect(
      (await api("POST", `/collections/${c}/move`, { position: { before: after("collection", a) } })).status,
    ).toBe(200);
    expect(await titles(list)).toEqual(["C", "A", "B"]);
    await api("POST", `/collections/${c}/move`, {
      position: { after: after("collection", a), before: after("collection", b) },
    });
    expect(await titles(list)).toEqual(["A", "C", "B"]);
    // Spaces and collections share one order: "after S" puts A after every other root item here.
    await api("POST", `/collections/${a}/move`, { position: { after: after("space", space) } });
    expect(await titles(list)).toEqual(["C", "B", "A"]);
    const again = await api("POST", `/collections/${a}/move`, { position: { after: after("space", space) } });
    expect(again.status).toBe(409);
  });

  it("moves into a collection and back to the root, last among the new siblings", async () => {
    const { api, org, collection, titles } = await setup();
    const box = await collection({ title: "Box" });
    const inside = await collection({ title: "Inside", parent: box });
    const a = await collection({ title: "A" });
    const moved = await api("POST", `/collections/${a}/move`, { parent: box });
    expect(moved.status).toBe(200);
    expect(moved.body.parent).toBe(box);
    expect(
      (await api("GET", `/orgs/${org}/collections`)).body.items.map((c: any) => [c.title, c.parent]),
    ).toEqual([
      ["Box", undefined],
      ["Inside", box],
      ["A", box],
    ]);
    await api("POST", `/collections/${a}/move`, {
      parent: box,
      position: { before: after("collection", inside) },
    });
    expect((await api("GET", `/collections/${inside}`)).body.parent).toBe(box);
    const root = await api("POST", `/collections/${a}/move`, { parent: null });
    expect(root.body.parent).toBeUndefined();
    expect(await titles(`/orgs/${org}/collections?nested=false`)).toEqual(["Box", "A"]);
  });

  it("refuses bad moves with 400/409 naming the field, and changes nothing", async () => {
    const { api, org, organization, collection, titles } = await setup();
    const a = await collection({ title: "A" });
    const a1 = await collection({ title: "A1", parent: a });
    const a2 = await collection({ title: "A2", parent: a1 });
    const b = await collection({ title: "B" });
    const foreign = await collection({ title: "F" }, await organization("Other"));
    const cases: [string, unknown, number, string][] = [
      [a, {}, 400, "body"],
      [a, { parent: "missing" }, 400, "body.parent"],
      [a, { parent: foreign }, 400, "body.parent"],
      [a, { parent: a }, 400, "body.parent"],
      [a, { parent: a2 }, 400, "body.parent"],
      [a, { position: { before: after("collection", "missing") } }, 400, "body.position.before"],
      [a, { position: { after: after("collection", a1) } }, 400, "body.position.after"],
      [a, { position: { after: after("collection", a) } }, 400, "body.position.after"],
      [a, { position: { before: { type: "page", page: "x" } } }, 400, "body.position.before"],
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
    for (const [id, body, status, message] of cases) {
      const response = await api("POST", `/collections/${id}/move`, body);
      expect([JSON.stringify(body), response.status]).toEqual([JSON.stringify(body), status]);
      expect(response.body.error.message).toContain(message);
    }
    expect((await api("POST", `/collections/missing/move`, { parent: null })).status).toBe(404);
    expect(await titles(`/orgs/${org}/collections`)).toEqual(["A", "A1", "A2", "B"]);
    expect((await api("GET", `/collections/${a2}`)).body.parent).toBe(a1);
  });

  it("needs admin on the collection and create at the destination", async () => {
    const { api, member, collection } = await setup();
    const a = await collection({ title: "A" });
    const target = await collection({ title: "Target" });
    const creator = await member("create");
    expect((await creator("POST", `/collections/${a}/move`, { parent: target })).status).toBe(403);
    await api("PATCH", `/collections/${a}`, { defaultLevel: "admin" });
    await api("PATCH", `/collections/${target}`, { defaultLevel: "read" });
    expect((await creator("POST", `/collections/${a}/move`, { parent: target })).status).toBe(200);
    const reader = await member("read");
    await api("PATCH", `/collections/${target}`, { defaultLevel: null });
    const b = await collection({ title: "B", parent: target });
    await api("PATCH", `/collections/${b}`, { defaultLevel: "admin" });
    // Admin on b, but only "read" at the root: b may move within Target, not out of it.
    expect((await reader("POST", `/collections/${b}/move`, { parent: null })).status).toBe(403);
    expect(
      (await reader("POST", `/collections/${b}/move`, { position: { before: after("collection", a) } }))
        .status,
    ).toBe(200);
  });
});

describe("collection transfers", () => {
  it("carries nested collections and spaces, deleted ones included, to the end of the target", async () => {
    const { api, org, organization, collection, titles } = await setup();
    const target = await organization("Target");
    await collection({ title: "Existing" }, target);
    await api("POST", `/orgs/${target}/spaces`, { title: "Existing space" });
    const top = await collection({ title: "Top" });
    const inner = await collection({ title: "Inner", parent: top });
    const s1 = (await api("POST", `/orgs/${org}/spaces`, { title: "S1", parent: top })).body.id;
    const s2 = (await api("POST", `/orgs/${org}/spaces`, { title: "S2", parent: inner })).body.id;
    const gone = (await api("POST", `/orgs/${org}/spaces`, { title: "Gone", parent: inner })).body.id;
    await api("POST", `/collections/${inner}/move`, { position: { before: after("space", s1) } });
    await api("DELETE", `/spaces/${gone}`);

    const moved = await api("POST", `/collections/${top}/transfer`, { organization: target });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ id: top, organization: target, permissions: { admin: true } });
    expect(await titles(`/orgs/${target}/collections`)).toEqual(["Existing", "Top", "Inner"]);
    expect(await titles(`/orgs/${target}/spaces`)).toEqual(["Existing space", "S1", "S2"]);
    expect((await api("GET", `/spaces/${s2}`)).body).toMatchObject({ organization: target, parent: inner });
    expect((await api("GET", `/orgs/${org}/collections`)).body.count).toBe(0);
    expect((await api("GET", `/orgs/${org}/spaces`)).body.count).toBe(0);
    const restored = await api("POST", `/spaces/${gone}/restore`);
    expect(restored.body).toMatchObject({ organization: target, parent: inner });
  });

  it("answers 404, 409, 412 and 403 as the reference does, changing nothing", async () => {
    const { api, as, test, org, organization, join, member, outsider, collection, titles } = await setup();
    const other = await organization("Other");
    const stranger = await test.createUser("Stranger");
    const strangers = (await as(stranger.token)("POST", "/orgs", { title: "Strangers" })).body.id;
    const top = await collection({ title: "Top" });
    const nested = await collection({ title: "Nested", parent: top });
    const transfer = (caller: typeof api, id: string, organization: unknown) =>
      caller("POST", `/collections/${id}/transfer`, { organization });

    expect((await api("POST", `/collections/${top}/transfer`, {})).status).toBe(400);
    expect((await transfer(api, top, "missing")).status).toBe(404);
    expect((await transfer(api, top, strangers)).status).toBe(404);
    expect((await transfer(api, top, org)).status).toBe(409);
    const precondition = await transfer(api, nested, other);
    expect(precondition.status).toBe(412);
    expect(precondition.body.error.message).toContain("The collection cannot be moved");
    expect((await transfer(outsider, top, other)).status).toBe(404);
    expect((await transfer(await member("create"), top, other)).status).toBe(403);
    // Admin here, but only "read" in the target organization.
    const adminHere = await member("admin");
    await join(adminHere.userId, "read", other);
    expect((await transfer(adminHere, top, other)).status).toBe(403);
    expect((await api("GET", `/collections/${nested}`)).body.organization).toBe(org);
    await join(adminHere.userId, "create", other);
    expect((await transfer(adminHere, top, other)).status).toBe(200);
    expect((await adminHere("GET", `/collections/${top}`)).body.permissions).toMatchObject({ admin: false });

    expect(await titles(`/orgs/${other}/collections`)).toEqual(["Top", "Nested"]);
  });
});
