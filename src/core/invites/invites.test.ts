import { describe, expect, it } from "vitest";
import { createTestDocsbase } from "../../testing/double.js";

async function setup() {
  const test = await createTestDocsbase();
  const admin = await test.createUser("Admin", "admin@acme.test");
  const org: string = (await test.request("POST", "/orgs", { token: admin.token, body: { title: "Acme" } }))
    .body.id;
  const member = (user: string) =>
    test.request("GET", `/orgs/${org}/members/${user}`, { token: admin.token });
  const invite = (body: unknown, token = admin.token) =>
    test.request("POST", `/orgs/${org}/invites`, { token, body });
  return { test, admin, org, member, invite };
}

describe("invites by email", () => {
  it("adds existing users with the per-email role, else body.role, else the default role", async () => {
    const { test, org, admin, member, invite } = await setup();
    const a = await test.createUser("A", "a@acme.test");
    const b = await test.createUser("B", "b@acme.test");
    const c = await test.createUser("C", "c@acme.test");
    expect((await invite({ emails: [" A@ACME.test"] })).body).toEqual({ users: [a.id], invited: 1 });
    expect((await member(a.id)).body.role).toBe("read"); // the organization defaultRole
    const second = await invite({
      emails: ["a@acme.test", { email: "b@acme.test", role: null }, "c@acme.test"],
      role: "edit",
      sso: true,
    });
    expect(second.body).toEqual({ users: [a.id, b.id, c.id], invited: 2 });
    expect((await member(a.id)).body).toMatchObject({ role: "read", sso: false }); // members keep their role
    expect((await member(b.id)).body).toMatchObject({ role: null, sso: true });
    expect((await member(c.id)).body).toMatchObject({ role: "edit", sso: true });
    await test.request("PATCH", `/orgs/${org}`, { token: admin.token, body: { defaultRole: "comment" } });
    const d = await test.createUser("D", "d@acme.test");
    await invite({ emails: ["d@acme.test"] });
    expect((await member(d.id)).body.role).toBe("comment");
  });

  it("refuses an unknown email with 400 naming it, adding nobody", async () => {
    const { test, member, invite } = await setup();
    const a = await test.createUser("A", "a@acme.test");
    const response = await invite({ emails: ["a@acme.test", "ghost@acme.test"] });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(/^body\.emails\.1: .*ghost@acme\.test/);
    expect((await member(a.id)).status).toBe(404);
    for (const body of [
      {},
      { emails: [] },
      { emails: [{ email: "a@acme.test" }] },
      { emails: ["a"], role: "boss" },
    ]) {
      expect((await invite(body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await member(a.id)).status).toBe(404);
  });

  it("is for admins only; non-members get 404", async () => {
    const { test, invite } = await setup();
    await test.createUser("Editor", "editor@acme.test");
    const outsider = await test.createUser("Outsider", "outsider@acme.test");
    expect((await invite({ emails: ["outsider@acme.test"] }, outsider.token)).status).toBe(404);
    const editor = await test.createUser("Editor 2", "editor2@acme.test");
    await invite({ emails: [{ email: "editor2@acme.test", role: "edit" }] });
    expect((await invite({ emails: ["outsider@acme.test"] }, editor.token)).status).toBe(403);
  });
});

describe("invite links", () => {
  it("are managed by admins only", async () => {
    const { test, org, invite } = await setup();
    const editor = await test.createUser("Editor", "editor@acme.test");
    await invite({ emails: [{ email: "editor@acme.test", role: "edit" }] });
    const links = `/orgs/${org}/link-invites`;
    expect((await test.request("POST", links, { token: editor.token, body: { role: "read" } })).status).toBe(
      403,
    );
    expect((await test.request("GET", links, { token: editor.token })).status).toBe(403);
    const stranger = await test.createUser("Stranger");
    expect((await test.request("GET", links, { token: stranger.token })).status).toBe(404);
  });

  it("refuse content variants and malformed bodies with 400", async () => {
    const { test, admin, org } = await setup();
    const links = `/orgs/${org}/link-invites`;
    const create = (body: unknown) => test.request("POST", links, { token: admin.token, body });
    expect((await create({ level: "read", space: "s" })).body.error.message).toBe(
      "body: space and collection invite links are not supported yet",
    );
    expect((await create({ level: "read", collection: "c" })).status).toBe(400);
    expect((await create({})).body.error.message).toMatch(/^body\.role/);
    expect((await create({ role: "boss" })).body.error.message).toMatch(/^body\.role/);
    const link = await create({ role: null });
    expect(link.status).toBe(201);
    expect(link.headers.get("location")).toBe(`http://docsbase.test/v1${links}/${link.body.id}`);
    const patch = (body: unknown) =>
      test.request("PATCH", `${links}/${link.body.id}`, { token: admin.token, body });
    expect((await patch({ level: "read" })).body.error.message).toMatch(/^body\.level/);
    expect((await patch({})).body.error.message).toMatch(/^body\.role/);
    expect((await test.request("GET", links, { token: admin.token })).body.items).toEqual([
      { object: "invite", id: link.body.id, role: null, redundant: true },
    ]);
  });

  it("let a user join with the invite's role; members keep theirs; unknown invites are 404", async () => {
    const { test, admin, org, member } = await setup();
    const links = `/orgs/${org}/link-invites`;
    const link = (await test.request("POST", links, { token: admin.token, body: { role: "review" } })).body;
    const joiner = await test.createUser("Joiner");
    const join = (token: string, id = link.id) =>
      test.request("POST", `/orgs/${org}/invites/${id}`, { token });
    expect((await join(joiner.token, "unknown")).status).toBe(404);
    expect(
      (await test.request("POST", `/orgs/unknown/invites/${link.id}`, { token: joiner.token })).status,
    ).toBe(404);
    expect((await test.request("GET", `${links}/${link.id}`, { token: joiner.token })).body.redundant).toBe(
      false,
    );
    expect(await join(joiner.token)).toMatchObject({ status: 200, body: {} });
    expect((await member(joiner.id)).body.role).toBe("review");
    expect((await join(admin.token)).status).toBe(200);
    expect((await member(admin.id)).body.role).toBe("admin");
    // Invite ids of one organization mean nothing in another.
    const other = (await test.request("POST", "/orgs", { token: admin.token, body: { title: "Other" } })).body
      .id;
    expect(
      (await test.request("POST", `/orgs/${other}/invites/${link.id}`, { token: joiner.token })).status,
    ).toBe(404);
  });

  it("cannot be created or used while the organization disables invite links", async () => {
    const { test, admin, org, member } = await setup();
    const links = `/orgs/${org}/link-invites`;
    const link = (await test.request("POST", links, { token: admin.token, body: { role: "read" } })).body;
    await test.request("PATCH", `/orgs/${org}`, { token: admin.token, body: { inviteLinks: false } });
    const created = await test.request("POST", links, { token: admin.token, body: { role: "read" } });
    expect(created.status).toBe(403);
    expect(created.body.error.message).toMatch(/invite links are disabled/i);
    const joiner = await test.createUser("Joiner");
    const joined = await test.request("POST", `/orgs/${org}/invites/${link.id}`, { token: joiner.token });
    expect(joined.status).toBe(403);
    expect(joined.body.error.message).toMatch(/invite links are disabled/i);
    expect((await member(joiner.id)).status).toBe(404);
    // Admins still see and clean up existing links.
    expect((await test.request("GET", links, { token: admin.token })).body.count).toBe(1);
    expect((await test.request("DELETE", `${links}/${link.id}`, { token: admin.token })).status).toBe(205);
  });
});
