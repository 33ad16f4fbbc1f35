import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { DEFAULT_ADAPTIVE_SCHEMA, UNSIGNED_DESCRIPTION } from "../visitors/adaptive.js";
import { parseCondition } from "../visitors/conditions.js";
import { sitesTable } from "./tables.js";

/** The adaptive-schema operations: default, replacement, refusals naming the property, roles. */
describe("adaptive schema operations", () => {
  async function setup() {
    const w = await createWorkspace();
    const site = (await w.api("POST", `/orgs/${w.org}/sites`, {})).body.id as string;
    const schema = `/orgs/${w.org}/sites/${site}/adaptive-schema`;
    return { ...w, site, schema, templates: `${schema}/template-conditions` };
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
    const got = await w.api("GET", w.schema);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      object: "site-adaptive-schema",
      jsonSchema: DEFAULT_ADAPTIVE_SCHEMA,
      updatedAt: createdAt,
    });
    expect((await w.api("GET", w.templates)).body).toEqual({ items: [] });
  });

  it("replaces the schema, stamps updatedAt and derives one valid template condition per claim", async () => {
    const w = await setup();
    w.advance(60_000);
    const put = await w.api("PUT", w.schema, { jsonSchema: SCHEMA });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({
      object: "site-adaptive-schema",
      jsonSchema: SCHEMA,
      updatedAt: "2025-01-01T00:01:00.000Z",
    });
    expect((await w.api("GET", w.schema)).body).toEqual(put.body);
    expect((await w.stored(sitesTable, w.site))?.adaptiveSchema?.jsonSchema).toEqual(SCHEMA);
    const { items } = (await w.api("GET", w.templates)).body as {
      items: { description: string; condition: string }[];
    };
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
  ])("refuses %j with 400 naming %s, keeping the stored schema", async (jsonSchema, property) => {
    const w = await setup();
    await w.api("PUT", w.schema, { jsonSchema: SCHEMA });
    const before = await w.stored(sitesTable, w.site);
    const refused = await w.api("PUT", w.schema, { jsonSchema });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain(property);
    expect(await w.stored(sitesTable, w.site)).toEqual(before);
  });

  it("refuses a body without jsonSchema", async () => {
    const w = await setup();
    const refused = await w.api("PUT", w.schema, {});
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain("body.jsonSchema");
    expect((await w.stored(sitesTable, w.site))?.adaptiveSchema).toBeUndefined();
  });

  it("lets read members read the schema and its templates, only admins change it; others get 404", async () => {
    const w = await setup();
    const reader = await w.member("read");
    const editor = await w.member("edit");
    for (const member of [reader, editor]) {
      expect((await member("GET", w.schema)).status).toBe(200);
      expect((await member("GET", w.templates)).status).toBe(200);
      expect((await member("PUT", w.schema, { jsonSchema: SCHEMA })).status).toBe(403);
    }
    const guest = await w.member(null);
    for (const stranger of [guest, w.outsider]) {
      expect((await stranger("GET", w.schema)).status).toBe(404);
      expect((await stranger("GET", w.templates)).status).toBe(404);
      expect((await stranger("PUT", w.schema, { jsonSchema: SCHEMA })).status).toBe(404);
    }
    expect((await w.stored(sitesTable, w.site))?.adaptiveSchema).toBeUndefined();
  });
});
