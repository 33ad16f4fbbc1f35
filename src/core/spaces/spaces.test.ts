import { createWorkspace } from "../../../test/support/workspace.js";
import { describe, expect, it } from "vitest";
import { revisionsTable } from "../content-tree/tables.js";

const setup = createWorkspace;

describe("spaces", () => {
  it("creates a space with defaults, a first revision and a Location header", async () => {
    const { api, org, stored } = await setup();
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
      tree: { pages: "", files: "", children: "" },
    });
  });

  it("creates spaces in collections as in-collection, with the given fields", async () => {
    const { api, org, collection } = await setup();
    const parent = await collection();
    const created = await api("POST", `/orgs/${org}/spaces`, {
      title: "Guide",
      emoji: "📘",
      parent,
      language: "fr",
      editMode: "locked",
      empty: true,
    });
    expect(created.body).toMatchObject({
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
    const { api, org, space } = await setup();
    const template = await space({ title: "Template" });
    const intro = (await api("POST", `/spaces/${template}/content/pages`, { title: "Intro", markdown: "Hi" }))
      .body;
    await api("POST", `/spaces/${template}/content/pages`, { title: "Step", parent: intro.id });
    const created = await api("POST", `/orgs/${org}/spaces`, {
      title: "From template",
      template: { id: template },
    });
    expect(created.status).toBe(201);
    const pages = (await api("GET", `/spaces/${created.body.id}/content/pages`)).body.pages;
    expect(pages).toMatchObject([
      { title: "Intro", path: "intro", pages: [{ title: "Step", path: "intro/step" }] },
    ]);
    expect(pages[0].id).not.toBe(intro.id);
  });

  it("refuses bad creations with the field named and stores nothing", async () => {
    const { api, org, organization, collection, titles } = await setup();
    const foreign = await collection({}, await organization("Other"));
    const attempts: [unknown, string][] = [
      [{ template: { id: "t" } }, "body.template.id: no template space"],
      [{ title: "x".repeat(51) }, "body.title"],
      [{ emoji: "x".repeat(51) }, "body.emoji"],
      [{ language: "klingon" }, "body.language"],
      [{ editMode: "open" }, "body.editMode"],
      [{ parent: "missing" }, "body.parent"],
      [{ parent: foreign }, "body.parent"],
      ["not json", "body"],
    ];
    for (const [body, message] of attempts) {
      const response = await api("POST", `/orgs/${org}/spaces`, body);
      expect(response.status).toBe(400);
      expect(response.body.error.message).toContain(message);
    }
    expect(await titles(`/orgs/${org}/spaces`)).toEqual([]);
  });

  it("needs create at the place of a new space", async () => {
    const { api, org, member, collection } = await setup();
    const reader = await member("read");
    expect((await reader("POST", `/orgs/${org}/spaces`, { title: "Mine" })).status).toBe(403);
    const open = await collection({ title: "Open" });
    await api("PATCH", `/collections/${open}`, { defaultLevel: "create" });
    expect((await reader("POST", `/orgs/${org}/spaces`, { parent: open })).status).toBe(201);
    expect((await (await member("create"))("POST", `/orgs/${org}/spaces`)).status).toBe(201);
    expect((await (await member(null))("POST", `/orgs/${org}/spaces`)).status).toBe(403);
  });

  it("reads a space, with an optional shareKey; 404 to non-members and guests", async () => {
    const { api, org, space, member, outsider } = await setup();
    const id = await space({ title: "Docs" });
    expect((await api("GET", `/spaces/${id}?shareKey=abc`)).body.title).toBe("Docs");
    expect((await api("GET", `/spaces/missing`)).status).toBe(404);
    const guest = await member(null);
    for (const caller of [outsider, guest]) {
      expect((await caller("GET", `/spaces/${id}`)).status).toBe(404);
      expect((await caller("PATCH", `/spaces/${id}`, { title: "Mine" })).status).toBe(404);
      expect((await caller("DELETE", `/spaces/${id}`)).status).toBe(404);
      expect((await caller("POST", `/spaces/${id}/duplicate`)).status).toBe(404);
    }
    expect((await outsider("GET", `/orgs/${org}/spaces`)).status).toBe(404);
    expect((await guest("GET", `/orgs/${org}/spaces`)).body).toEqual({ count: 0, items: [] });
    expect((await api("GET", `/spaces/${id}`)).body.title).toBe("Docs");
  });

  it("updates a space and bumps updatedAt only on change", async () => {
    const { api, space, advance } = await setup();
    const id = await space({ title: "Docs", emoji: "🎉" });
    advance(1000);
    const patched = await api("PATCH", `/spaces/${id}`, {
      title: "Guides",
      language: "de",
      defaultLevel: "comment",
      mergeRules: { type: "rules", rules: [{ rule: "require_at_least_one_review" }] },
      emoji: null,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      title: "Guides",
      language: "de",
      defaultLevel: "comment",
      mergeRules: { type: "rules", rules: [{ rule: "require_at_least_one_review" }] },
      emoji: "",
      updatedAt: "2025-01-01T00:00:01.000Z",
      createdAt: "2025-01-01T00:00:00.000Z",
    });
    advance(1000);
    expect((await api("PATCH", `/spaces/${id}`, { title: "Guides" })).body.updatedAt).toBe(
      "2025-01-01T00:00:01.000Z",
    );
    const locked = await api("PATCH", `/spaces/${id}`, {
      editMode: "locked",
      mergeRules: { type: "inherit" },
    });
    expect(locked.body).toMatchObject({ editMode: "locked", mergeRules: { type: "inherit" } });
    expect(locked.body.permissions).toMatchObject({ edit: false, admin: true });
    // Admins rename a locked space; editors cannot (see the flags test below).
    expect((await api("PATCH", `/spaces/${id}`, { title: "Renamed" })).body.title).toBe("Renamed");
    const unlocked = await api("PATCH", `/spaces/${id}`, { editMode: "live", title: "Live" });
    expect(unlocked.body).toMatchObject({ editMode: "live", title: "Live", permissions: { edit: true } });
  });

  it("refuses bad updates with the field named and changes nothing", async () => {
    const { api, space } = await setup();
    const id = await space({ title: "Docs" });
    const before = (await api("GET", `/spaces/${id}`)).body;
    const attempts: [unknown, string][] = [
      [{ title: "x".repeat(51) }, "body.title"],
      [{ title: "ok", editMode: "open" }, "body.editMode"],
      [{ defaultLevel: "owner" }, "body.defaultLevel"],
      [{ language: "xx" }, "body.language"],
      [{ mergeRules: { type: "sometimes" } }, "body.mergeRules"],
      [{ icon: "https://example.com/icon.png" }, "body.icon: space icons are not supported yet"],
      [undefined, "body"],
    ];
    for (const [body, message] of attempts) {
      const response = await api("PATCH", `/spaces/${id}`, body);
      expect(response.status).toBe(400);
      expect(response.body.error.message).toContain(message);
    }
    expect((await api("GET", `/spaces/${id}`)).body).toEqual(before);
  });

  it("gives flags that match what each role can do", async () => {
    const { api, member, space } = await setup();
    for (const role of ["read", "comment", "edit", "review", "create", "admin"] as const) {
      const caller = await member(role);
      for (const editMode of ["live", "locked"] as const) {
        const id = await space({ title: role, editMode });
        const { permissions } = (await caller("GET", `/spaces/${id}`)).body;
        expect(permissions.view && permissions.access).toBe(true);
        const renames = permissions.edit || permissions.admin;
        expect((await caller("PATCH", `/spaces/${id}`, { title: "x" })).status).toBe(renames ? 200 : 403);
        expect((await caller("PATCH", `/spaces/${id}`, { emoji: "🙂" })).status).toBe(renames ? 200 : 403);
        expect((await caller("PATCH", `/spaces/${id}`, { language: "it" })).status).toBe(renames ? 200 : 403);
        expect((await caller("PATCH", `/spaces/${id}`, { defaultLevel: "inherit" })).status).toBe(
          permissions.admin ? 200 : 403,
        );
        expect((await caller("POST", `/spaces/${id}/move`, { parent: null })).status).toBe(
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
    const reader = await member("read");
    const id = await space({ title: "Open" });
    expect((await reader("PATCH", `/spaces/${id}`, { title: "x" })).status).toBe(403);
    await api("PATCH", `/spaces/${id}`, { defaultLevel: "edit" });
    expect((await reader("GET", `/spaces/${id}`)).body.permissions.edit).toBe(true);
    expect((await reader("PATCH", `/spaces/${id}`, { title: "x" })).status).toBe(200);
  });

  it("lists the spaces of an organization in position order, page by page", async () => {
    const { api, org, collection, space, titles } = await setup();
    const box = await collection();
    await space({ title: "A" });
    await space({ title: "B", parent: box });
    const c = await space({ title: "C" });
    await space({ title: "D" });
    await api("DELETE", `/spaces/${c}`);
    expect(await titles(`/orgs/${org}/spaces`)).toEqual(["A", "B", "D"]);
    const first = await api("GET", `/orgs/${org}/spaces?limit=2`);
    expect(first.body).toMatchObject({ count: 3, next: { page: expect.any(String) } });
    const second = await api("GET", `/orgs/${org}/spaces?limit=2&page=${first.body.next.page}`);
    expect(second.body.items.map((item: any) => item.title)).toEqual(["D"]);
    expect((await api("GET", `/orgs/${org}/spaces?limit=1001`)).status).toBe(400);
  });
});
