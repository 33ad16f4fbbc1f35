import { describe, expect, it } from "vitest";
import { createTestDocsbase } from "../../testing/double.js";

async function setup() {
  let now = Date.parse("2025-01-01T00:00:00Z");
  const test = await createTestDocsbase({ clock: () => new Date(now) });
  const admin = await test.createUser("Admin", "admin@acme.test");
  const org: string = (await test.request("POST", "/orgs", { token: admin.token, body: { title: "Acme" } }))
    .body.id;
  const member = (user: string) =>
    test.request("GET", `/orgs/${org}/members/${user}`, { token: admin.token });
  const invite = (body: unknown, token = admin.token, organization = org) =>
    test.request("POST", `/orgs/${organization}/invites`, { token, body });
  /** The caller's pending invitations. */
  const mine = async (token: string) => {
    const response = await test.request("GET", "/user/invites", { token });
    expect(response.status).toBe(200);
    return response.body.items as { id: string; organization: { id: string }; role: string | null }[];
  };
  const accept = (token: string, id: string) => test.request("POST", `/user/invites/${id}/accept`, { token });
  const decline = (token: string, id: string) =>
    test.request("POST", `/user/invites/${id}/decline`, { token });
  const pending = (token = admin.token) => test.request("GET", `/orgs/${org}/email-invites`, { token });
  const revoke = (id: string, token = admin.token) =>
    test.request("DELETE", `/orgs/${org}/email-invites/${id}`, { token });
  /** A user who has accepted an invitation with `role`. */
  const addMember = async (name: string, email: string, role: string | null) => {
    const user = await test.createUser(name, email);
    await invite({ emails: [{ email, role }] });
    const [invitation] = await mine(user.token);
    expect((await accept(user.token, invitation!.id)).status).toBe(200);
    return user;
  };
  const organizations = async (token: string) =>
    ((await test.request("GET", "/orgs", { token })).body.items as { id: string }[]).map((item) => item.id);
  const advance = (days: number) => (now += days * 86_400_000);
  return {
    test,
    admin,
    org,
    member,
    invite,
    mine,
    accept,
    decline,
    pending,
    revoke,
    addMember,
    organizations,
    advance,
  };
}

