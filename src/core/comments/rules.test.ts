import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";

async function setup() {
  const workspace = await createWorkspace();
  const spaceId = await workspace.space({ title: "Docs" });
  const cr = (await workspace.api("POST", `/spaces/${spaceId}/change-requests`, {})).body;
  return {
    ...workspace,
    spaceId,
    cr,
    threads: [`/spaces/${spaceId}`, `/spaces/${spaceId}/change-requests/${cr.id}`],
  };
}

const body = (markdown: string) => ({ body: { markdown } });

describe("comment rules", () => {
  it("lets readers list, commenters post, authors edit, and authors or admins delete", async () => {
    const { api, member, outsider, threads } = await setup();
    const reader = await member("read");
    const author = await member("comment");
    const other = await member("edit");
    for (const thread of threads) {
      const base = `${thread}/comments`;
      expect((await reader("POST", base, body("no"))).status).toBe(403);
      expect((await outsider("GET", base)).status).toBe(404);
      expect((await outsider("POST", base, body("no"))).status).toBe(404);
      const { body: comment, status } = await author("POST", base, body("mine"));
      expect(status).toBe(200);
      const one = `${base}/${comment.id}`;
      expect(comment.permissions).toEqual({ view: true, edit: true, reply: true, delete: true });

      // Each caller's flags say exactly what their calls do.
      const flags = async (as: typeof api) => (await as("GET", one)).body.permissions;
      expect(await flags(reader)).toEqual({ view: true, edit: false, reply: false, delete: false });
      expect(await flags(other)).toEqual({ view: true, edit: false, reply: true, delete: false });
      expect(await flags(api)).toEqual({ view: true, edit: false, reply: true, delete: true });
      expect((await reader("GET", base)).body.count).toBe(1);
      expect((await reader("PUT", one, { addedReactions: ["👍"] })).status).toBe(403);
      expect((await reader("PUT", one, { resolved: true })).status).toBe(403);
      expect((await reader("POST", `${one}/replies`, body("no"))).status).toBe(403);
      expect((await other("PUT", one, body("hijack"))).status).toBe(403);
      expect((await api("PUT", one, body("even an admin"))).status).toBe(403);
      // A refused part refuses the whole update.
      expect((await other("PUT", one, { ...body("x"), addedReactions: ["👍"] })).status).toBe(403);
      expect((await api("GET", one)).body.reactions).toEqual([]);
      expect((await other("PUT", one, { addedReactions: ["👍"], resolved: true })).body).toMatchObject({
        status: "resolved",
        reactions: [{ emoji: "👍", count: 1 }],
      });
      const edited = await author("PUT", one, body("mine, edited"));
      expect(edited.body).toMatchObject({ body: { markdown: "mine, edited" }, editedAt: expect.any(String) });
      expect((await other("DELETE", one)).status).toBe(403);
      expect((await reader("DELETE", one)).status).toBe(403);

      // Replies follow the same rules.
      const { body: reply } = await other("POST", `${one}/replies`, body("re"));
      const replyPath = `${one}/replies/${reply.id}`;
      expect(reply.permissions).toEqual({ view: true, edit: true, reply: true, delete: true });
      expect((await author("GET", replyPath)).body.permissions).toEqual({
        view: true,
        edit: false,
        reply: true,
        delete: false,
      });
      expect((await author("PUT", replyPath, body("no"))).status).toBe(403);
      expect((await author("DELETE", replyPath)).status).toBe(403);
      expect((await other("PUT", replyPath, body("re, edited"))).body.body).toEqual({
        markdown: "re, edited",
      });
      expect((await api("DELETE", replyPath)).status).toBe(205);

      // The author deletes their own; an admin deletes anyone's.
      const { body: second } = await other("POST", base, body("second"));
      expect((await other("DELETE", `${base}/${second.id}`)).status).toBe(205);
      expect((await api("DELETE", one)).status).toBe(205);
    }
  });

  it("takes comments on locked spaces, and ignores `resolved` on space replies", async () => {
    const { api, spaceId, threads } = await setup();
    expect((await api("PATCH", `/spaces/${spaceId}`, { editMode: "locked" })).status).toBe(200);
    const { body: comment, status } = await api("POST", `${threads[0]}/comments`, body("still open"));
    expect(status).toBe(200);
    const one = `${threads[0]}/comments/${comment.id}`;
    const { body: reply } = await api("POST", `${one}/replies`, body("re"));
    expect((await api("PUT", `${one}/replies/${reply.id}`, { resolved: true })).status).toBe(200);
    expect((await api("GET", one)).body.status).toBe("open");
  });

  it("keeps replies and repliers true as replies come and go", async () => {
    const { api, member, threads, advance } = await setup();
    const a = await member("comment");
    const b = await member("comment");
    const { body: userA } = await a("GET", "/user");
    const { body: userB } = await b("GET", "/user");
    const base = `${threads[0]}/comments`;
    const { body: comment } = await api("POST", base, body("topic"));
    const one = `${base}/${comment.id}`;
    const post = async (as: typeof api, text: string) =>
      (await as("POST", `${one}/replies`, body(text))).body;
    const r1 = await post(a, "a1");
    advance(1000);
    const r2 = await post(b, "b1");
    advance(1000);
    const r3 = await post(a, "a2");
    let { body: current } = await api("GET", one);
    expect(current.replies).toBe(3);
    expect(current.repliers).toEqual([
      { user: userA, count: 2, updatedAt: "2025-01-01T00:00:02.000Z" },
      { user: userB, count: 1, updatedAt: "2025-01-01T00:00:01.000Z" },
    ]);
    const listed = await api("GET", `${one}/replies?limit=2`);
    expect(listed.body.count).toBe(3);
    expect(listed.body.items.map((item: { id: string }) => item.id)).toEqual([r1.id, r2.id]);
    const rest = await api("GET", `${one}/replies?limit=2&page=${listed.body.next.page}&format=document`);
    expect(rest.body.items.map((item: { id: string }) => item.id)).toEqual([r3.id]);
    expect(rest.body.items[0].body.document.object).toBe("document");
    expect(rest.body).not.toHaveProperty("next");

    advance(1000);
    await b("PUT", `${one}/replies/${r2.id}`, body("b1, edited"));
    await a("DELETE", `${one}/replies/${r3.id}`);
    ({ body: current } = await api("GET", one));
    expect(current.replies).toBe(2);
    expect(current.repliers).toEqual([
      { user: userA, count: 1, updatedAt: "2025-01-01T00:00:00.000Z" },
      { user: userB, count: 1, updatedAt: "2025-01-01T00:00:03.000Z" },
    ]);
    await a("DELETE", `${one}/replies/${r1.id}`);
    await b("DELETE", `${one}/replies/${r2.id}`);
    ({ body: current } = await api("GET", one));
    expect([current.replies, current.repliers]).toEqual([0, []]);
    expect((await api("GET", `${one}/replies`)).body).toEqual({ count: 0, items: [] });
  });

  it("lists commenters as members, by first post, while they have posts", async () => {
    const { api, member, threads, org } = await setup();
    const a = await member("comment");
    const b = await member("comment");
    const [space, cr] = threads as [string, string];
    const { body: first } = await a("POST", `${space}/comments`, body("a"));
    const { body: second } = await api("POST", `${space}/comments`, body("owner"));
    const { body: reply } = await b("POST", `${space}/comments/${second.id}/replies`, body("b"));
    await a("POST", `${space}/comments/${second.id}/replies`, body("a again"));
    await b("POST", `${cr}/comments`, body("b in cr"));
    const ids = async (path: string) =>
      (await api("GET", path)).body.items.map((item: { id: string }) => item.id);
    expect(await ids(`${space}/commenters`)).toEqual([
      a.userId,
      (await api("GET", "/user")).body.id,
      b.userId,
    ]);
    expect(await ids(`${cr}/commenters`)).toEqual([b.userId]);
    const { body: page } = await api("GET", `${space}/commenters?limit=1`);
    expect(page).toMatchObject({ count: 3, items: [{ object: "member", id: a.userId, role: "comment" }] });
    expect(await ids(`${space}/commenters?limit=1&page=${page.next.page}`)).toHaveLength(1);

    // b's only post in the space is a reply: deleting it leaves the commenters.
    await b("DELETE", `${space}/comments/${second.id}/replies/${reply.id}`);
    expect(await ids(`${space}/commenters`)).toHaveLength(2);
    // Deleting a comment uncounts its replies too: a keeps the first comment.
    await api("DELETE", `${space}/comments/${second.id}`);
    expect(await ids(`${space}/commenters`)).toEqual([a.userId]);
    await a("DELETE", `${space}/comments/${first.id}`);
    expect((await api("GET", `${space}/commenters`)).body).toEqual({ count: 0, items: [] });
    // A commenter who leaves the organization is no longer listed.
    await b("POST", `${space}/comments`, body("b again"));
    await api("DELETE", `/orgs/${org}/members/${b.userId}`);
    expect((await api("GET", `${space}/commenters`)).body).toEqual({ count: 0, items: [] });
  });

  it("refuses comment and reply markdown over the markdown limits, storing nothing", async () => {
    const { api, threads } = await setup();
    const nested = "> ".repeat(65) + "deep";
    for (const thread of threads) {
      const base = `${thread}/comments`;
      const refused = await api("POST", base, body(nested));
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(/^body\.body: .*64 levels/);
      expect((await api("GET", base)).body.count).toBe(0);
      const comment = (await api("POST", base, body("fine"))).body;
      const reply = await api("POST", `${base}/${comment.id}/replies`, body(nested));
      expect(reply.status).toBe(400);
      expect((await api("GET", `${base}/${comment.id}`)).body.replies).toBe(0);
    }
  });
});
