import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import type { ClientInput } from "../client.js";
import type { Operations } from "../operations.js";
import { sitesTable, siteSpacesTable } from "./tables.js";

type SiteCreate = ClientInput<Operations["createSite"]>["body"];
type SiteUpdate = ClientInput<Operations["updateSiteById"]>["body"];

/** Site operations: role rules, every limit of the API at its boundary, uniqueness and defaults. */
describe("sites", () => {
  async function setup() {
    const w = await createWorkspace();
    const organizationId = w.org;
    const create = async (body: SiteCreate = {}) => (await w.client.createSite({ organizationId, body })).id;
    const update = (siteId: string, body: SiteUpdate) =>
      w.client.updateSiteById({ organizationId, siteId, body });
    return { ...w, organizationId, create, update };
  }

  it("lets read members see sites and only admins change them; others get 404", async () => {
    const w = await setup();
    const { organizationId } = w;
    const site = await w.create({ title: "Guide" });
    const siteId = site;
    const reader = (await w.member("read")).client;
    const editor = (await w.member("edit")).client;
    const guest = (await w.member(null)).client;
    await reader.getSiteById({ organizationId, siteId });
    expect((await reader.listSites({ organizationId })).count).toBe(1);
    await expect(
      editor.updateSiteById({ organizationId, siteId, body: { title: "Mine" } }),
    ).rejects.toMatchObject({ code: "forbidden", message: expect.stringMatching(/Managing the site/) });
    await expect(editor.createSite({ organizationId, body: {} })).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(editor.publishSite({ organizationId, siteId })).rejects.toMatchObject({ code: "forbidden" });
    await expect(editor.deleteSiteById({ organizationId, siteId })).rejects.toMatchObject({
      code: "forbidden",
    });
    for (const stranger of [guest, w.outsider.client]) {
      await expect(stranger.getSiteById({ organizationId, siteId })).rejects.toMatchObject({
        code: "not_found",
      });
      await expect(stranger.listSites({ organizationId })).rejects.toMatchObject({ code: "not_found" });
    }
    // A site of another organization is not reachable through this one.
    const other = await w.organization("Other");
    const foreign = (await w.client.createSite({ organizationId: other, body: {} })).id;
    await expect(w.client.getSiteById({ organizationId, siteId: foreign })).rejects.toMatchObject({
      code: "not_found",
    });
    expect((await w.stored(sitesTable, site))?.title).toBe("Guide");
  });

  type Limited = "title" | "basename" | "hostname" | "proxy";
  it.each<[Limited, string, string]>([
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
    const only = (value: string) => {
      const body: Pick<SiteUpdate, Limited> = {};
      body[field] = value;
      return body;
    };
    await expect(w.update(site, only(bad))).rejects.toMatchObject({
      code: "bad_request",
      message: expect.stringContaining(`body.${field}`),
    });
    expect(await w.stored(sitesTable, site)).toEqual(before);
    await w.update(site, only(good));
    const stored = await w.stored(sitesTable, site);
    // A hostname is a pending claim until verified (docs/sites.md, "Custom hostnames").
    expect(field === "hostname" ? stored?.hostnameClaim?.hostname : stored?.[field]).toBe(good);
  });

  it("refuses a taken basename or verified hostname with 409 and frees it when removed", async () => {
    const w = await setup();
    const first = await w.create();
    const second = await w.create();
    const approve = (siteId: string) =>
      w.test.request("POST", `/orgs/${w.organizationId}/sites/${siteId}/hostname/approve`);
    await w.update(first, { hostname: "docs.acme.test", basename: "acme" });
    expect((await approve(first)).status).toBe(200);
    // Claiming is free; verifying a hostname another site answers for is not.
    await w.update(second, { hostname: "docs.acme.test" });
    const refused = await approve(second);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/^hostname: /);
    await expect(w.update(second, { basename: "acme" })).rejects.toMatchObject({ code: "conflict" });
    // The same site may set its own values again, and keeps answering for its hostname.
    expect((await w.update(first, { hostname: "docs.acme.test" })).hostnameVerification).toBeUndefined();
    await w.update(first, { hostname: null });
    expect((await approve(second)).status).toBe(200);
    const published = await w.client.publishSite({ organizationId: w.organizationId, siteId: second });
    expect(published.urls.published).toBe("https://docs.acme.test/");
  });

  it("creates site spaces from `spaces`, checks them first and moves the default site space", async () => {
    const w = await setup();
    const { organizationId } = w;
    const [a, b] = [await w.space({ title: "Alpha" }), await w.space({ title: "Beta" })];
    const foreignOrg = await w.organization("Elsewhere");
    const foreign = await w.space({}, foreignOrg);
    for (const spaces of [["missing"], [foreign], [a, a]]) {
      await expect(w.client.createSite({ organizationId, body: { spaces } })).rejects.toMatchObject({
        code: "bad_request",
        message: expect.stringMatching(/body\.spaces\[\d\]/),
      });
    }
    expect((await w.client.listSites({ organizationId })).count).toBe(0);
    const site = await w.create({ spaces: [a, b] });
    const siteSpaces = () =>
      w.storage.read((tx) => tx.list(siteSpacesTable, { index: "bySite", where: [site] }));
    const listed = await siteSpaces();
    expect(listed.map((record) => [record.path, record.default])).toEqual([
      ["alpha", true],
      ["beta", false],
    ]);
    const beta = listed[1]!.id;
    await w.update(site, { defaultSiteSpace: beta });
    expect((await siteSpaces()).map((record) => record.default)).toEqual([false, true]);
    await expect(w.update(site, { title: "Changed", defaultSiteSpace: "nope" })).rejects.toMatchObject({
      code: "bad_request",
      message: expect.stringContaining("body.defaultSiteSpace"),
    });
    expect((await w.stored(sitesTable, site))?.title).not.toBe("Changed");
  });

  it("counts the site spaces readers can reach: a deleted space's leave the count until restored", async () => {
    const w = await setup();
    const [a, b] = [await w.space({ title: "Alpha" }), await w.space({ title: "Beta" })];
    const site = await w.create({ spaces: [a, b] });
    const count = async () =>
      (await w.client.getSiteById({ organizationId: w.organizationId, siteId: site })).siteSpaces;
    expect(await count()).toBe(2);
    // Over HTTP for its 205.
    expect((await w.api("DELETE", `/spaces/${b}`)).status).toBe(205);
    expect(await count()).toBe(1);
    await w.client.restoreSpace({ spaceId: b });
    expect(await count()).toBe(2);
  });
});
