import { describe, expect, it } from "vitest";
import type { ClientInput } from "../client.js";
import type { Operations } from "../operations.js";
import type { Role } from "../shared/roles.js";
import { createTestDocsbase, type TestUser } from "../../testing/double.js";

type InviteBody = ClientInput<Operations["inviteUsersToOrganization"]>["body"];

async function setup() {
  let now = Date.parse("2025-01-01T00:00:00Z");
  const test = await createTestDocsbase({ clock: () => new Date(now) });
  const admin = await test.createUser("Admin", "admin@acme.test");
  const org = (await test.as(admin).createOrganization({ body: { title: "Acme" } })).id;
  const member = (userId: string) =>
    test.as(admin).getMemberInOrganizationById({ organizationId: org, userId });
  const invite = (body: InviteBody, user: TestUser = admin, organizationId = org) =>
    test.as(user).inviteUsersToOrganization({ organizationId, body });
  /** The caller's pending invitations. */
  const mine = async (user: TestUser) => (await test.as(user).listUserInvites()).items;
  const accept = (user: TestUser, invitationId: string) => test.as(user).acceptUserInvite({ invitationId });
  const decline = (user: TestUser, invitationId: string) => test.as(user).declineUserInvite({ invitationId });
  const pending = (user: TestUser = admin) =>
    test.as(user).listOrganizationEmailInvites({ organizationId: org });
  /** Over HTTP, for its status: 205 when a pending invitation went, 204 when there was none. */
  const revoke = (id: string, token = admin.token) =>
    test.request("DELETE", `/orgs/${org}/email-invites/${id}`, { token });
  /** A user who has accepted an invitation with `role`. */
  const addMember = async (name: string, email: string, role: Role | null) => {
    const user = await test.createUser(name, email);
    await invite({ emails: [{ email, role }] });
    const [invitation] = await mine(user);
    await accept(user, invitation!.id);
    return user;
  };
  const organizations = async (user: TestUser) =>
    (await test.as(user).listOrganizationsForAuthenticatedUser()).items.map((item) => item.id);
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
    expect(await invite({ emails: [" A@ACME.test", "a@acme.test"] })).toEqual({ users: [], invited: 1 });
    await expect(member(a.id)).rejects.toMatchObject({ code: "not_found" });
    expect(await organizations(a)).toEqual([]);
    const [first] = await mine(a);
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
    expect(await accept(a, first!.id)).toMatchObject({ id: first!.id, state: "accepted" });
    expect(await organizations(a)).toEqual([org]);
    expect((await member(a.id)).role).toBe("read");

    const second = await invite({
      emails: ["a@acme.test", { email: "b@acme.test", role: null }, "c@acme.test"],
      role: "edit",
      sso: true,
    });
    expect(second).toEqual({ users: [], invited: 3 });
    for (const user of [a, b, c]) {
      const [invitation] = await mine(user);
      await accept(user, invitation!.id);
    }
    expect(await member(a.id)).toMatchObject({ role: "read", sso: false }); // members keep their role
    expect(await member(b.id)).toMatchObject({ role: null, sso: true });
    expect(await member(c.id)).toMatchObject({ role: "edit", sso: true });
  });

  it("answers byte for byte the same whether or not an email has an account", async () => {
    const { test, admin, org } = await setup();
    await test.createUser("Known", "known@acme.test");
    const other = (await test.as(admin).createOrganization({ body: { title: "Other" } })).id;
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
    const [invitation] = (await test.as(ghost).listUserInvites()).items;
    expect(invitation).toMatchObject({ organization: { id: other }, role: "admin" });
    await test.as(ghost).acceptUserInvite({ invitationId: invitation!.id });
    expect(
      (await test.as(admin).getMemberInOrganizationById({ organizationId: other, userId: ghost.id })).role,
    ).toBe("admin");
  });

  it("lets only the invitee list, accept and decline, and only admins list and revoke", async () => {
    const { test, org, admin, invite, mine, accept, decline, pending, revoke, addMember } = await setup();
    const editor = await addMember("Editor", "editor@acme.test", "edit");
    const outsider = await test.createUser("Outsider", "outsider@acme.test");
    const invitee = await test.createUser("Invitee", "invitee@acme.test");
    await invite({ emails: ["invitee@acme.test", "zed@acme.test"] });
    const [invitation] = await mine(invitee);
    expect(await mine(outsider)).toEqual([]);
    expect(await mine(admin)).toEqual([]);
    // Nobody but the invitee can see, accept or decline it: 404 as for an unknown id.
    for (const user of [admin, editor, outsider]) {
      await expect(accept(user, invitation!.id)).rejects.toMatchObject({ code: "not_found" });
      await expect(decline(user, invitation!.id)).rejects.toMatchObject({ code: "not_found" });
    }
    await expect(accept(invitee, "unknown")).rejects.toMatchObject({ code: "not_found" });
    await accept(invitee, invitation!.id);
    // Admins list the pending ones (by email) and revoke; members 403, non-members 404.
    const listed = await pending();
    expect(listed.items.map((item) => item.email)).toEqual(["zed@acme.test"]);
    await expect(pending(editor)).rejects.toMatchObject({ code: "forbidden" });
    await expect(pending(outsider)).rejects.toMatchObject({ code: "not_found" });
    await expect(pending(invitee)).rejects.toMatchObject({ code: "forbidden" });
    const zed = listed.items[0]!.id;
    expect((await revoke(zed, editor.token)).status).toBe(403);
    expect((await revoke(zed, outsider.token)).status).toBe(404);
    expect((await revoke(zed)).status).toBe(205);
    expect((await revoke(zed)).status).toBe(204);
    // An accepted invitation is no longer pending: revoking it does nothing.
    expect((await revoke(invitation!.id)).status).toBe(204);
    await test.as(admin).getMemberInOrganizationById({ organizationId: org, userId: invitee.id });
    expect((await pending()).count).toBe(0);
  });

  it("accepts idempotently: accepting again changes nothing, even after the member left", async () => {
    const { test, org, admin, member, invite, mine, accept, decline } = await setup();
    const user = await test.createUser("User", "user@acme.test");
    await invite({ emails: [{ email: "user@acme.test", role: "edit" }] });
    const [invitation] = await mine(user);
    const first = await accept(user, invitation!.id);
    await test
      .as(admin)
      .updateMemberInOrganizationById({ organizationId: org, userId: user.id, body: { role: "read" } });
    expect(await accept(user, invitation!.id)).toEqual(first);
    expect((await member(user.id)).role).toBe("read");
    expect(await mine(user)).toEqual([]);
    await expect(decline(user, invitation!.id)).rejects.toMatchObject({ code: "conflict" });
    // Removed members do not come back through an old invitation.
    await test.as(admin).removeMemberFromOrganizationById({ organizationId: org, userId: user.id });
    await accept(user, invitation!.id);
    await expect(member(user.id)).rejects.toMatchObject({ code: "not_found" });
  });

  it("cannot accept a declined, revoked or expired invitation (404); inviting again renews it", async () => {
    const { test, member, invite, mine, accept, decline, pending, revoke, advance } = await setup();
    const user = await test.createUser("User", "user@acme.test");
    await invite({ emails: ["user@acme.test"] });
    const [declined] = await mine(user);
    expect(
      (await test.request("POST", `/user/invites/${declined!.id}/decline`, { token: user.token })).status,
    ).toBe(204);
    await expect(decline(user, declined!.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(accept(user, declined!.id)).rejects.toMatchObject({ code: "not_found" });
    expect((await pending()).count).toBe(0);

    await invite({ emails: ["user@acme.test"] });
    const [revoked] = await mine(user);
    expect((await revoke(revoked!.id)).status).toBe(205);
    await expect(accept(user, revoked!.id)).rejects.toMatchObject({ code: "not_found" });
    expect(await mine(user)).toEqual([]);

    await invite({ emails: [{ email: "user@acme.test", role: "comment" }] });
    const [expiring] = await mine(user);
    advance(30);
    expect(await mine(user)).toEqual([]);
    await expect(accept(user, expiring!.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(member(user.id)).rejects.toMatchObject({ code: "not_found" });
    expect((await pending()).items).toMatchObject([{ id: expiring!.id, state: "pending" }]);
    // Inviting again updates the one pending invitation: new role, new expiry, same id.
    await invite({ emails: [{ email: "user@acme.test", role: "review" }] });
    const [renewed] = await mine(user);
    expect(renewed).toMatchObject({
      id: expiring!.id,
      role: "review",
      expiresAt: "2025-03-02T00:00:00.000Z",
    });
    await accept(user, renewed!.id);
    expect((await member(user.id)).role).toBe("review");
    // The operator is no member.
    await expect(pending(test.operatorToken)).rejects.toMatchObject({ code: "not_found" });
  });

  it("refuses bad and oversized input with 400, storing nothing", async () => {
    const { test, org, admin, invite, pending } = await setup();
    const many = (count: number) => Array.from({ length: count }, (_, i) => `user${i}@acme.test`);
    const long = `${"a".repeat(64)}@${"b".repeat(256)}`; // 321 characters
    // Bodies no client type allows, as JSON sent over HTTP.
    for (const body of [
      {},
      { emails: [{ email: "a@acme.test" }] },
      { emails: ["a@acme.test"], role: "boss" },
      { emails: ["a@acme.test"], sso: "yes" },
    ]) {
      const response = await test.request("POST", `/orgs/${org}/invites`, { token: admin.token, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.message).toMatch(/^body/);
    }
    for (const emails of [
      [],
      ["a"],
      ["a b@acme.test"],
      ["a@b@acme.test"],
      ["\ud800@acme.test"],
      ["a\u0000@acme.test"],
      [long],
      many(101),
    ]) {
      await expect(invite({ emails }), JSON.stringify(emails)).rejects.toMatchObject({
        code: "bad_request",
        message: expect.stringMatching(/^body/),
      });
    }
    expect(await invite({ emails: many(100) })).toEqual({ users: [], invited: 100 });
    await invite({ emails: [long.slice(1)] });
    expect((await pending()).count).toBe(101);
    const longId = "x".repeat(129);
    await expect(test.as(admin).acceptUserInvite({ invitationId: longId })).rejects.toMatchObject({
      code: "bad_request",
    });
    await expect(
      test.as(admin).revokeOrganizationEmailInvite({ organizationId: org, invitationId: longId }),
    ).rejects.toMatchObject({ code: "bad_request" });
    await expect(invite({ emails: ["a@acme.test"] }, admin, longId)).rejects.toMatchObject({
      code: "bad_request",
    });
  });

  it("holds at most 1000 pending invitations per organization (409)", async () => {
    const { invite, pending } = await setup();
    for (let batch = 0; batch < 10; batch++) {
      await invite({ emails: Array.from({ length: 100 }, (_, i) => `user${batch * 100 + i}@acme.test`) });
    }
    // Re-inviting pending emails adds nothing, so it is still allowed.
    await invite({ emails: ["user0@acme.test"] });
    await expect(invite({ emails: ["user0@acme.test", "one-more@acme.test"] })).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringMatching(/1000 pending invitations/),
    });
    expect((await pending()).count).toBe(1000);
  });

  it("is for admins only; non-members get 404", async () => {
    const { test, invite, addMember, pending } = await setup();
    await test.createUser("Outsider", "outsider@acme.test");
    const outsider = await test.createUser("Outsider 2", "outsider2@acme.test");
    await expect(invite({ emails: ["outsider@acme.test"] }, outsider)).rejects.toMatchObject({
      code: "not_found",
    });
    const editor = await addMember("Editor 2", "editor2@acme.test", "edit");
    await expect(invite({ emails: ["outsider@acme.test"] }, editor)).rejects.toMatchObject({
      code: "forbidden",
    });
    expect((await pending()).count).toBe(0);
  });
});

describe("invite links", () => {
  it("are managed by admins only", async () => {
    const { test, org, addMember } = await setup();
    const editor = await addMember("Editor", "editor@acme.test", "edit");
    await expect(
      test.as(editor).createOrganizationInvite({ organizationId: org, body: { role: "read" } }),
    ).rejects.toMatchObject({ code: "forbidden" });
    await expect(test.as(editor).listOrganizationInviteLinks({ organizationId: org })).rejects.toMatchObject({
      code: "forbidden",
    });
    const stranger = await test.createUser("Stranger");
    await expect(
      test.as(stranger).listOrganizationInviteLinks({ organizationId: org }),
    ).rejects.toMatchObject({
      code: "not_found",
    });
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
    expect((await test.as(admin).listOrganizationInviteLinks({ organizationId: org })).items).toEqual([
      { object: "invite", id: link.body.id, role: null, redundant: true },
    ]);
  });

  it("let a user join with the invite's role; members keep theirs; unknown invites are 404", async () => {
    const { test, admin, org, member } = await setup();
    const link = await test
      .as(admin)
      .createOrganizationInvite({ organizationId: org, body: { role: "review" } });
    const joiner = await test.createUser("Joiner");
    const join = (user: TestUser, inviteId = link.id, organizationId = org) =>
      test.as(user).joinOrganizationWithInvite({ organizationId, inviteId });
    await expect(join(joiner, "unknown")).rejects.toMatchObject({ code: "not_found" });
    await expect(join(joiner, link.id, "unknown")).rejects.toMatchObject({ code: "not_found" });
    expect(
      (await test.as(joiner).getOrganizationInviteLink({ organizationId: org, inviteId: link.id })).redundant,
    ).toBe(false);
    expect(await join(joiner)).toEqual({});
    expect((await member(joiner.id)).role).toBe("review");
    await join(admin);
    expect((await member(admin.id)).role).toBe("admin");
    // Invite ids of one organization mean nothing in another.
    const other = (await test.as(admin).createOrganization({ body: { title: "Other" } })).id;
    await expect(join(joiner, link.id, other)).rejects.toMatchObject({ code: "not_found" });
  });

  it("cannot be created or used while the organization disables invite links", async () => {
    const { test, admin, org, member } = await setup();
    const link = await test
      .as(admin)
      .createOrganizationInvite({ organizationId: org, body: { role: "read" } });
    await test.as(admin).updateOrganizationById({ organizationId: org, body: { inviteLinks: false } });
    await expect(
      test.as(admin).createOrganizationInvite({ organizationId: org, body: { role: "read" } }),
    ).rejects.toMatchObject({
      code: "forbidden",
      message: expect.stringMatching(/invite links are disabled/i),
    });
    const joiner = await test.createUser("Joiner");
    await expect(
      test.as(joiner).joinOrganizationWithInvite({ organizationId: org, inviteId: link.id }),
    ).rejects.toMatchObject({
      code: "forbidden",
      message: expect.stringMatching(/invite links are disabled/i),
    });
    await expect(member(joiner.id)).rejects.toMatchObject({ code: "not_found" });
    // Admins still see and clean up existing links.
    expect((await test.as(admin).listOrganizationInviteLinks({ organizationId: org })).count).toBe(1);
    expect(
      (await test.request("DELETE", `/orgs/${org}/link-invites/${link.id}`, { token: admin.token })).status,
    ).toBe(205);
  });
});
