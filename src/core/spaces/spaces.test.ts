import { createTypedWorkspace, type SpaceBody } from "../../../test/support/workspace.js";
import { answerOf } from "../../../test/support/limits.js";
import { describe, expect, it } from "vitest";
import type { ClientInput } from "../client.js";
import type { Operations } from "../operations.js";
import { revisionsTable } from "../content-tree/tables.js";

const setup = createTypedWorkspace;

describe("spaces", () => {
  it("creates a space with defaults, a first revision and a Location header", async () => {
    const { api, org, stored } = await setup();
    // Over HTTP for the 201 and its Location header.
    const created = await api("POST", `/orgs/${org}/spaces`);
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(created.headers.get("location")).toBe(`http://docsbase.test/v1/spaces/${id}`);
    expect(created.body).toEqual({
      object: "space",
      id,
      title: "Untitled",
      emoji: "",
      visibility: "private",
      createdAt: "2025-01-01T00:00:00.000Z",
      updatedAt: "2025-01-01T00:00:00.000Z",
      editMode: "live",
      mergeRules: { type: "inherit" },
      urls: { location: `http://docsbase.test/v1/spaces/${id}`, app: `http://docsbase.test/s/${id}` },
      organization: org,
      revision: expect.any(String),
      defaultLevel: "inherit",
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
      permissions: {
        view: true,
        access: true,
        admin: true,
        viewInviteLinks: true,
        edit: true,
        triggerGitSync: true,
        comment: true,
        merge: true,
        review: true,
        installIntegration: true,
      },
    });
    expect(await stored(revisionsTable, created.body.revision)).toEqual({
      id: created.body.revision,
      space: id,
      seq: expect.any(Number),
      parents: [],
      createdAt: "2025-01-01T00:00:00.000Z",
      type: "edits",
      // The first revision's trees are empty: no pages, no files.
      tree: { pages: "", files: "", children: "", slugs: "" },
    });
  });

  it("creates spaces in collections as in-collection, with the given fields", async () => {
    const { client, org, collection } = await setup();
    const parent = await collection();
    const created = await client.createSpace({
      organizationId: org,
      body: {
        title: "Guide",
        emoji: "📘",
        parent,
        language: "fr",
        editMode: "locked",
        empty: true,
      },
    });
    expect(created).toMatchObject({
      title: "Guide",
      emoji: "📘",
      parent,
      language: "fr",
      editMode: "locked",
      visibility: "in-collection",
      permissions: { edit: false, admin: true },
    });
  });

  it("starts a space from a template: its pages and files, with new page ids", async () => {
    const { client, org, space } = await setup();
    const template = await space({ title: "Template" });
    const intro = await client.createPage({ spaceId: template, body: { title: "Intro", markdown: "Hi" } });
    await client.createPage({ spaceId: template, body: { title: "Step", parent: intro.id } });
    const created = await client.createSpace({
      organizationId: org,
      body: { title: "From template", template: { id: template } },
    });
    const { pages } = await client.listPages({ spaceId: created.id });
    expect(pages).toMatchObject([
      { title: "Intro", path: "intro", pages: [{ title: "Step", path: "intro/step" }] },
    ]);
    expect(pages[0]!.id).not.toBe(intro.id);
  });

  it("refuses bad creations with the field named and stores nothing", async () => {
    const { api, client, org, organization, collection, titles } = await setup();
    const foreign = await collection({}, await organization("Other"));
    const create = (body: SpaceBody) => () => answerOf(client.createSpace({ organizationId: org, body }));
    // Bodies no client type allows, as JSON sent over HTTP.
    const raw = (body: unknown) => () => api("POST", `/orgs/${org}/spaces`, body);
    const attempts: [() => Promise<{ status: number; body: any }>, string][] = [
      [create({ template: { id: "t" } }), "body.template.id: no template space"],
      [create({ title: "x".repeat(51) }), "body.title"],
      [create({ emoji: "x".repeat(51) }), "body.emoji"],
      [raw({ language: "klingon" }), "body.language"],
      [raw({ editMode: "open" }), "body.editMode"],
      [create({ parent: "missing" }), "body.parent"],
      [create({ parent: foreign }), "body.parent"],
      [raw("not json"), "body"],
    ];
    for (const [send, message] of attempts) {
      const response = await send();
      expect(response.status).toBe(400);
      expect(response.body.error.message).toContain(message);
    }
    expect(await titles(client.listSpacesInOrganizationById({ organizationId: org }))).toEqual([]);
  });

  it("needs create at the place of a new space", async () => {
    const { client, org, member, collection } = await setup();
    const reader = (await member("read")).client;
    const organizationId = org;
    await expect(reader.createSpace({ organizationId, body: { title: "Mine" } })).rejects.toMatchObject({
      code: "forbidden",
    });
    const open = await collection({ title: "Open" });
    await client.updateCollectionById({ collectionId: open, body: { defaultLevel: "create" } });
    await reader.createSpace({ organizationId, body: { parent: open } });
    await (await member("create")).client.createSpace({ organizationId });
    await expect((await member(null)).client.createSpace({ organizationId })).rejects.toMatchObject({
      code: "forbidden",
    });
  });

  it("reads a space, with an optional shareKey; 404 to non-members and guests", async () => {
    const { client, org, space, member, outsider } = await setup();
    const id = await space({ title: "Docs" });
    expect((await client.getSpaceById({ spaceId: id, shareKey: "abc" })).title).toBe("Docs");
    await expect(client.getSpaceById({ spaceId: "missing" })).rejects.toMatchObject({ code: "not_found" });
    const guest = await member(null);
    for (const caller of [outsider.client, guest.client]) {
      const spaceId = id;
      for (const call of [
        () => caller.getSpaceById({ spaceId }),
        () => caller.updateSpaceById({ spaceId, body: { title: "Mine" } }),
        () => caller.deleteSpaceById({ spaceId }),
        () => caller.duplicateSpace({ spaceId }),
      ]) {
        await expect(call()).rejects.toMatchObject({ code: "not_found" });
      }
    }
    await expect(outsider.client.listSpacesInOrganizationById({ organizationId: org })).rejects.toMatchObject(
      { code: "not_found" },
    );
    expect(await guest.client.listSpacesInOrganizationById({ organizationId: org })).toEqual({
      count: 0,
      items: [],
    });
    expect((await client.getSpaceById({ spaceId: id })).title).toBe("Docs");
  });

  it("updates a space and bumps updatedAt only on change", async () => {
    const { client, space, advance } = await setup();
    const id = await space({ title: "Docs", emoji: "🎉" });
    const patch = (body: ClientInput<Operations["updateSpaceById"]>["body"]) =>
      client.updateSpaceById({ spaceId: id, body });
    advance(1000);
    const patched = await patch({
      title: "Guides",
      language: "de",
      defaultLevel: "comment",
      mergeRules: { type: "rules", rules: [{ rule: "require_at_least_one_review" }] },
      emoji: null,
    });
    expect(patched).toMatchObject({
      title: "Guides",
      language: "de",
      defaultLevel: "comment",
      mergeRules: { type: "rules", rules: [{ rule: "require_at_least_one_review" }] },
      emoji: "",
      updatedAt: "2025-01-01T00:00:01.000Z",
      createdAt: "2025-01-01T00:00:00.000Z",
    });
    advance(1000);
    expect((await patch({ title: "Guides" })).updatedAt).toBe("2025-01-01T00:00:01.000Z");
    const locked = await patch({
      editMode: "locked",
      mergeRules: { type: "inherit" },
    });
    expect(locked).toMatchObject({ editMode: "locked", mergeRules: { type: "inherit" } });
    expect(locked.permissions).toMatchObject({ edit: false, admin: true });
    // Admins rename a locked space; editors cannot (see the flags test below).
    expect((await patch({ title: "Renamed" })).title).toBe("Renamed");
    const unlocked = await patch({ editMode: "live", title: "Live" });
    expect(unlocked).toMatchObject({ editMode: "live", title: "Live", permissions: { edit: true } });
  });

  it("refuses bad updates with the field named and changes nothing", async () => {
    const { api, client, space } = await setup();
    const id = await space({ title: "Docs" });
    const before = await client.getSpaceById({ spaceId: id });
    // Bodies no client type allows, as JSON sent over HTTP.
    const raw = (body: unknown) => () => api("PATCH", `/spaces/${id}`, body);
    const attempts: [() => Promise<{ status: number; body: any }>, string][] = [
      [
        () => answerOf(client.updateSpaceById({ spaceId: id, body: { title: "x".repeat(51) } })),
        "body.title",
      ],
      [raw({ title: "ok", editMode: "open" }), "body.editMode"],
      [raw({ defaultLevel: "owner" }), "body.defaultLevel"],
      [raw({ language: "xx" }), "body.language"],
      [raw({ mergeRules: { type: "sometimes" } }), "body.mergeRules"],
      [raw({ icon: "https://example.com/icon.png" }), "body.icon: space icons are not supported yet"],
      [raw(undefined), "body"],
    ];
    for (const [send, message] of attempts) {
      const response = await send();
      expect(response.status).toBe(400);
      expect(response.body.error.message).toContain(message);
    }
    expect(await client.getSpaceById({ spaceId: id })).toEqual(before);
  });

  it("gives flags that match what each role can do", async () => {
    const { client, member, space } = await setup();
    for (const role of ["read", "comment", "edit", "review", "create", "admin"] as const) {
      const caller = (await member(role)).client;
      for (const editMode of ["live", "locked"] as const) {
        const spaceId = await space({ title: role, editMode });
        const { permissions } = await caller.getSpaceById({ spaceId });
        expect(permissions.view && permissions.access).toBe(true);
        const renames = permissions.edit || permissions.admin;
        const patch = async (body: ClientInput<Operations["updateSpaceById"]>["body"]) =>
          (await answerOf(caller.updateSpaceById({ spaceId, body }))).status;
        expect(await patch({ title: "x" })).toBe(renames ? 200 : 403);
        expect(await patch({ emoji: "🙂" })).toBe(renames ? 200 : 403);
        expect(await patch({ language: "it" })).toBe(renames ? 200 : 403);
        expect(await patch({ defaultLevel: "inherit" })).toBe(permissions.admin ? 200 : 403);
        expect((await answerOf(caller.moveSpace({ spaceId, body: { parent: null } }))).status).toBe(
          permissions.admin ? 409 : 403,
        );
        expect(permissions.edit).toBe(editMode === "live" && role !== "read" && role !== "comment");
        expect(permissions.admin).toBe(role === "admin");
        expect(permissions.comment).toBe(role !== "read");
        expect(permissions.review).toBe(["review", "create", "admin"].includes(role));
        expect(permissions.merge).toBe(permissions.triggerGitSync);
        expect(permissions.viewInviteLinks && permissions.installIntegration).toBe(permissions.admin);
      }
    }
    // A member without a role of their own gets one from defaultLevel.
    const reader = (await member("read")).client;
    const spaceId = await space({ title: "Open" });
    await expect(reader.updateSpaceById({ spaceId, body: { title: "x" } })).rejects.toMatchObject({
      code: "forbidden",
    });
    await client.updateSpaceById({ spaceId, body: { defaultLevel: "edit" } });
    expect((await reader.getSpaceById({ spaceId })).permissions.edit).toBe(true);
    await reader.updateSpaceById({ spaceId, body: { title: "x" } });
  });

  it("lists the spaces of an organization in position order, page by page", async () => {
    const { client, org, collection, space, titles } = await setup();
    const box = await collection();
    await space({ title: "A" });
    await space({ title: "B", parent: box });
    const c = await space({ title: "C" });
    await space({ title: "D" });
    await client.deleteSpaceById({ spaceId: c });
    const list = (query: { limit?: number; page?: string } = {}) =>
      client.listSpacesInOrganizationById({ organizationId: org, ...query });
    expect(await titles(list())).toEqual(["A", "B", "D"]);
    const first = await list({ limit: 2 });
    expect(first).toMatchObject({ count: 3, next: { page: expect.any(String) } });
    const second = await list({ limit: 2, page: first.next!.page });
    expect(second.items.map((item) => item.title)).toEqual(["D"]);
    await expect(list({ limit: 1001 })).rejects.toMatchObject({ code: "bad_request" });
  });
});
