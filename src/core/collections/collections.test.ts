import { type CollectionBody, createTypedWorkspace } from "../../../test/support/workspace.js";
import { answerOf } from "../../../test/support/limits.js";
import { describe, expect, it } from "vitest";
import type { ClientInput } from "../client.js";
import type { Operations } from "../operations.js";

const setup = createTypedWorkspace;

describe("collections", () => {
  it("creates a collection with defaults, a Location header and full permissions for an admin", async () => {
    const { api, client, org } = await setup();
    // Over HTTP for the 201 and its Location header.
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
    const nested = await client.createCollection({
      organizationId: org,
      body: { title: "Child", parent: created.body.id },
    });
    expect(nested).toMatchObject({ title: "Child", parent: created.body.id });
  });

  it("refuses bad bodies with the field named and stores nothing", async () => {
    const { api, client, org, organization, collection } = await setup();
    const other = await collection({}, await organization("Other"));
    const create = (body: CollectionBody) => () =>
      answerOf(client.createCollection({ organizationId: org, body }));
    const attempts = [
      [create({ title: "x".repeat(51) }), "body.title"],
      [create({ parent: "missing" }), "body.parent"],
      [create({ parent: other }), "body.parent"],
      // A body no client type allows, as JSON sent over HTTP.
      [() => api("POST", `/orgs/${org}/collections`, { parent: 42 }), "body.parent"],
    ] as const;
    for (const [send, field] of attempts) {
      const response = await send();
      expect(response.status).toBe(400);
      expect(response.body.error.message).toContain(field);
    }
    expect((await client.listCollectionsInOrganizationById({ organizationId: org })).count).toBe(0);
  });

  it("lists collections in position order; nested=false lists root ones only", async () => {
    const { api, client, org, collection, titles } = await setup();
    const a = await collection({ title: "A" });
    await collection({ title: "A1", parent: a });
    await collection({ title: "B" });
    const list = (query: { nested?: boolean; limit?: number; page?: string } = {}) =>
      client.listCollectionsInOrganizationById({ organizationId: org, ...query });
    expect(await titles(list())).toEqual(["A", "A1", "B"]);
    expect(await titles(list({ nested: true }))).toEqual(["A", "A1", "B"]);
    expect(await titles(list({ nested: false }))).toEqual(["A", "B"]);
    // A query string no client type allows, as HTTP sends it.
    expect((await api("GET", `/orgs/${org}/collections?nested=maybe`)).status).toBe(400);

    const first = await list({ limit: 2 });
    expect(first).toMatchObject({ count: 3, next: { page: expect.any(String) } });
    const second = await list({ limit: 2, page: first.next!.page });
    expect(second.items.map((item) => item.title)).toEqual(["B"]);
    expect(second.next).toBeUndefined();
  });

  it("lists the spaces directly in a collection, in position order", async () => {
    const { client, collection, space, titles } = await setup();
    const a = await collection({ title: "A" });
    const inner = await collection({ title: "Inner", parent: a });
    await space({ title: "S1", parent: a });
    await space({ title: "Deep", parent: inner });
    await space({ title: "Root" });
    await space({ title: "S2", parent: a });
    expect(await titles(client.listSpacesInCollectionById({ collectionId: a }))).toEqual(["S1", "S2"]);
    expect(await titles(client.listSpacesInCollectionById({ collectionId: inner }))).toEqual(["Deep"]);
    await expect(client.listSpacesInCollectionById({ collectionId: "missing" })).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("updates title, description and defaultLevel; bad input changes nothing", async () => {
    const { api, client, collection } = await setup();
    const id = await collection({ title: "Docs" });
    const patch = (body: ClientInput<Operations["updateCollectionById"]>["body"]) =>
      client.updateCollectionById({ collectionId: id, body });
    const patched = await patch({
      title: "Guides",
      description: "All guides",
      defaultLevel: "comment",
    });
    expect(patched).toMatchObject({
      title: "Guides",
      description: "All guides",
      defaultLevel: "comment",
    });
    await expect(patch({ title: "ok", description: "x".repeat(101) })).rejects.toMatchObject({
      code: "bad_request",
      message: expect.stringContaining("body.description"),
    });
    // A body no client type allows, as JSON sent over HTTP.
    expect((await api("PATCH", `/collections/${id}`, { defaultLevel: "owner" })).status).toBe(400);
    expect(await client.getCollectionById({ collectionId: id })).toMatchObject({
      title: "Guides",
      defaultLevel: "comment",
    });
    const cleared = await patch({ description: "", defaultLevel: null });
    expect(cleared.description).toBeUndefined();
    expect(cleared.defaultLevel).toBeNull();
    expect((await patch({ defaultLevel: "inherit" })).defaultLevel).toBe("inherit");
  });

  it("answers 404 to non-members and guests, and hides content from lists", async () => {
    const { client, org, outsider, member, collection, space } = await setup();
    const id = await collection({ title: "Secret" });
    await space({ title: "S", parent: id });
    for (const caller of [outsider, await member(null)]) {
      const collectionId = id;
      for (const call of [
        () => caller.client.getCollectionById({ collectionId }),
        () => caller.client.updateCollectionById({ collectionId, body: { title: "Mine" } }),
        () => caller.client.deleteCollectionById({ collectionId }),
        () => caller.client.listSpacesInCollectionById({ collectionId }),
      ]) {
        await expect(call()).rejects.toMatchObject({ code: "not_found" });
      }
      await expect(
        caller.client.createCollection({ organizationId: org, body: { parent: id } }),
      ).rejects.toMatchObject({ code: outsider === caller ? "not_found" : "bad_request" });
    }
    await expect(
      outsider.client.listCollectionsInOrganizationById({ organizationId: org }),
    ).rejects.toMatchObject({ code: "not_found" });
    const asGuest = await (
      await member(null)
    ).client.listCollectionsInOrganizationById({ organizationId: org });
    expect(asGuest).toEqual({ count: 0, items: [] });
    expect((await client.getCollectionById({ collectionId: id })).title).toBe("Secret");
  });

  it("gives flags that match what each role can do", async () => {
    const { org, member, collection } = await setup();
    for (const role of ["read", "comment", "edit", "review", "create", "admin"] as const) {
      const id = await collection({ title: role });
      const { client } = await member(role);
      const { permissions } = await client.getCollectionById({ collectionId: id });
      expect(permissions.view).toBe(true);
      const patch = await answerOf(
        client.updateCollectionById({ collectionId: id, body: { title: `${role}!` } }),
      );
      expect(patch.status).toBe(permissions.admin ? 200 : 403);
      const create = await answerOf(client.createSpace({ organizationId: org, body: { parent: id } }));
      expect(create.status).toBe(permissions.create ? 200 : 403);
      const nested = await answerOf(client.createCollection({ organizationId: org, body: { parent: id } }));
      expect(nested.status).toBe(permissions.create ? 200 : 403);
      expect(permissions.admin).toBe(role === "admin");
      expect(permissions.create).toBe(role === "create" || role === "admin");
    }
  });

  it("grants through defaultLevel, inherited by nested collections", async () => {
    const { client, member, collection } = await setup();
    const reader = (await member("read")).client;
    const parent = await collection({ title: "Parent" });
    const child = await collection({ title: "Child", parent });
    const rename = () => reader.updateCollectionById({ collectionId: child, body: { title: "x" } });
    await expect(rename()).rejects.toMatchObject({ code: "forbidden" });
    await client.updateCollectionById({ collectionId: parent, body: { defaultLevel: "admin" } });
    expect((await reader.getCollectionById({ collectionId: child })).permissions.admin).toBe(true);
    await rename();
    await client.updateCollectionById({ collectionId: child, body: { defaultLevel: "read" } });
    expect((await reader.getCollectionById({ collectionId: child })).permissions.admin).toBe(false);
  });

  it("deletes a collection: nested collections go, spaces are soft-deleted and restore at the root", async () => {
    const { api, client, org, member, collection, space, titles } = await setup();
    const top = await collection({ title: "Top" });
    const inner = await collection({ title: "Inner", parent: top });
    const spaceId = await space({ title: "S", parent: inner });
    await space({ title: "Kept" });
    const spaces = () => titles(client.listSpacesInOrganizationById({ organizationId: org }));

    await expect(
      (await member("create")).client.deleteCollectionById({ collectionId: top }),
    ).rejects.toMatchObject({ code: "forbidden" });
    await client.getCollectionById({ collectionId: inner });

    // Over HTTP for the statuses: 205 when a collection went, 204 when there was none.
    expect((await api("DELETE", `/collections/${top}`)).status).toBe(205);
    expect((await api("DELETE", `/collections/${top}`)).status).toBe(204);
    await expect(client.getCollectionById({ collectionId: inner })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(client.getSpaceById({ spaceId })).rejects.toMatchObject({ code: "not_found" });
    expect(await spaces()).toEqual(["Kept"]);
    expect((await client.listCollectionsInOrganizationById({ organizationId: org })).count).toBe(0);

    const restored = await client.restoreSpace({ spaceId });
    expect(restored.parent).toBeUndefined();
    expect(restored.visibility).toBe("private");
    expect(await spaces()).toEqual(["Kept", "S"]);
  });
});
