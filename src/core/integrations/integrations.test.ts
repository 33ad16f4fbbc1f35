import { describe, expect, it } from "vitest";
import { integrationDefinition, type PublishBody } from "../../../test/support/integrations.js";
import { createWorkspace } from "../../../test/support/workspace.js";
import type { TestClient } from "../../testing/double.js";
import type { ClientInput } from "../client.js";
import type { Operations } from "../operations.js";
import { installationsTable, integrationsTable } from "./tables.js";

type ListQuery = ClientInput<Operations["listIntegrations"]>;

/**
 * Integration rules: who publishes, who sees what (public, unlisted, private), admin versus read,
 * the publish body's limits with the field named, the name pattern, installations and events.
 */

const definition = integrationDefinition;

async function setup() {
  const w = await createWorkspace();
  const publish = (integrationName: string, extra: Partial<PublishBody> = {}, client = w.client) =>
    client.publishIntegration({ integrationName, body: definition(w.org, extra) });
  const install = (integrationName: string, organization = w.org, client = w.client) =>
    client.installIntegration({ integrationName, body: { organization } });
  return { ...w, publish, install };
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
    expect(first).toMatchObject({
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
    expect(first).not.toHaveProperty("secrets");
    expect(first.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect((await w.stored(integrationsTable, "analytics"))?.secrets).toEqual({ API_KEY: "s3cret" });

    const second = await w.publish("analytics", { visibility: "public" });
    expect(second.version).toBe(2);
    expect(second.signingSecret).toBe(first.signingSecret);
    // A publish replaces the definition; omitted secrets are kept.
    expect(second.blocks).toEqual([]);
    expect((await w.stored(integrationsTable, "analytics"))?.secrets).toEqual({ API_KEY: "s3cret" });
    expect(
      JSON.stringify(await w.client.getIntegrationByName({ integrationName: "analytics" })),
    ).not.toContain("s3cret");
  });

  it("publishes by organization id or hostname: 404 unknown, 403 not its admin", async () => {
    const w = await setup();
    await w.client.updateOrganizationById({ organizationId: w.org, body: { hostname: "acme-docs" } });
    const byHost = await w.client.publishIntegration({
      integrationName: "hosted",
      body: { ...definition("acme-docs") },
    });
    expect(byHost.owner.id).toBe(w.org);
    await expect(
      w.client.publishIntegration({ integrationName: "x", body: definition("no-such-org") }),
    ).rejects.toMatchObject({ code: "not_found", message: expect.stringContaining("body.organization") });
    const editor = await w.member("edit");
    await expect(w.publish("x", {}, editor.client)).rejects.toMatchObject({ code: "forbidden" });
    await expect(w.client.getIntegrationByName({ integrationName: "x" })).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("answers a non-member as for a missing organization, so ids cannot be confirmed", async () => {
    const w = await setup();
    const missing = "no-such-org";
    const answer = async (organization: string) => {
      const { status, body } = await w.outsider("POST", "/integrations/x", definition(organization));
      return { status, body: JSON.stringify(body).replaceAll(organization, "ORG") };
    };
    const existing = await answer(w.org);
    expect(existing.status).toBe(404);
    expect(existing).toEqual(await answer(missing));
    await expect(w.client.getIntegrationByName({ integrationName: "x" })).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("refuses a name owned by another organization, changing nothing", async () => {
    const w = await setup();
    await w.publish("shared", { visibility: "public" });
    const other = await w.organization("Other");
    await expect(
      w.client.publishIntegration({ integrationName: "shared", body: definition(other, { title: "Mine" }) }),
    ).rejects.toMatchObject({ code: "conflict" });
    const kept = await w.client.getIntegrationByName({ integrationName: "shared" });
    expect(kept).toMatchObject({ version: 1, title: "Analytics", owner: { id: w.org } });
  });

  it("checks the name pattern and the body's limits, naming the field", async () => {
    const w = await setup();
    const bad = async (name: string, extra: Partial<PublishBody>, field: string) => {
      await expect(w.publish(name, extra), field).rejects.toMatchObject({
        code: "bad_request",
        message: expect.stringContaining(field),
      });
    };
    // Values of no type the client allows are cast: this test is about the validation messages.
    await bad("bad name!", {}, "integrationName");
    await bad("ok", { title: "A" }, "body.title");
    await bad("ok", { title: "x".repeat(31) }, "body.title");
    await bad("ok", { description: "x".repeat(101) }, "body.description");
    await bad("ok", { summary: "x".repeat(2049) }, "body.summary");
    await bad("ok", { scopes: ["everything" as PublishBody["scopes"][number]] }, "body.scopes");
    await bad("ok", { previewImages: ["AAAA", "AAAA", "AAAA", "AAAA"] }, "body.previewImages");
    await bad("ok", { icon: "not base64!" }, "body.icon");
    await bad(
      "ok",
      { externalLinks: Array(6).fill({ url: "https://a.example", label: "A" }) },
      "body.externalLinks",
    );
    await bad("ok", { blocks: [{ id: "b", title: "B" }] }, "body.blocks.0.title");
    await bad("ok", { visibility: "secret" as PublishBody["visibility"] }, "body.visibility");
    const secrets = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`K${i}`, "v"]));
    await bad("ok", { secrets }, "body.secrets");
    const missing = { organization: w.org, title: "Ok" } as PublishBody;
    await expect(w.client.publishIntegration({ integrationName: "ok", body: missing })).rejects.toMatchObject(
      {
        code: "bad_request",
        message: expect.stringMatching(/body\.(description|script|scopes)/),
      },
    );
    await expect(w.client.getIntegrationByName({ integrationName: "ok" })).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("lists public integrations; unlisted ones by name only; private ones to the owner's members", async () => {
    const w = await setup();
    await w.publish("pub", { visibility: "public", categories: ["analytics"] });
    await w.publish("hidden", { visibility: "unlisted" });
    await w.publish("mine", { visibility: "private" });
    const reader = await w.member("read");
    const names = async (client: TestClient, query: ListQuery = {}) =>
      (await client.listIntegrations(query)).items.map((item) => item.name);
    const outsider = w.outsider.client;

    for (const client of [w.client, reader.client, outsider]) expect(await names(client)).toEqual(["pub"]);
    expect(await names(outsider, { owner: w.org })).toEqual(["pub"]);
    expect(await names(reader.client, { owner: w.org })).toEqual(["hidden", "mine", "pub"]);
    expect(await names(outsider, { owner: "nobody" })).toEqual([]);

    await outsider.getIntegrationByName({ integrationName: "hidden" });
    await expect(outsider.getIntegrationByName({ integrationName: "mine" })).rejects.toMatchObject({
      code: "not_found",
      message: expect.stringContaining("No matching integration found for given name"),
    });
    const seenByReader = await reader.client.getIntegrationByName({ integrationName: "mine" });
    expect(seenByReader.permissions).toEqual({ admin: false });
    expect(seenByReader).not.toHaveProperty("signingSecret");
    const seenByOutsider = await outsider.getIntegrationByName({ integrationName: "pub" });
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
    const names = async (query: ListQuery) =>
      (await w.client.listIntegrations(query)).items.map((item) => item.name);
    expect(await names({ search: "FEED" })).toEqual(["feeds"]);
    expect(await names({ category: "analytics" })).toEqual(["charts"]);
    expect(await names({ scope: "site:metadata:read" })).toEqual(["feeds"]);
    expect(await names({ target: "site" })).toEqual(["anything", "feeds"]);
    // The booleans as a query string carries them.
    expect(await names({ blocks: "true" })).toEqual(["charts"]);
    expect(await names({ blocks: "false" })).toEqual(["anything", "feeds"]);
    expect(await names({ contentSources: "true" })).toEqual(["feeds"]);
    expect(await names({ blockDomain: "example.com" })).toEqual(["charts"]);
    expect(await names({ blockDomain: "other.com" })).toEqual([]);
    // Over HTTP: a category no client type allows.
    expect((await w.api("GET", "/integrations?category=nope")).status).toBe(400);
    const page = await w.client.listIntegrations({ limit: 2 });
    expect(page.count).toBe(3);
    expect((await w.client.listIntegrations({ limit: 2, page: page.next!.page })).items).toHaveLength(1);
  });

  it("unpublishes (205, then 204) as the owner's admin only", async () => {
    const w = await setup();
    await w.publish("gone", { visibility: "public" });
    const reader = await w.member("read");
    for (const { client } of [reader, w.outsider]) {
      await expect(client.unpublishIntegration({ integrationName: "gone" })).rejects.toMatchObject({
        code: "forbidden",
      });
    }
    await w.install("gone");
    // Over HTTP: the delete's 205, then 204.
    expect((await w.api("DELETE", "/integrations/gone")).status).toBe(205);
    expect((await w.api("DELETE", "/integrations/gone")).status).toBe(204);
    await expect(w.client.getIntegrationByName({ integrationName: "gone" })).rejects.toMatchObject({
      code: "not_found",
    });
    expect(
      await w.storage.read((tx) => tx.count(installationsTable, { index: "byIntegration", where: ["gone"] })),
    ).toBe(0);
  });

  it("installs into an organization the caller administers, once, recording an installation_setup event", async () => {
    const w = await setup();
    await w.publish("tool", { visibility: "public" });
    await w.space();
    // Over HTTP: the 201 and its Location header.
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
    await expect(w.install("tool")).rejects.toMatchObject({ code: "conflict" });
    const editor = await w.member("edit");
    const other = await w.organization("Other");
    await expect(w.install("tool", w.org, editor.client)).rejects.toMatchObject({ code: "forbidden" });
    await expect(w.install("tool", other, editor.client)).rejects.toMatchObject({ code: "not_found" });
    await expect(w.install("nope")).rejects.toMatchObject({ code: "not_found" });

    const tool = { integrationName: "tool" };
    const events = await w.client.listIntegrationEvents(tool);
    expect(events.count).toBe(1);
    const event = events.items[0]!;
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
    const detail = await w.client.getIntegrationEvent({ ...tool, eventId: event.id });
    expect(detail.event).toEqual(event);
    expect(detail.trace.logs.at(-1)).toMatchObject({
      level: "info",
      message: expect.stringContaining("No receiver was set"),
    });
    await expect(w.client.getIntegrationEvent({ ...tool, eventId: "unknown" })).rejects.toMatchObject({
      code: "not_found",
    });
    // A reader of the organization sees the installation, not the events.
    const { client: reader } = await w.member("read");
    expect((await reader.listIntegrationInstallations(tool)).count).toBe(1);
    expect((await reader.listIntegrationEvents(tool)).count).toBe(0);
    await expect(reader.getIntegrationEvent({ ...tool, eventId: event.id })).rejects.toMatchObject({
      code: "not_found",
    });
    expect((await w.outsider.client.listIntegrationInstallations(tool)).count).toBe(0);
  });

  it("filters installations by external id", async () => {
    const w = await setup();
    await w.publish("ext", { visibility: "public" });
    const { id } = await w.install("ext");
    await w.storage.write(async (tx) => {
      const installation = (await tx.get(installationsTable, id))!;
      await tx.put(installationsTable, { ...installation, externalIds: ["acct-1"] });
    });
    const count = async (externalId: string) =>
      (await w.client.listIntegrationInstallations({ integrationName: "ext", externalId })).count;
    expect(await count("acct-1")).toBe(1);
    expect(await count("acct-2")).toBe(0);
  });

  it("lists space and site installations as ids or, extended, as full objects", async () => {
    const w = await setup();
    await w.publish("both", { visibility: "public" });
    await w.publish("sites-only", { visibility: "public", target: "site" });
    const space = await w.space({ title: "Guide" });
    const site = (await w.client.createSite({ organizationId: w.org, body: { title: "Docs" } })).id;
    for (const name of ["both", "sites-only"]) await w.install(name);
    const both = { integrationName: "both" };
    const sitesOnly = { integrationName: "sites-only" };
    const spaces = await w.client.listIntegrationSpaceInstallations(both);
    expect(spaces.items).toEqual([
      expect.objectContaining({ integration: "both", space, status: "active", externalIds: [] }),
    ]);
    const extended = await w.client.listIntegrationSpaceInstallations({ ...both, extended: "true" });
    expect(extended.items[0]!.space).toMatchObject({ object: "space", id: space, title: "Guide" });
    const sites = await w.client.listIntegrationSiteInstallations({ ...both, extended: "true" });
    expect(sites.items[0]!.site).toMatchObject({ object: "site", id: site, title: "Docs" });
    expect((await w.client.listIntegrationSiteInstallations(both)).items[0]!.site).toBe(site);
    expect((await w.client.listIntegrationSpaceInstallations(sitesOnly)).count).toBe(0);
    expect((await w.client.listIntegrationSiteInstallations(sitesOnly)).count).toBe(1);
    expect((await w.outsider.client.listIntegrationSpaceInstallations(both)).count).toBe(0);
    const second = await w.space({ title: "Second" });
    const first = await w.client.listIntegrationSpaceInstallations({ ...both, limit: 1 });
    expect(first.count).toBe(2);
    const rest = await w.client.listIntegrationSpaceInstallations({
      ...both,
      limit: 1,
      page: first.next!.page,
    });
    expect([...first.items, ...rest.items].map((entry) => entry.space)).toEqual([space, second]);
    expect(rest.next).toBeUndefined();
  });

  it("sets and clears development mode as the owner's admin", async () => {
    const w = await setup();
    await w.publish("dev", { visibility: "public" });
    const reader = await w.member("read");
    const body = { tunnelUrl: "https://tunnel.example/hook", all: true };
    const dev = { integrationName: "dev" };
    await expect(reader.client.setIntegrationDevelopmentMode({ ...dev, body })).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(
      w.client.setIntegrationDevelopmentMode({ ...dev, body: { tunnelUrl: "ftp://x" } }),
    ).rejects.toMatchObject({ code: "bad_request" });
    await expect(
      w.client.setIntegrationDevelopmentMode({ integrationName: "nope", body }),
    ).rejects.toMatchObject({ code: "not_found" });
    // No content: the call resolves to nothing.
    expect(await w.client.setIntegrationDevelopmentMode({ ...dev, body })).toBeUndefined();
    expect((await w.stored(integrationsTable, "dev"))?.dev).toEqual(body);
    // Over HTTP: the delete's 205.
    expect((await w.api("DELETE", "/integrations/dev/dev")).status).toBe(205);
    expect((await w.stored(integrationsTable, "dev"))?.dev).toBeUndefined();
  });
});
