import { describe, expect, it } from "vitest";
import { createWorkspace } from "../../../test/support/workspace.js";
import { installationsTable, integrationsTable } from "./tables.js";

/**
 * Integration rules: who publishes, who sees what (public, unlisted, private), admin versus read,
 * the publish body's limits with the field named, the name pattern, installations and events.
 */

const definition = (organization: string, extra: object = {}) => ({
  organization,
  title: "Analytics",
  description: "Counts page views",
  script: "export default {}",
  scopes: ["space:content:read"],
  ...extra,
});

async function setup() {
  const w = await createWorkspace();
  const publish = (name: string, extra: object = {}, as = w.api) =>
    as("POST", `/integrations/${name}`, definition(w.org, extra));
  return { ...w, publish };
}

describe("integrations", () => {
  it("publishes version 1, then +1 per publish, storing every field and returning no secrets", async () => {
    const w = await setup();
    const first = await w.publish("analytics", {
      visibility: "public",
      summary: "# Analytics",
      target: "space",
      categories: ["analytics"],
      blocks: [
        {
          id: "chart",
          title: "Chart",
          description: "A chart",
          urlUnfurl: ["https://charts.example.com/**"],
          markdown: { codeblock: "chart", body: "data" },
        },
      ],
      contentSources: [{ id: "feed", title: "Feed", configuration: { componentId: "configure" } }],
      configurations: {
        account: { properties: { key: { type: "string", title: "Key" } }, required: ["key"] },
        space: { componentId: "space-config" },
      },
      externalLinks: [{ url: "https://example.com", label: "Home" }],
      secrets: { API_KEY: "s3cret" },
      contentSecurityPolicy: { "script-src": "'self'" },
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      object: "integration",
      name: "analytics",
      version: 1,
      runtime: "v1",
      title: "Analytics",
      summary: "# Analytics",
      visibility: "public",
      target: "space",
      scopes: ["space:content:read"],
      categories: ["analytics"],
      blocks: [{ id: "chart", markdown: { codeblock: "chart", body: "data" } }],
      contentSources: [{ id: "feed", configuration: { componentId: "configure" } }],
      configurations: { account: { required: ["key"] }, space: { componentId: "space-config" } },
      externalLinks: [{ url: "https://example.com", label: "Home" }],
      contentSecurityPolicy: { "script-src": "'self'" },
      owner: { id: w.org },
      permissions: { admin: true },
      urls: { location: "http://docsbase.test/v1/integrations/analytics" },
    });
    expect(first.body).not.toHaveProperty("secrets");
    expect(first.body.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect((await w.stored(integrationsTable, "analytics"))?.secrets).toEqual({ API_KEY: "s3cret" });

    const second = await w.publish("analytics", { visibility: "public" });
    expect(second.body.version).toBe(2);
    expect(second.body.signingSecret).toBe(first.body.signingSecret);
    // A publish replaces the definition; omitted secrets are kept.
    expect(second.body.blocks).toEqual([]);
    expect((await w.stored(integrationsTable, "analytics"))?.secrets).toEqual({ API_KEY: "s3cret" });
    expect(JSON.stringify((await w.api("GET", "/integrations/analytics")).body)).not.toContain("s3cret");
  });

  it("publishes by organization id or hostname: 404 unknown, 403 not its admin", async () => {
    const w = await setup();
    await w.api("PATCH", `/orgs/${w.org}`, { hostname: "acme-docs" });
    const byHost = await w.api("POST", "/integrations/hosted", { ...definition("acme-docs") });
    expect(byHost.status).toBe(200);
    expect(byHost.body.owner.id).toBe(w.org);
    const unknown = await w.api("POST", "/integrations/x", definition("no-such-org"));
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain("body.organization");
    const editor = await w.member("edit");
    expect((await w.publish("x", {}, editor)).status).toBe(403);
    expect((await w.publish("x", {}, w.outsider)).status).toBe(403);
    expect((await w.api("GET", "/integrations/x")).status).toBe(404);
  });

  it("refuses a name owned by another organization, changing nothing", async () => {
    const w = await setup();
    await w.publish("shared", { visibility: "public" });
    const other = await w.organization("Other");
    const taken = await w.api("POST", "/integrations/shared", definition(other, { title: "Mine" }));
    expect(taken.status).toBe(409);
    const kept = (await w.api("GET", "/integrations/shared")).body;
    expect(kept).toMatchObject({ version: 1, title: "Analytics", owner: { id: w.org } });
  });

  it("checks the name pattern and the body's limits, naming the field", async () => {
    const w = await setup();
    const bad = async (name: string, extra: object, field: string) => {
      const response = await w.publish(name, extra);
      expect(response.status, field).toBe(400);
      expect(response.body.error.message).toContain(field);
    };
    await bad("bad name!", {}, "integrationName");
    await bad("ok", { title: "A" }, "body.title");
    await bad("ok", { title: "x".repeat(31) }, "body.title");
    await bad("ok", { description: "x".repeat(101) }, "body.description");
    await bad("ok", { summary: "x".repeat(2049) }, "body.summary");
    await bad("ok", { scopes: ["everything"] }, "body.scopes");
    await bad("ok", { previewImages: ["AAAA", "AAAA", "AAAA", "AAAA"] }, "body.previewImages");
    await bad("ok", { icon: "not base64!" }, "body.icon");
    await bad(
      "ok",
      { externalLinks: Array(6).fill({ url: "https://a.example", label: "A" }) },
      "body.externalLinks",
    );
    await bad("ok", { blocks: [{ id: "b", title: "B" }] }, "body.blocks.0.title");
    await bad("ok", { visibility: "secret" }, "body.visibility");
    const secrets = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`K${i}`, "v"]));
    await bad("ok", { secrets }, "body.secrets");
    const missing = await w.api("POST", "/integrations/ok", { organization: w.org, title: "Ok" });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/body\.(description|script|scopes)/);
    expect((await w.api("GET", "/integrations/ok")).status).toBe(404);
  });

  it("lists public integrations; unlisted ones by name only; private ones to the owner's members", async () => {
    const w = await setup();
    await w.publish("pub", { visibility: "public", categories: ["analytics"] });
    await w.publish("hidden", { visibility: "unlisted" });
    await w.publish("mine", { visibility: "private" });
    const reader = await w.member("read");
    const names = async (as: typeof w.api, query = "") =>
      (await as("GET", `/integrations${query}`)).body.items.map((item: { name: string }) => item.name);

    for (const as of [w.api, reader, w.outsider]) expect(await names(as)).toEqual(["pub"]);
    expect(await names(w.outsider, `?owner=${w.org}`)).toEqual(["pub"]);
    expect(await names(reader, `?owner=${w.org}`)).toEqual(["hidden", "mine", "pub"]);
    expect(await names(w.outsider, "?owner=nobody")).toEqual([]);

    expect((await w.outsider("GET", "/integrations/hidden")).status).toBe(200);
    const hiddenPrivate = await w.outsider("GET", "/integrations/mine");
    expect(hiddenPrivate.status).toBe(404);
    expect(hiddenPrivate.body.error.message).toContain("No matching integration found for given name");
    const seenByReader = (await reader("GET", "/integrations/mine")).body;
    expect(seenByReader.permissions).toEqual({ admin: false });
    expect(seenByReader).not.toHaveProperty("signingSecret");
    const seenByOutsider = (await w.outsider("GET", "/integrations/pub")).body;
    expect(seenByOutsider).not.toHaveProperty("signingSecret");
    expect(seenByOutsider.owner).toMatchObject({ id: w.org, emailDomains: [], permissions: { view: false } });
  });

  it("filters the list by search, category, scope, target, blocks, content sources and block domain", async () => {
    const w = await setup();
    await w.publish("charts", {
      visibility: "public",
      categories: ["analytics"],
      target: "space",
      blocks: [{ id: "c", title: "Chart", urlUnfurl: ["https://*.charts.example.com/**"] }],
    });
    await w.publish("feeds", {
      visibility: "public",
      title: "Feeds",
      scopes: ["site:metadata:read"],
      target: "site",
      contentSources: [{ id: "f", title: "Feed", configuration: { componentId: "x" } }],
    });
    await w.publish("anything", { visibility: "public", title: "Everything" });
    const names = async (query: string) =>
      (await w.api("GET", `/integrations?${query}`)).body.items.map((item: { name: string }) => item.name);
    expect(await names("search=FEED")).toEqual(["feeds"]);
    expect(await names("category=analytics")).toEqual(["charts"]);
    expect(await names("scope=site:metadata:read")).toEqual(["feeds"]);
    expect(await names("target=site")).toEqual(["anything", "feeds"]);
    expect(await names("blocks=true")).toEqual(["charts"]);
    expect(await names("blocks=false")).toEqual(["anything", "feeds"]);
    expect(await names("contentSources=true")).toEqual(["feeds"]);
    expect(await names("blockDomain=example.com")).toEqual(["charts"]);
    expect(await names("blockDomain=other.com")).toEqual([]);
    expect((await w.api("GET", "/integrations?category=nope")).status).toBe(400);
    const page = (await w.api("GET", "/integrations?limit=2")).body;
    expect(page.count).toBe(3);
    expect((await w.api("GET", `/integrations?limit=2&page=${page.next.page}`)).body.items).toHaveLength(1);
  });

  it("unpublishes (205, then 204) as the owner's admin only", async () => {
    const w = await setup();
    await w.publish("gone", { visibility: "public" });
    const reader = await w.member("read");
    expect((await reader("DELETE", "/integrations/gone")).status).toBe(403);
    expect((await w.outsider("DELETE", "/integrations/gone")).status).toBe(403);
    await w.api("POST", "/integrations/gone/installations", { organization: w.org });
    expect((await w.api("DELETE", "/integrations/gone")).status).toBe(205);
    expect((await w.api("DELETE", "/integrations/gone")).status).toBe(204);
    expect((await w.api("GET", "/integrations/gone")).status).toBe(404);
    expect(
      await w.storage.read((tx) => tx.count(installationsTable, { index: "byIntegration", where: ["gone"] })),
    ).toBe(0);
  });

  it("installs into an organization the caller administers, once, recording an installation_setup event", async () => {
    const w = await setup();
    await w.publish("tool", { visibility: "public" });
    await w.space();
    const created = await w.api("POST", "/integrations/tool/installations", { organization: w.org });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(
      `http://docsbase.test/v1/integrations/tool/installations/${created.body.id}`,
    );
    expect(created.body).toMatchObject({
      status: "active",
      space_selection: "all",
      site_selection: "all",
      spaces: 1,
      externalIds: [],
      target: { organization: w.org },
    });
    expect((await w.api("POST", "/integrations/tool/installations", { organization: w.org })).status).toBe(
      409,
    );
    const editor = await w.member("edit");
    const other = await w.organization("Other");
    expect((await editor("POST", "/integrations/tool/installations", { organization: w.org })).status).toBe(
      403,
    );
    expect((await editor("POST", "/integrations/tool/installations", { organization: other })).status).toBe(
      404,
    );
    expect((await w.api("POST", "/integrations/nope/installations", { organization: w.org })).status).toBe(
      404,
    );

    const events = (await w.api("GET", "/integrations/tool/events")).body;
    expect(events.count).toBe(1);
    const [event] = events.items;
    expect(event).toMatchObject({
      integrationId: "tool",
      installationId: created.body.id,
      status: "success",
      payload: {
        eventId: event.id,
        type: "installation_setup",
        installationId: created.body.id,
        status: "active",
      },
    });
    const detail = (await w.api("GET", `/integrations/tool/events/${event.id}`)).body;
    expect(detail.event).toEqual(event);
    expect(detail.trace.logs.at(-1)).toMatchObject({
      level: "info",
      message: expect.stringContaining("No receiver was set"),
    });
    expect((await w.api("GET", "/integrations/tool/events/unknown")).status).toBe(404);
    // A reader of the organization sees the installation, not the events.
    const reader = await w.member("read");
    expect((await reader("GET", "/integrations/tool/installations")).body.count).toBe(1);
    expect((await reader("GET", "/integrations/tool/events")).body.count).toBe(0);
    expect((await reader("GET", `/integrations/tool/events/${event.id}`)).status).toBe(404);
    expect((await w.outsider("GET", "/integrations/tool/installations")).body.count).toBe(0);
  });

  it("filters installations by external id", async () => {
    const w = await setup();
    await w.publish("ext", { visibility: "public" });
    const { id } = (await w.api("POST", "/integrations/ext/installations", { organization: w.org })).body;
    await w.storage.write(async (tx) => {
      const installation = (await tx.get(installationsTable, id))!;
      await tx.put(installationsTable, { ...installation, externalIds: ["acct-1"] });
    });
    const count = async (externalId: string) =>
      (await w.api("GET", `/integrations/ext/installations?externalId=${externalId}`)).body.count;
    expect(await count("acct-1")).toBe(1);
    expect(await count("acct-2")).toBe(0);
  });

  it("lists space and site installations as ids or, extended, as full objects", async () => {
    const w = await setup();
    await w.publish("both", { visibility: "public" });
    await w.publish("sites-only", { visibility: "public", target: "site" });
    const space = await w.space({ title: "Guide" });
    const site = (await w.api("POST", `/orgs/${w.org}/sites`, { title: "Docs" })).body.id;
    for (const name of ["both", "sites-only"]) {
      await w.api("POST", `/integrations/${name}/installations`, { organization: w.org });
    }
    const spaces = (await w.api("GET", "/integrations/both/spaces")).body;
    expect(spaces.items).toEqual([
      expect.objectContaining({ integration: "both", space, status: "active", externalIds: [] }),
    ]);
    const extended = (await w.api("GET", "/integrations/both/spaces?extended=true")).body;
    expect(extended.items[0].space).toMatchObject({ object: "space", id: space, title: "Guide" });
    const sites = (await w.api("GET", "/integrations/both/sites?extended=true")).body;
    expect(sites.items[0].site).toMatchObject({ object: "site", id: site, title: "Docs" });
    expect((await w.api("GET", "/integrations/both/sites")).body.items[0].site).toBe(site);
    expect((await w.api("GET", "/integrations/sites-only/spaces")).body.count).toBe(0);
    expect((await w.api("GET", "/integrations/sites-only/sites")).body.count).toBe(1);
    expect((await w.outsider("GET", "/integrations/both/spaces")).body.count).toBe(0);
    const second = await w.space({ title: "Second" });
    const first = (await w.api("GET", "/integrations/both/spaces?limit=1")).body;
    expect(first.count).toBe(2);
    const rest = (await w.api("GET", `/integrations/both/spaces?limit=1&page=${first.next.page}`)).body;
    expect([...first.items, ...rest.items].map((entry) => entry.space)).toEqual([space, second]);
    expect(rest.next).toBeUndefined();
  });

  it("sets and clears development mode as the owner's admin", async () => {
    const w = await setup();
    await w.publish("dev", { visibility: "public" });
    const reader = await w.member("read");
    const body = { tunnelUrl: "https://tunnel.example/hook", all: true };
    expect((await reader("PUT", "/integrations/dev/dev", body)).status).toBe(403);
    expect((await w.api("PUT", "/integrations/dev/dev", { tunnelUrl: "ftp://x" })).status).toBe(400);
    expect((await w.api("PUT", "/integrations/nope/dev", body)).status).toBe(404);
    expect((await w.api("PUT", "/integrations/dev/dev", body)).status).toBe(204);
    expect((await w.stored(integrationsTable, "dev"))?.dev).toEqual(body);
    expect((await w.api("DELETE", "/integrations/dev/dev")).status).toBe(205);
    expect((await w.stored(integrationsTable, "dev"))?.dev).toBeUndefined();
  });
});
