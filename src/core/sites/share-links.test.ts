import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { SHARE_KEY_LENGTH } from "./share-links.js";
import { shareLinksTable } from "./tables.js";

/** Share links: role rules, token visibility, the name limit, updates and the 205/204 rules. */
describe("share links", () => {
  async function setup() {
    const w = await createWorkspace();
    const site = (await w.api("POST", `/orgs/${w.org}/sites`, { visibility: "share-link" })).body
      .id as string;
    const links = `/orgs/${w.org}/sites/${site}/share-links`;
    return { ...w, site, links };
  }

  it("creates active links with a long unique key, shown to admins only", async () => {
    const w = await setup();
    const created = await w.api("POST", w.links, { name: "Reviewers" });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(
      `http://docsbase.test/v1/orgs/${w.org}/sites/${w.site}/share-links/${created.body.id}`,
    );
    expect(created.body).toMatchObject({ object: "share-link", name: "Reviewers", active: true });
    const token = created.body.token as string;
    expect(token).toMatch(new RegExp(`^[A-Za-z0-9]{${SHARE_KEY_LENGTH}}$`));
    expect((await w.stored(shareLinksTable, created.body.id))?.key).toBe(token);
    // Not published yet: no published URL, even for an admin.
    expect(created.body.urls).toEqual({});
    w.advance(1000);
    const second = (await w.api("POST", w.links, { name: "Partners" })).body;
    expect(second.token).not.toBe(token);

    await w.api("POST", `/orgs/${w.org}/sites/${w.site}/publish`);
    const listed = (await w.api("GET", w.links)).body;
    expect(listed.count).toBe(2);
    expect(listed.items[0]).toMatchObject({ id: created.body.id, token });
    expect(listed.items[0].urls.published).toBe(`http://docsbase.test/sites/${w.site}/?share=${token}`);

    const reader = await w.member("read");
    const seen = (await reader("GET", w.links)).body;
    expect(seen.items.map((item: any) => item.name)).toEqual(["Reviewers", "Partners"]);
    for (const item of seen.items) {
      expect(item.token).toBeUndefined();
      expect(item.urls).toEqual({});
      expect(JSON.stringify(item)).not.toContain(token);
    }
  });

  it("lets read members list, only admins change links, and hides them from everyone else", async () => {
    const w = await setup();
    const link = (await w.api("POST", w.links, { name: "Link" })).body.id as string;
    const reader = await w.member("read");
    const editor = await w.member("edit");
    for (const member of [reader, editor]) {
      expect((await member("GET", w.links)).status).toBe(200);
      expect((await member("POST", w.links, { name: "Mine" })).status).toBe(403);
      expect((await member("PATCH", `${w.links}/${link}`, { active: false })).status).toBe(403);
      expect((await member("DELETE", `${w.links}/${link}`)).status).toBe(403);
    }
    const guest = await w.member(null);
    for (const stranger of [guest, w.outsider]) {
      expect((await stranger("GET", w.links)).status).toBe(404);
      expect((await stranger("POST", w.links, { name: "Mine" })).status).toBe(404);
      expect((await stranger("DELETE", `${w.links}/${link}`)).status).toBe(404);
    }
    expect((await w.api("GET", w.links)).body.items.map((item: any) => [item.name, item.active])).toEqual([
      ["Link", true],
    ]);
  });

  it("accepts a name of 50 characters and refuses 51 with the field named", async () => {
    const w = await setup();
    const tooLong = await w.api("POST", w.links, { name: "n".repeat(51) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.message).toContain("body.name");
    expect((await w.api("POST", w.links, {})).body.error.message).toContain("body.name");
    expect((await w.api("GET", w.links)).body.count).toBe(0);
    const created = await w.api("POST", w.links, { name: "n".repeat(50) });
    expect(created.status).toBe(201);
    const link = `${w.links}/${created.body.id}`;
    const refused = await w.api("PATCH", link, { name: "m".repeat(51), active: false });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain("body.name");
    expect(await w.stored(shareLinksTable, created.body.id)).toMatchObject({
      name: "n".repeat(50),
      active: true,
    });
    expect((await w.api("PATCH", link, { name: "m".repeat(50) })).body.name).toBe("m".repeat(50));
  });

  it("renames and turns links off and on, keeping the key; an empty PATCH is refused", async () => {
    const w = await setup();
    const created = (await w.api("POST", w.links, { name: "Before" })).body;
    const link = `${w.links}/${created.id}`;
    const off = await w.api("PATCH", link, { active: false });
    expect(off.body).toMatchObject({ name: "Before", active: false, token: created.token });
    const renamed = await w.api("PATCH", link, { name: "After", active: true });
    expect(renamed.body).toMatchObject({ name: "After", active: true, token: created.token });
    const empty = await w.api("PATCH", link, {});
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toMatch(/^body: .*active, name/);
    expect((await w.api("PATCH", `${w.links}/unknown`, { active: false })).status).toBe(404);
  });

  it("deletes with 205, then 204; a link of another site is neither changed nor deleted", async () => {
    const w = await setup();
    const created = (await w.api("POST", w.links, { name: "Gone" })).body;
    const other = (await w.api("POST", `/orgs/${w.org}/sites`, {})).body.id as string;
    const otherLinks = `/orgs/${w.org}/sites/${other}/share-links`;
    expect((await w.api("PATCH", `${otherLinks}/${created.id}`, { active: false })).status).toBe(404);
    expect((await w.api("DELETE", `${otherLinks}/${created.id}`)).status).toBe(204);
    expect(await w.stored(shareLinksTable, created.id)).toMatchObject({ active: true });
    expect((await w.api("DELETE", `${w.links}/${created.id}`)).status).toBe(205);
    expect(await w.stored(shareLinksTable, created.id)).toBeUndefined();
    expect((await w.api("DELETE", `${w.links}/${created.id}`)).status).toBe(204);
    expect((await w.api("GET", w.links)).body.count).toBe(0);
    // Deleting the site takes its links with it.
    const kept = (await w.api("POST", w.links, { name: "Kept" })).body.id as string;
    expect((await w.api("DELETE", `/orgs/${w.org}/sites/${w.site}`)).status).toBe(205);
    expect(await w.stored(shareLinksTable, kept)).toBeUndefined();
    expect((await w.api("GET", w.links)).status).toBe(404);
  });

  it("pages the list, oldest first", async () => {
    const w = await setup();
    for (const name of ["a", "b", "c"]) {
      await w.api("POST", w.links, { name });
      w.advance(1000);
    }
    const first = (await w.api("GET", `${w.links}?limit=2`)).body;
    expect(first.items.map((item: any) => item.name)).toEqual(["a", "b"]);
    expect(first.count).toBe(3);
    const rest = (await w.api("GET", `${w.links}?limit=2&page=${encodeURIComponent(first.next.page)}`)).body;
    expect(rest.items.map((item: any) => item.name)).toEqual(["c"]);
    expect(rest.next).toBeUndefined();
  });
});
