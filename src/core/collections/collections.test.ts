import { createWorkspace } from "../../../test/support/workspace.js";
import { describe, expect, it } from "vitest";

const setup = createWorkspace;

describe("collections", () => {
  it("creates a collection with defaults, a Location header and full permissions for an admin", async () => {
    const { api, org } = await setup();
    const created = await api("POST", `/orgs/${org}/collections`);
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(`http://docsbase.test/v1/collections/${created.body.id}`);
    expect(created.body).toEqual({
      object: "collection",
      id: created.body.id,
      title: "Untitled",
      organization: org,
      defaultLevel: "inherit",
      urls: {
        location: `http://docsbase.test/v1/collections/${created.body.id}`,
        app: `http://docsbase.test/c/${created.body.id}`,
      },
      permissions: { view: true, admin: true, viewInviteLinks: true, create: true },
    });
    const nested = await api("POST", `/orgs/${org}/collections`, { title: "Child", parent: created.body.id });
    expect(nested.body).toMatchObject({ title: "Child", parent: created.body.id });
  });

  it("refuses bad bodies with the field named and stores nothing", async () => {
    const { api, org, organization, collection } = await setup();
    const other = await collection({}, await organization("Other"));
    const attempts = [
      [{ title: "x".repeat(51) }, "body.title"],
      [{ parent: "missing" }, "body.parent"],
      [{ parent: other }, "body.parent"],
      [{ parent: 42 }, "body.parent"],
    ] as const;
    for (const [body, field] of attempts) {
      const response = await api("POST", `/orgs/${org}/collections`, body);
      expect(response.status).toBe(400);
      expect(response.body.error.message).toContain(field);
    }
    expect((await api("GET", `/orgs/${org}/collections`)).body.count).toBe(0);
  });

  it("lists collections in position order; nested=false lists root ones only", async () => {
    const { api, org, collection, titles } = await setup();
    const a = await collection({ title: "A" });
    await collection({ title: "A1", parent: a });
    await collection({ title: "B" });
    expect(await titles(`/orgs/${org}/collections`)).toEqual(["A", "A1", "B"]);
    expect(await titles(`/orgs/${org}/collections?nested=true`)).toEqual(["A", "A1", "B"]);
    expect(await titles(`/orgs/${org}/collections?nested=false`)).toEqual(["A", "B"]);
    expect((await api("GET", `/orgs/${org}/collections?nested=maybe`)).status).toBe(400);

    const first = await api("GET", `/orgs/${org}/collections?limit=2`);
    expect(first.body).toMatchObject({ count: 3, next: { page: expect.any(String) } });
    const second = await api("GET", `/orgs/${org}/collections?limit=2&page=${first.body.next.page}`);
    expect(second.body.items.map((item: any) => item.title)).toEqual(["B"]);
    expect(second.body.next).toBeUndefined();
  });

  it("lists the spaces directly in a collection, in position order", async () => {
    const { api, org, collection, titles } = await setup();
    const a = await collection({ title: "A" });
    const inner = await collection({ title: "Inner", parent: a });
    await api("POST", `/orgs/${org}/spaces`, { title: "S1", parent: a });
    await api("POST", `/orgs/${org}/spaces`, { title: "Deep", parent: inner });
    await api("POST", `/orgs/${org}/spaces`, { title: "Root" });
    await api("POST", `/orgs/${org}/spaces`, { title: "S2", parent: a });
    expect(await titles(`/collections/${a}/spaces`)).toEqual(["S1", "S2"]);
    expect(await titles(`/collections/${inner}/spaces`)).toEqual(["Deep"]);
    expect((await api("GET", `/collections/missing/spaces`)).status).toBe(404);
  });

  it("updates title, description and defaultLevel; bad input changes nothing", async () => {
    const { api, collection } = await setup();
    const id = await collection({ title: "Docs" });
    const patched = await api("PATCH", `/collections/${id}`, {
      title: "Guides",
      description: "All guides",
      defaultLevel: "comment",
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      title: "Guides",
      description: "All guides",
      defaultLevel: "comment",
    });
    const bad = await api("PATCH", `/collections/${id}`, { title: "ok", description: "x".repeat(101) });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("body.description");
    expect((await api("PATCH", `/collections/${id}`, { defaultLevel: "owner" })).status).toBe(400);
    expect((await api("GET", `/collections/${id}`)).body).toMatchObject({
      title: "Guides",
      defaultLevel: "comment",
    });
    const cleared = await api("PATCH", `/collections/${id}`, { description: "", defaultLevel: null });
    expect(cleared.body.description).toBeUndefined();
    expect(cleared.body.defaultLevel).toBeNull();
    expect((await api("PATCH", `/collections/${id}`, { defaultLevel: "inherit" })).body.defaultLevel).toBe(
      "inherit",
    );
  });

  it("answers 404 to non-members and guests, and hides content from lists", async () => {
    const { api, org, outsider, member, collection } = await setup();
    const id = await collection({ title: "Secret" });
    await api("POST", `/orgs/${org}/spaces`, { title: "S", parent: id });
    for (const caller of [outsider, await member(null)]) {
      expect((await caller("GET", `/collections/${id}`)).status).toBe(404);
      expect((await caller("PATCH", `/collections/${id}`, { title: "Mine" })).status).toBe(404);
      expect((await caller("DELETE", `/collections/${id}`)).status).toBe(404);
      expect((await caller("GET", `/collections/${id}/spaces`)).status).toBe(404);
      expect((await caller("POST", `/orgs/${org}/collections`, { parent: id })).status).toBe(
        outsider === caller ? 404 : 400,
      );
    }
    expect((await outsider("GET", `/orgs/${org}/collections`)).status).toBe(404);
    const asGuest = await (await member(null))("GET", `/orgs/${org}/collections`);
    expect(asGuest.body).toEqual({ count: 0, items: [] });
    expect((await api("GET", `/collections/${id}`)).body.title).toBe("Secret");
  });

  it("gives flags that match what each role can do", async () => {
    const { org, member, collection } = await setup();
    for (const role of ["read", "comment", "edit", "review", "create", "admin"] as const) {
      const id = await collection({ title: role });
      const caller = await member(role);
      const { permissions } = (await caller("GET", `/collections/${id}`)).body;
      expect(permissions.view).toBe(true);
      const patch = await caller("PATCH", `/collections/${id}`, { title: `${role}!` });
      expect(patch.status).toBe(permissions.admin ? 200 : 403);
      const create = await caller("POST", `/orgs/${org}/spaces`, { parent: id });
      expect(create.status).toBe(permissions.create ? 201 : 403);
      const nested = await caller("POST", `/orgs/${org}/collections`, { parent: id });
      expect(nested.status).toBe(permissions.create ? 201 : 403);
      expect(permissions.admin).toBe(role === "admin");
      expect(permissions.create).toBe(role === "create" || role === "admin");
    }
  });

  it("grants through defaultLevel, inherited by nested collections", async () => {
    const { api, member, collection } = await setup();
    const reader = await member("read");
    const parent = await collection({ title: "Parent" });
    const child = await collection({ title: "Child", parent });
    expect((await reader("PATCH", `/collections/${child}`, { title: "x" })).status).toBe(403);
    await api("PATCH", `/collections/${parent}`, { defaultLevel: "admin" });
    expect((await reader("GET", `/collections/${child}`)).body.permissions.admin).toBe(true);
    expect((await reader("PATCH", `/collections/${child}`, { title: "x" })).status).toBe(200);
    await api("PATCH", `/collections/${child}`, { defaultLevel: "read" });
    expect((await reader("GET", `/collections/${child}`)).body.permissions.admin).toBe(false);
  });

  it("deletes a collection: nested collections go, spaces are soft-deleted and restore at the root", async () => {
    const { api, org, member, collection, titles } = await setup();
    const top = await collection({ title: "Top" });
    const inner = await collection({ title: "Inner", parent: top });
    const space = (await api("POST", `/orgs/${org}/spaces`, { title: "S", parent: inner })).body.id;
    await api("POST", `/orgs/${org}/spaces`, { title: "Kept" });

    expect((await (await member("create"))("DELETE", `/collections/${top}`)).status).toBe(403);
    expect((await api("GET", `/collections/${inner}`)).status).toBe(200);

    expect((await api("DELETE", `/collections/${top}`)).status).toBe(205);
    expect((await api("DELETE", `/collections/${top}`)).status).toBe(204);
    expect((await api("GET", `/collections/${inner}`)).status).toBe(404);
    expect((await api("GET", `/spaces/${space}`)).status).toBe(404);
    expect(await titles(`/orgs/${org}/spaces`)).toEqual(["Kept"]);
    expect((await api("GET", `/orgs/${org}/collections`)).body.count).toBe(0);

    const restored = await api("POST", `/spaces/${space}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.parent).toBeUndefined();
    expect(restored.body.visibility).toBe("private");
    expect(await titles(`/orgs/${org}/spaces`)).toEqual(["Kept", "S"]);
  });
});
