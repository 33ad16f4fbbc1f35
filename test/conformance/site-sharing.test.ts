import type { SiteAdaptiveJSONSchema } from "@gitbook/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COVERAGE } from "./coverage.js";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";

describe.each(STORAGE_KINDS)("conformance: site sharing (%s)", (kind) => {
  let h: Harness;
  let organizations = 0;
  beforeAll(async () => {
    h = await createHarness(kind);
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.site_sharing);
    h.expectConformant();
    await h.close();
  });

  /** An admin with an organization of their own, a site in it, and their client. */
  async function owner(visibility: "share-link" | "visitor-auth") {
    organizations++;
    const user = await h.test.createUser("Owner", `owner-${organizations}-${kind}@sharing.test`);
    const api = h.client(user.token);
    const org = (await h.test.as(user).createOrganization({ body: { title: "Publisher" } })).id;
    const { data: site } = await api.orgs.createSite(org, {
      title: "Handbook",
      visibility: visibility as never,
    });
    return { api, org, site: site.id };
  }

  it("creates, lists, updates and deletes share links", async () => {
    const { api, org, site } = await owner("share-link");
    const {
      data: link,
      status,
      headers,
    } = await api.orgs.createSiteShareLink(org, site, { name: "Reviewers" });
    expect(status).toBe(201);
    expect(headers.get("location")).toBe(
      `${h.test.endpoint}/v1/orgs/${org}/sites/${site}/share-links/${link.id}`,
    );
    expect(link).toMatchObject({ object: "share-link", name: "Reviewers", active: true, urls: {} });
    const token = (link as { token?: string }).token;
    expect(token).toMatch(/^[A-Za-z0-9]{40}$/);
    const { data: second } = await api.orgs.createSiteShareLink(org, site, { name: "n".repeat(50) });

    await api.orgs.publishSite(org, site);
    const { data: listed } = await api.orgs.listSiteShareLinks(org, site);
    expect(listed.count).toBe(2);
    const first = listed.items.find((item) => item.id === link.id);
    expect(first?.urls.published).toBe(`${h.test.endpoint}/sites/${site}/?share=${token}`);
    const { data: paged } = await api.orgs.listSiteShareLinks(org, site, { limit: 1 });
    expect(paged.items).toHaveLength(1);
    expect(paged.next?.page).toBeDefined();

    const { data: off } = await api.orgs.updateSiteShareLinkById(org, site, link.id, { active: false });
    expect(off).toMatchObject({ id: link.id, active: false, name: "Reviewers" });
    const { data: renamed } = await api.orgs.updateSiteShareLinkById(org, site, link.id, {
      name: "Partners",
      active: true,
    });
    expect(renamed).toMatchObject({ active: true, name: "Partners" });
    expect(await statusOf(api.orgs.createSiteShareLink(org, site, { name: "n".repeat(51) }))).toBe(400);
    expect(await statusOf(api.orgs.updateSiteShareLinkById(org, site, link.id, {}))).toBe(400);
    expect(await statusOf(api.orgs.updateSiteShareLinkById(org, site, "unknown", { active: true }))).toBe(
      404,
    );

    expect((await api.orgs.deleteSiteShareLinkById(org, site, second.id)).status).toBe(205);
    expect((await api.orgs.deleteSiteShareLinkById(org, site, second.id)).status).toBe(204);
    expect((await api.orgs.listSiteShareLinks(org, site)).data.items.map((item) => item.id)).toEqual([
      link.id,
    ]);
  });

  it("reads and replaces the adaptive schema and lists its template conditions", async () => {
    const { api, org, site } = await owner("visitor-auth");
    const { data: initial } = await api.orgs.getSiteAdaptiveSchema(org, site);
    expect(initial).toMatchObject({ object: "site-adaptive-schema", jsonSchema: { type: "object" } });
    expect((await api.orgs.listSiteAdaptiveTemplateConditions(org, site)).data.items).toEqual([]);

    const jsonSchema = {
      type: "object",
      properties: {
        plan: { type: "string", enum: ["free", "pro"], description: "The visitor's plan" },
        unsigned: {
          type: "object",
          description: "Unsigned claims of the site visitor.",
          properties: { beta: { type: "boolean", description: "Joined the beta" } },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    } as unknown as SiteAdaptiveJSONSchema;
    const { data: updated } = await api.orgs.updateSiteAdaptiveSchema(org, site, { jsonSchema });
    expect(updated).toMatchObject({ object: "site-adaptive-schema", jsonSchema });
    expect((await api.orgs.getSiteAdaptiveSchema(org, site)).data).toEqual(updated);
    const { data: templates } = await api.orgs.listSiteAdaptiveTemplateConditions(org, site);
    expect(templates.items.map((item) => item.condition)).toEqual([
      'visitor.claims.plan == "free"',
      "visitor.claims.unsigned.beta",
    ]);
    const bad = { ...jsonSchema, additionalProperties: true } as unknown as SiteAdaptiveJSONSchema;
    expect(await statusOf(api.orgs.updateSiteAdaptiveSchema(org, site, { jsonSchema: bad }))).toBe(400);
    expect((await api.orgs.getSiteAdaptiveSchema(org, site)).data).toEqual(updated);
  });

  it("shows the publishing auth's private key and regenerates it", async () => {
    const { api, org, site } = await owner("visitor-auth");
    const { data: auth } = await api.orgs.getSitePublishingAuthById(org, site);
    expect(auth).toMatchObject({ object: "publishing-auth", backend: "custom" });
    expect(auth.privateKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const { data: regenerated } = await api.orgs.regenerateSitePublishingAuthById(org, site);
    expect(regenerated.privateKey).not.toBe(auth.privateKey);
    expect((await api.orgs.getSitePublishingAuthById(org, site)).data.privateKey).toBe(
      regenerated.privateKey,
    );
    expect(await statusOf(api.orgs.getSitePublishingAuthById(org, "unknown"))).toBe(404);
  });
});