describe("invites by email", () => {
  it("grants nothing until the invitee accepts, then the per-email role, else body.role, else the default", async () => {
    const { test, org, admin, member, invite, mine, accept, organizations } = await setup();
    const a = await test.createUser("A", "a@acme.test");
    const b = await test.createUser("B", "b@acme.test");
    const c = await test.createUser("C", "c@acme.test");
    expect((await invite({ emails: [" A@ACME.test", "a@acme.test"] })).body).toEqual({
      users: [],
      invited: 1,
    });
    expect((await member(a.id)).status).toBe(404);
    expect(await organizations(a.token)).toEqual([]);
    const [first] = await mine(a.token);
    expect(first).toMatchObject({
      object: "organization-email-invite",
      organization: { id: org, title: "Acme" },
      email: "a@acme.test",
      role: "read", // the organization's defaultRole
      sso: false,
      state: "pending",
      invitedBy: admin.id,
      createdAt: "2025-01-01T00:00:00.000Z",
      expiresAt: "2025-01-31T00:00:00.000Z",
    });
    const accepted = await accept(a.token, first!.id);
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ id: first!.id, state: "accepted" });
    expect(await organizations(a.token)).toEqual([org]);
    expect((await member(a.id)).body.role).toBe("read");

    const second = await invite({
      emails: ["a@acme.test", { email: "b@acme.test", role: null }, "c@acme.test"],
      role: "edit",
      sso: true,
    });
    expect(second.body).toEqual({ users: [], invited: 3 });
    for (const user of [a, b, c]) {
      const [invitation] = await mine(user.token);
      expect((await accept(user.token, invitation!.id)).status).toBe(200);
    }
    expect((await member(a.id)).body).toMatchObject({ role: "read", sso: false }); // members keep their role
    expect((await member(b.id)).body).toMatchObject({ role: null, sso: true });
    expect((await member(c.id)).body).toMatchObject({ role: "edit", sso: true });
  });

  it("answers byte for byte the same whether or not an email has an account", async () => {
    const { test, admin, org } = await setup();
    await test.createUser("Known", "known@acme.test");
    const other: string = (
      await test.request("POST", "/orgs", { token: admin.token, body: { title: "Other" } })
    ).body.id;
    const raw = async (organization: string, email: string) => {
      const response = await test.fetch(`${test.endpoint}/v1/orgs/${organization}/invites`, {
        method: "POST",
        headers: { authorization: `Bearer ${admin.token}`, "content-type": "application/json" },
        body: JSON.stringify({ emails: [email], role: "admin" }),
      });
      const headers = [...response.headers].filter(
        ([name]) => !/^(x-ratelimit-|retry-after|date)/.test(name),
      );
      return { status: response.status, headers, body: await response.text() };
    };
    const known = await raw(org, "known@acme.test");
    const unknown = await raw(other, "ghost@acme.test");
    expect(known.status).toBe(200);
    expect(unknown).toEqual(known);
    // Both were recorded as invitations, and the ghost's awaits an account with that email.
    const ghost = await test.createUser("Ghost", "GHOST@acme.test");
    const [invitation] = (await test.request("GET", "/user/invites", { token: ghost.token })).body.items;
    expect(invitation).toMatchObject({ organization: { id: other }, role: "admin" });
    expect(
      (await test.request("POST", `/user/invites/${invitation.id}/accept`, { token: ghost.token })).status,
    ).toBe(200);
    expect(
      (await test.request("GET", `/orgs/${other}/members/${ghost.id}`, { token: admin.token })).body.role,
    ).toBe("admin");
  });

  it("lets only the invitee list, accept and decline, and only admins list and revoke", async () => {
    const { test, org, admin, invite, mine, accept, decline, pending, revoke, addMember } = await setup();
    const editor = await addMember("Editor", "editor@acme.test", "edit");
    const outsider = await test.createUser("Outsider", "outsider@acme.test");
    const invitee = await test.createUser("Invitee", "invitee@acme.test");
    await invite({ emails: ["invitee@acme.test", "zed@acme.test"] });
    const [invitation] = await mine(invitee.token);
    expect(await mine(outsider.token)).toEqual([]);
    expect(await mine(admin.token)).toEqual([]);
    // Nobody but the invitee can see, accept or decline it: 404 as for an unknown id.
    for (const token of [admin.token, editor.token, outsider.token]) {
      expect((await accept(token, invitation!.id)).status).toBe(404);
      expect((await decline(token, invitation!.id)).status).toBe(404);
    }
    expect((await accept(invitee.token, "unknown")).status).toBe(404);
    expect((await accept(invitee.token, invitation!.id)).status).toBe(200);
    // Admins list the pending ones (by email) and revoke; members 403, non-members 404.
    const listed = await pending();
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((item: { email: string }) => item.email)).toEqual(["zed@acme.test"]);
    expect((await pending(editor.token)).status).toBe(403);
    expect((await pending(outsider.token)).status).toBe(404);
    expect((await pending(invitee.token)).status).toBe(403);
    const zed = listed.body.items[0].id as string;
    expect((await revoke(zed, editor.token)).status).toBe(403);
    expect((await revoke(zed, outsider.token)).status).toBe(404);
    expect((await revoke(zed)).status).toBe(205);
    expect((await revoke(zed)).status).toBe(204);
    // An accepted invitation is no longer pending: revoking it does nothing.
    expect((await revoke(invitation!.id)).status).toBe(204);
    expect(
      (await test.request("GET", `/orgs/${org}/members/${invitee.id}`, { token: admin.token })).status,
    ).toBe(200);
    expect((await pending()).body.count).toBe(0);
  });

  it("accepts idempotently: accepting again changes nothing, even after the member left", async () => {
    const { test, org, admin, member, invite, mine, accept, decline } = await setup();
    const user = await test.createUser("User", "user@acme.test");
    await invite({ emails: [{ email: "user@acme.test", role: "edit" }] });
    const [invitation] = await mine(user.token);
    const first = await accept(user.token, invitation!.id);
    await test.request("PATCH", `/orgs/${org}/members/${user.id}`, {
      token: admin.token,
      body: { role: "read" },
    });
    const again = await accept(user.token, invitation!.id);
    expect(again).toMatchObject({ status: 200, body: first.body });
    expect((await member(user.id)).body.role).toBe("read");
    expect(await mine(user.token)).toEqual([]);
    expect((await decline(user.token, invitation!.id)).status).toBe(409);
    // Removed members do not come back through an old invitation.
    await test.request("DELETE", `/orgs/${org}/members/${user.id}`, { token: admin.token });
    expect((await accept(user.token, invitation!.id)).status).toBe(200);
    expect((await member(user.id)).status).toBe(404);
  });

  it("cannot accept a declined, revoked or expired invitation (404); inviting again renews it", async () => {
    const { test, org, member, invite, mine, accept, decline, pending, revoke, advance } = await setup();
    const user = await test.createUser("User", "user@acme.test");
    await invite({ emails: ["user@acme.test"] });
    const [declined] = await mine(user.token);
    expect((await decline(user.token, declined!.id)).status).toBe(204);
    expect((await decline(user.token, declined!.id)).status).toBe(404);
    expect((await accept(user.token, declined!.id)).status).toBe(404);
    expect((await pending()).body.count).toBe(0);

    await invite({ emails: ["user@acme.test"] });
    const [revoked] = await mine(user.token);
    expect((await revoke(revoked!.id)).status).toBe(205);
    expect((await accept(user.token, revoked!.id)).status).toBe(404);
    expect(await mine(user.token)).toEqual([]);

    await invite({ emails: [{ email: "user@acme.test", role: "comment" }] });
    const [expiring] = await mine(user.token);
    advance(30);
    expect(await mine(user.token)).toEqual([]);
    expect((await accept(user.token, expiring!.id)).status).toBe(404);
    expect((await member(user.id)).status).toBe(404);
    expect((await pending()).body.items).toMatchObject([{ id: expiring!.id, state: "pending" }]);
    // Inviting again updates the one pending invitation: new role, new expiry, same id.
    await invite({ emails: [{ email: "user@acme.test", role: "review" }] });
    const [renewed] = await mine(user.token);
    expect(renewed).toMatchObject({
      id: expiring!.id,
      role: "review",
      expiresAt: "2025-03-02T00:00:00.000Z",
    });
    expect((await accept(user.token, renewed!.id)).status).toBe(200);
    expect((await member(user.id)).body.role).toBe("review");
    expect((await test.request("GET", `/orgs/${org}/email-invites`)).status).toBe(404); // the operator is no member
  });

  it("refuses bad and oversized input with 400, storing nothing", async () => {
    const { test, org, admin, invite, pending } = await setup();
    const many = (count: number) => Array.from({ length: count }, (_, i) => `user${i}@acme.test`);
    const long = `${"a".repeat(64)}@${"b".repeat(256)}`; // 321 characters
    for (const body of [
      {},
      { emails: [] },
      { emails: [{ email: "a@acme.test" }] },
      { emails: ["a@acme.test"], role: "boss" },
      { emails: ["a"] },
      { emails: ["a b@acme.test"] },
      { emails: ["a@b@acme.test"] },
      { emails: ["\ud800@acme.test"] },
      { emails: ["a\u0000@acme.test"] },
      { emails: [long] },
      { emails: many(101) },
      { emails: ["a@acme.test"], sso: "yes" },
    ]) {
      const response = await invite(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.message).toMatch(/^body/);
    }
    expect((await invite({ emails: many(100) })).body).toEqual({ users: [], invited: 100 });
    expect((await invite({ emails: [long.slice(1)] })).status).toBe(200);
    expect((await pending()).body.count).toBe(101);
    const longId = "x".repeat(129);
    expect(
      (await test.request("POST", `/user/invites/${longId}/accept`, { token: admin.token })).status,
    ).toBe(400);
    expect(
      (await test.request("DELETE", `/orgs/${org}/email-invites/${longId}`, { token: admin.token })).status,
    ).toBe(400);
    expect((await invite({ emails: ["a@acme.test"] }, admin.token, longId)).status).toBe(400);
  });

  it("holds at most 1000 pending invitations per organization (409)", async () => {
    const { invite, pending } = await setup();
    for (let batch = 0; batch < 10; batch++) {
      const emails = Array.from({ length: 100 }, (_, i) => `user${batch * 100 + i}@acme.test`);
      expect((await invite({ emails })).status).toBe(200);
    }
    // Re-inviting pending emails adds nothing, so it is still allowed.
    expect((await invite({ emails: ["user0@acme.test"] })).status).toBe(200);
    const refused = await invite({ emails: ["user0@acme.test", "one-more@acme.test"] });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/1000 pending invitations/);
    expect((await pending()).body.count).toBe(1000);
  });

  it("is for admins only; non-members get 404", async () => {
    const { test, invite, addMember, pending } = await setup();
    await test.createUser("Outsider", "outsider@acme.test");
    const outsider = await test.createUser("Outsider 2", "outsider2@acme.test");
    expect((await invite({ emails: ["outsider@acme.test"] }, outsider.token)).status).toBe(404);
    const editor = await addMember("Editor 2", "editor2@acme.test", "edit");
    expect((await invite({ emails: ["outsider@acme.test"] }, editor.token)).status).toBe(403);
    expect((await pending()).body.count).toBe(0);
  });
});

describe("invite links", () => {
  it("are managed by admins only", async () => {
    const { test, org, addMember } = await setup();
    const editor = await addMember("Editor", "editor@acme.test", "edit");
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
