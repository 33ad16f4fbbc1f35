import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { SHARE_KEY_LENGTH } from "./share-links.js";
import { shareLinksTable } from "./tables.js";

/** Share links: role rules, token visibility, the name limit, updates and the 205/204 rules. */
describe("share links", () => {
  async function setup() {
    const w = await createWorkspace();
    const organizationId = w.org;
    const site = (await w.client.createSite({ organizationId, body: { visibility: "share-link" } })).id;
    const links = `/orgs/${w.org}/sites/${site}/share-links`;
    const at = { organizationId, siteId: site };
    const create = (name: string) => w.client.createSiteShareLink({ ...at, body: { name } });
    return { ...w, site, links, at, create };
  }

  it("creates active links with a long unique key, shown to admins only", async () => {
    const w = await setup();
    // Over HTTP for its 201 and Location header.
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
    const second = await w.create("Partners");
    expect(second.token).not.toBe(token);

    await w.client.publishSite(w.at);
    const listed = await w.client.listSiteShareLinks(w.at);
    expect(listed.count).toBe(2);
    expect(listed.items[0]).toMatchObject({ id: created.body.id, token });
    expect(listed.items[0]!.urls.published).toBe(`http://docsbase.test/sites/${w.site}/?share=${token}`);

    const reader = await w.member("read");
    const seen = await reader.client.listSiteShareLinks(w.at);
    expect(seen.items.map((item) => item.name)).toEqual(["Reviewers", "Partners"]);
    for (const item of seen.items) {
      expect(item.token).toBeUndefined();
      expect(item.urls).toEqual({});
      expect(JSON.stringify(item)).not.toContain(token);
    }
  });

  it("lets read members list, only admins change links, and hides them from everyone else", async () => {
    const w = await setup();
    const link = { ...w.at, shareLinkId: (await w.create("Link")).id };
    const reader = (await w.member("read")).client;
    const editor = (await w.member("edit")).client;
    for (const member of [reader, editor]) {
      await member.listSiteShareLinks(w.at);
      await expect(member.createSiteShareLink({ ...w.at, body: { name: "Mine" } })).rejects.toMatchObject({
        code: "forbidden",
      });
      await expect(
        member.updateSiteShareLinkById({ ...link, body: { active: false } }),
      ).rejects.toMatchObject({ code: "forbidden" });
      await expect(member.deleteSiteShareLinkById(link)).rejects.toMatchObject({ code: "forbidden" });
    }
    const guest = (await w.member(null)).client;
    for (const stranger of [guest, w.outsider.client]) {
      await expect(stranger.listSiteShareLinks(w.at)).rejects.toMatchObject({ code: "not_found" });
      await expect(stranger.createSiteShareLink({ ...w.at, body: { name: "Mine" } })).rejects.toMatchObject({
        code: "not_found",
      });
      await expect(stranger.deleteSiteShareLinkById(link)).rejects.toMatchObject({ code: "not_found" });
    }
    expect((await w.client.listSiteShareLinks(w.at)).items.map((item) => [item.name, item.active])).toEqual([
      ["Link", true],
    ]);
  });

  it("accepts a name of 50 characters and refuses 51 with the field named", async () => {
    const w = await setup();
    await expect(w.create("n".repeat(51))).rejects.toMatchObject({
      code: "bad_request",
      message: expect.stringContaining("body.name"),
    });
    // Over HTTP: no client type allows a link without a name.
    expect((await w.api("POST", w.links, {})).body.error.message).toContain("body.name");
    expect((await w.client.listSiteShareLinks(w.at)).count).toBe(0);
    const created = await w.create("n".repeat(50));
    const link = { ...w.at, shareLinkId: created.id };
    await expect(
      w.client.updateSiteShareLinkById({ ...link, body: { name: "m".repeat(51), active: false } }),
    ).rejects.toMatchObject({ code: "bad_request", message: expect.stringContaining("body.name") });
    expect(await w.stored(shareLinksTable, created.id)).toMatchObject({
      name: "n".repeat(50),
      active: true,
    });
    expect((await w.client.updateSiteShareLinkById({ ...link, body: { name: "m".repeat(50) } })).name).toBe(
      "m".repeat(50),
    );
  });

  it("renames and turns links off and on, keeping the key; an empty PATCH is refused", async () => {
    const w = await setup();
    const created = await w.create("Before");
    const link = { ...w.at, shareLinkId: created.id };
    const off = await w.client.updateSiteShareLinkById({ ...link, body: { active: false } });
    expect(off).toMatchObject({ name: "Before", active: false, token: created.token });
    const renamed = await w.client.updateSiteShareLinkById({
      ...link,
      body: { name: "After", active: true },
    });
    expect(renamed).toMatchObject({ name: "After", active: true, token: created.token });
    await expect(w.client.updateSiteShareLinkById({ ...link, body: {} })).rejects.toMatchObject({
      code: "bad_request",
      message: expect.stringMatching(/^body: .*active, name/),
    });
    await expect(
      w.client.updateSiteShareLinkById({ ...w.at, shareLinkId: "unknown", body: { active: false } }),
    ).rejects.toMatchObject({ code: "not_found" });
  });

  it("deletes with 205, then 204; a link of another site is neither changed nor deleted", async () => {
    const w = await setup();
    const created = await w.create("Gone");
    const other = (await w.client.createSite({ organizationId: w.org, body: {} })).id;
    const otherLinks = `/orgs/${w.org}/sites/${other}/share-links`;
    await expect(
      w.client.updateSiteShareLinkById({
        organizationId: w.org,
        siteId: other,
        shareLinkId: created.id,
        body: { active: false },
      }),
    ).rejects.toMatchObject({ code: "not_found" });
    // Deletions over HTTP, for their 205 or 204.
    expect((await w.api("DELETE", `${otherLinks}/${created.id}`)).status).toBe(204);
    expect(await w.stored(shareLinksTable, created.id)).toMatchObject({ active: true });
    expect((await w.api("DELETE", `${w.links}/${created.id}`)).status).toBe(205);
    expect(await w.stored(shareLinksTable, created.id)).toBeUndefined();
    expect((await w.api("DELETE", `${w.links}/${created.id}`)).status).toBe(204);
    expect((await w.client.listSiteShareLinks(w.at)).count).toBe(0);
    // Deleting the site takes its links with it.
    const kept = (await w.create("Kept")).id;
    expect((await w.api("DELETE", `/orgs/${w.org}/sites/${w.site}`)).status).toBe(205);
    expect(await w.stored(shareLinksTable, kept)).toBeUndefined();
    await expect(w.client.listSiteShareLinks(w.at)).rejects.toMatchObject({ code: "not_found" });
  });

  it("pages the list, oldest first", async () => {
    const w = await setup();
    for (const name of ["a", "b", "c"]) {
      await w.create(name);
      w.advance(1000);
    }
    const first = await w.client.listSiteShareLinks({ ...w.at, limit: 2 });
    expect(first.items.map((item) => item.name)).toEqual(["a", "b"]);
    expect(first.count).toBe(3);
    const rest = await w.client.listSiteShareLinks({ ...w.at, limit: 2, page: first.next!.page });
    expect(rest.items.map((item) => item.name)).toEqual(["c"]);
    expect(rest.next).toBeUndefined();
  });
});
