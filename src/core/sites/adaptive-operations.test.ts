import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { DEFAULT_ADAPTIVE_SCHEMA, UNSIGNED_DESCRIPTION } from "../visitors/adaptive.js";
import { parseCondition } from "../visitors/conditions.js";
import { sitesTable } from "./tables.js";

/** The adaptive-schema operations: default, replacement, refusals naming the property, roles. */
describe("adaptive schema operations", () => {
  async function setup() {
    const w = await createWorkspace();
    const site = (await w.client.createSite({ organizationId: w.org, body: {} })).id;
    const schema = `/orgs/${w.org}/sites/${site}/adaptive-schema`;
    return { ...w, site, schema, at: { organizationId: w.org, siteId: site } };
  }

  const SCHEMA = {
    type: "object",
    properties: {
      plan: { type: "string", enum: ["free", "pro"], description: "The visitor's plan" },
      beta: { type: "boolean", description: "Joined the beta" },
      unsigned: {
        type: "object",
        description: UNSIGNED_DESCRIPTION,
        properties: { seats: { type: "number", description: "Seats" } },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  };

  it("answers the default schema since the site's creation until one is set", async () => {
    const w = await setup();
    const createdAt = (await w.stored(sitesTable, w.site))?.createdAt;
    const got = await w.client.getSiteAdaptiveSchema(w.at);
    expect(got).toEqual({
      object: "site-adaptive-schema",
      jsonSchema: DEFAULT_ADAPTIVE_SCHEMA,
      updatedAt: createdAt,
    });
    expect(await w.client.listSiteAdaptiveTemplateConditions(w.at)).toEqual({ items: [] });
  });

  it("replaces the schema, stamps updatedAt and derives one valid template condition per claim", async () => {
    const w = await setup();
    w.advance(60_000);
    const put = await w.client.updateSiteAdaptiveSchema({ ...w.at, body: { jsonSchema: SCHEMA } });
    expect(put).toEqual({
      object: "site-adaptive-schema",
      jsonSchema: SCHEMA,
      updatedAt: "2025-01-01T00:01:00.000Z",
    });
    expect(await w.client.getSiteAdaptiveSchema(w.at)).toEqual(put);
    expect((await w.stored(sitesTable, w.site))?.adaptiveSchema?.jsonSchema).toEqual(SCHEMA);
    const { items } = await w.client.listSiteAdaptiveTemplateConditions(w.at);
    expect(items.map((item) => item.condition)).toEqual([
      'visitor.claims.plan == "free"',
      "visitor.claims.beta",
      "visitor.claims.unsigned.seats > 0",
    ]);
    for (const item of items) {
      expect(item.description).not.toBe("");
      expect(() => parseCondition(item.condition)).not.toThrow();
    }
  });

  it.each([
    [{ ...SCHEMA, additionalProperties: true }, "body.jsonSchema.additionalProperties"],
    [{ ...SCHEMA, properties: { plan: { type: "string" } } }, "body.jsonSchema.properties.plan.description"],
    [
      { ...SCHEMA, properties: { when: { type: "date", description: "When" } } },
      "body.jsonSchema.properties.when.type",
    ],
    [{ ...SCHEMA, extra: 1 }, "body.jsonSchema.extra"],
    ["not an object", "body.jsonSchema"],
  ])("refuses %j with 400 naming %s, keeping the stored schema", async (jsonSchema: unknown, property) => {
    const w = await setup();
    await w.client.updateSiteAdaptiveSchema({ ...w.at, body: { jsonSchema: SCHEMA } });
    const before = await w.stored(sitesTable, w.site);
    // A test of validation messages: a string is no schema the client type allows, hence the cast.
    const refused = w.client.updateSiteAdaptiveSchema({
      ...w.at,
      body: { jsonSchema: jsonSchema as Record<string, unknown> },
    });
    await expect(refused).rejects.toMatchObject({
      code: "bad_request",
      message: expect.stringContaining(property),
    });
    expect(await w.stored(sitesTable, w.site)).toEqual(before);
  });

  it("refuses a body without jsonSchema", async () => {
    const w = await setup();
    // Over HTTP: no client type allows a body without jsonSchema.
    const refused = await w.api("PUT", w.schema, {});
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain("body.jsonSchema");
    expect((await w.stored(sitesTable, w.site))?.adaptiveSchema).toBeUndefined();
  });

  it("lets read members read the schema and its templates, only admins change it; others get 404", async () => {
    const w = await setup();
    const reader = (await w.member("read")).client;
    const editor = (await w.member("edit")).client;
    const put = { ...w.at, body: { jsonSchema: SCHEMA } };
    for (const member of [reader, editor]) {
      await member.getSiteAdaptiveSchema(w.at);
      await member.listSiteAdaptiveTemplateConditions(w.at);
      await expect(member.updateSiteAdaptiveSchema(put)).rejects.toMatchObject({ code: "forbidden" });
    }
    const guest = (await w.member(null)).client;
    for (const stranger of [guest, w.outsider.client]) {
      await expect(stranger.getSiteAdaptiveSchema(w.at)).rejects.toMatchObject({ code: "not_found" });
      await expect(stranger.listSiteAdaptiveTemplateConditions(w.at)).rejects.toMatchObject({
        code: "not_found",
      });
      await expect(stranger.updateSiteAdaptiveSchema(put)).rejects.toMatchObject({ code: "not_found" });
    }
    expect((await w.stored(sitesTable, w.site))?.adaptiveSchema).toBeUndefined();
  });
});
