import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { sitesTable, siteSpacesTable } from "./tables.js";

/** Site operations: role rules, every limit of SPEC.md at its boundary, uniqueness and defaults. */
describe("sites", () => {
  async function setup() {
    const w = await createWorkspace();
    const sites = `/orgs/${w.org}/sites`;
    const create = async (body: object = {}) => (await w.api("POST", sites, body)).body.id as string;
    return { ...w, sites, create };
  }

  it("lets read members see sites and only admins change them; others get 404", async () => {
    const w = await setup();
    const site = await w.create({ title: "Guide" });
    const reader = await w.member("read");
    const editor = await w.member("edit");
    const guest = await w.member(null);
    expect((await reader("GET", `${w.sites}/${site}`)).status).toBe(200);
    expect((await reader("GET", w.sites)).body.count).toBe(1);
    const refused = await editor("PATCH", `${w.sites}/${site}`, { title: "Mine" });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/Managing the site/);
    expect((await editor("POST", w.sites, {})).status).toBe(403);
    expect((await editor("POST", `${w.sites}/${site}/publish`)).status).toBe(403);
    expect((await editor("DELETE", `${w.sites}/${site}`)).status).toBe(403);
    for (const stranger of [guest, w.outsider]) {
      expect((await stranger("GET", `${w.sites}/${site}`)).status).toBe(404);
      expect((await stranger("GET", w.sites)).status).toBe(404);
    }
    // A site of another organization is not reachable through this one.
    const other = await w.organization("Other");
    const foreign = (await w.api("POST", `/orgs/${other}/sites`, {})).body.id as string;
    expect((await w.api("GET", `${w.sites}/${foreign}`)).status).toBe(404);
    expect((await w.stored(sitesTable, site))?.title).toBe("Guide");
  });

  it.each([
    ["title", "ab", "a"],
    ["title", "t".repeat(128), "t".repeat(129)],
    ["basename", "b", ""],
    ["basename", "b".repeat(100), "b".repeat(101)],
    ["hostname", "docs.example.com", "example.com"],
    ["hostname", `${"a".repeat(63)}.example.com`, `${"a".repeat(64)}.example.com`],
    ["hostname", "a-b.c-d.io", "-ab.example.com"],
    ["hostname", "docs.example.com", "Docs.Example.com"],
    // 512 characters, then 513.
    ["hostname", `${"abcdefgh.".repeat(55)}abcdefghijklm.com`, `${"abcdefgh.".repeat(55)}abcdefghijklmn.com`],
    ["proxy", `example.com/${"p".repeat(500)}`, `example.com/${"p".repeat(501)}`],
    ["proxy", "example.com/docs/v1", "https://example.com/docs"],
  ])("%s: accepts %j, refuses one past the limit with the field named", async (field, good, bad) => {
    const w = await setup();
    const site = await w.create({ title: "Limits" });
    const before = await w.stored(sitesTable, site);
    const refused = await w.api("PATCH", `${w.sites}/${site}`, { [field]: bad });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain(`body.${field}`);
    expect(await w.stored(sitesTable, site)).toEqual(before);
    const accepted = await w.api("PATCH", `${w.sites}/${site}`, { [field]: good });
    expect(accepted.status).toBe(200);
    expect((await w.stored(sitesTable, site))?.[field as "title"]).toBe(good);
  });

  it("refuses a taken hostname or basename with 409 and frees it when removed", async () => {
    const w = await setup();
    const first = await w.create();
    const second = await w.create();
    await w.api("PATCH", `${w.sites}/${first}`, { hostname: "docs.acme.test", basename: "acme" });
    const taken = await w.api("PATCH", `${w.sites}/${second}`, { hostname: "docs.acme.test" });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toContain("body.hostname");
    expect((await w.api("PATCH", `${w.sites}/${second}`, { basename: "acme" })).status).toBe(409);
    // The same site may set its own values again.
    expect((await w.api("PATCH", `${w.sites}/${first}`, { hostname: "docs.acme.test" })).status).toBe(200);
    await w.api("PATCH", `${w.sites}/${first}`, { hostname: null });
    expect((await w.api("PATCH", `${w.sites}/${second}`, { hostname: "docs.acme.test" })).status).toBe(200);
    const published = await w.api("POST", `${w.sites}/${second}/publish`);
    expect(published.body.urls.published).toBe("https://docs.acme.test/");
  });

  it("creates site spaces from `spaces`, checks them first and moves the default site space", async () => {
    const w = await setup();
    const [a, b] = [await w.space({ title: "Alpha" }), await w.space({ title: "Beta" })];
    const foreignOrg = await w.organization("Elsewhere");
    const foreign = await w.space({}, foreignOrg);
    for (const spaces of [["missing"], [foreign], [a, a]]) {
      const refused = await w.api("POST", w.sites, { spaces });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(/body\.spaces\[\d\]/);
    }
    expect((await w.api("GET", w.sites)).body.count).toBe(0);
    const site = await w.create({ spaces: [a, b] });
    const siteSpaces = () =>
      w.storage.read((tx) => tx.list(siteSpacesTable, { index: "bySite", where: [site] }));
    const listed = await siteSpaces();
    expect(listed.map((record) => [record.path, record.default])).toEqual([
      ["alpha", true],
      ["beta", false],
    ]);
    const beta = listed[1]!.id;
    expect((await w.api("PATCH", `${w.sites}/${site}`, { defaultSiteSpace: beta })).status).toBe(200);
    expect((await siteSpaces()).map((record) => record.default)).toEqual([false, true]);
    const refused = await w.api("PATCH", `${w.sites}/${site}`, {
      title: "Changed",
      defaultSiteSpace: "nope",
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain("body.defaultSiteSpace");
    expect((await w.stored(sitesTable, site))?.title).not.toBe("Changed");
  });

  it("counts the site spaces readers can reach: a deleted space's leave the count until restored", async () => {
    const w = await setup();
    const [a, b] = [await w.space({ title: "Alpha" }), await w.space({ title: "Beta" })];
    const site = await w.create({ spaces: [a, b] });
    const count = async () => (await w.api("GET", `${w.sites}/${site}`)).body.siteSpaces as number;
    expect(await count()).toBe(2);
    expect((await w.api("DELETE", `/spaces/${b}`)).status).toBe(205);
    expect(await count()).toBe(1);
    expect((await w.api("POST", `/spaces/${b}/restore`)).status).toBe(200);
    expect(await count()).toBe(2);
  });
});
