import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COVERAGE } from "./coverage.js";
import { randomId } from "../../src/core/shared/world.js";
import { issueIntegrationToken } from "../../src/core/users/integration-token.js";
import { createHarness, STORAGE_KINDS, statusOf, type Harness } from "./harness.js";

describe.each(STORAGE_KINDS)("conformance: integrations (%s)", (kind) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness(kind);
  });
  afterAll(async () => {
    h.expectCovered(COVERAGE.integrations);
    h.expectConformant();
    await h.close();
  });

  /** A user with an organization of their own, a space and a site in it, and their client. */
  async function developer(name: string) {
    const user = await h.test.createUser(name, `${name}-${kind}@integrations.test`);
    const api = h.client(user.token);
    const org = (await h.test.as(user).createOrganization({ body: { title: name } })).id;
    const { data: space } = await api.orgs.createSpace(org, { title: "Guide" });
    const { data: site } = await api.orgs.createSite(org, { title: "Docs" });
    return { api, org, space: space.id, site: site.id };
  }

  const definition = (organization: string) => ({
    organization,
    title: "Analytics",
    description: "Counts page views",
    script: "export default {}",
    scopes: ["space:content:read" as never],
    visibility: "public" as never,
    categories: ["analytics" as never],
    blocks: [{ id: "chart", title: "Chart", urlUnfurl: ["https://charts.example.com/**"] }],
    externalLinks: [{ url: "https://example.com", label: "Home" }],
    configurations: { account: { properties: { key: { type: "string" as const, title: "Key" } } } },
    secrets: { API_KEY: "s3cret" },
    // Linked in answers, as URLs the reference types `uri` (issue 28, item 3).
    icon: btoa("\x89PNG\r\n\x1a\n"),
    previewImages: [btoa("\x89PNG\r\n\x1a\n")],
  });

  it("publishes, lists, gets and unpublishes integrations", async () => {
    const { api, org } = await developer("publisher");
    const name = `analytics-${kind}`;
    const { data: published, status } = await api.integrations.publishIntegration(name, definition(org));
    expect(status).toBe(200);
    expect(published).toMatchObject({ name, version: 1, owner: { id: org }, permissions: { admin: true } });
    expect(published).not.toHaveProperty("secrets");
    const { data: again } = await api.integrations.publishIntegration(name, definition(org));
    expect(again.version).toBe(2);

    const { data: listed } = await api.integrations.listIntegrations({
      search: "analytics",
      category: "analytics" as never,
    });
    expect(listed.items.map((item) => item.name)).toContain(name);
    const { data: owned } = await api.integrations.listIntegrations({ owner: org, blocks: true });
    expect(owned.items.map((item) => item.name)).toEqual([name]);
    const { data: got } = await api.integrations.getIntegrationByName(name);
    expect(got).toMatchObject({ name, version: 2 });
    expect(got.previewImages).toHaveLength(1);
    expect((await h.test.fetch(got.urls.icon!)).headers.get("content-type")).toBe("image/png");
    expect(await statusOf(api.integrations.getIntegrationByName("no-such-integration"))).toBe(404);
    expect(
      await statusOf(api.integrations.publishIntegration(name, { ...definition(org), title: "A" })),
    ).toBe(400);
    expect(await statusOf(api.integrations.publishIntegration("x", definition("no-such-org")))).toBe(404);

    const outsider = await developer("outsider");
    expect(await statusOf(outsider.api.integrations.publishIntegration(name, definition(outsider.org)))).toBe(
      409,
    );
    expect(await statusOf(outsider.api.integrations.unpublishIntegration(name))).toBe(403);
    expect((await api.integrations.unpublishIntegration(name)).status).toBe(205);
    expect((await api.integrations.unpublishIntegration(name)).status).toBe(204);
  });

  it("installs, lists installations, space and site entries, and events with their trace", async () => {
    const { api, org, space, site } = await developer("installer");
    const name = `tool-${kind}`;
    await api.integrations.publishIntegration(name, definition(org));
    const { data: installation, status } = await api.integrations.installIntegration(name, {
      organization: org,
    });
    expect(status).toBe(201);
    expect(installation).toMatchObject({ status: "active", target: { organization: org } });
    expect(await statusOf(api.integrations.installIntegration(name, { organization: org }))).toBe(409);
    expect(
      await statusOf(api.integrations.installIntegration("no-such-integration", { organization: org })),
    ).toBe(404);

    const { data: installations } = await api.integrations.listIntegrationInstallations(name);
    expect(installations.items.map((item) => item.id)).toEqual([installation.id]);
    expect(
      (await api.integrations.listIntegrationInstallations(name, { externalId: "none" })).data.count,
    ).toBe(0);

    const { data: spaces } = await api.integrations.listIntegrationSpaceInstallations(name);
    expect(spaces.items.map((item) => item.space)).toEqual([space]);
    const { data: fullSpaces } = await api.integrations.listIntegrationSpaceInstallations(name, {
      extended: true,
    });
    expect(fullSpaces.items[0]?.space).toMatchObject({ object: "space", id: space });
    const { data: sites } = await api.integrations.listIntegrationSiteInstallations(name);
    expect(sites.items.map((item) => item.site)).toEqual([site]);
    const { data: fullSites } = await api.integrations.listIntegrationSiteInstallations(name, {
      extended: true,
    });
    expect(fullSites.items[0]?.site).toMatchObject({ object: "site", id: site });

    const { data: events } = await api.integrations.listIntegrationEvents(name);
    expect(events.items).toHaveLength(1);
    const event = events.items[0]!;
    expect(event).toMatchObject({ installationId: installation.id, payload: { type: "installation_setup" } });
    const { data: detail } = await api.integrations.getIntegrationEvent(name, event.id);
    expect(detail.event).toEqual(event);
    expect(detail.trace?.logs.length).toBeGreaterThan(0);
    expect(await statusOf(api.integrations.getIntegrationEvent(name, "unknown"))).toBe(404);
  });

  it("creates installation tokens as the integration, and its installation client reads", async () => {
    const { api, org, space } = await developer("token-maker");
    const name = `tokens-${kind}`;
    await api.integrations.publishIntegration(name, definition(org));
    const { data: installation } = await api.integrations.installIntegration(name, { organization: org });
    // The token an integration receives with each delivered event (`environment.apiTokens`).
    const world = { clock: () => h.test.clock.now(), ids: () => randomId() };
    const token = await h.storage.write((tx) => issueIntegrationToken(tx, world, name));
    const integration = h.client(token);
    expect((await integration.integrations.getIntegrationByName(name)).data.name).toBe(name);

    const { data: created, status } = await integration.integrations.createIntegrationInstallationToken(
      name,
      installation.id,
    );
    expect(status).toBe(200);
    expect(created.token).toEqual(expect.any(String));
    // The client's own way: a client acting for the installation, within its scopes (read).
    const installationClient = await integration.createInstallationClient(name, installation.id);
    expect((await installationClient.spaces.getSpaceById(space)).data.id).toBe(space);
    expect(await statusOf(installationClient.spaces.updateSpaceById(space, { title: "Renamed" }))).toBe(403);

    expect(await statusOf(integration.integrations.createIntegrationInstallationToken(name, "unknown"))).toBe(
      404,
    );
    // The reference's security is the integration's: a user's token is refused.
    expect(await statusOf(api.integrations.createIntegrationInstallationToken(name, installation.id))).toBe(
      403,
    );
  });

  it("gets, updates and uninstalls an installation, and lists an organization's installations", async () => {
    const { api, org, space } = await developer("manager");
    const name = `managed-${kind}`;
    await api.integrations.publishIntegration(name, definition(org));
    const { data: installation } = await api.integrations.installIntegration(name, { organization: org });
    const { data: got, status } = await api.integrations.getIntegrationInstallationById(
      name,
      installation.id,
    );
    expect(status).toBe(200);
    expect(got).toEqual(installation);
    expect(await statusOf(api.integrations.getIntegrationInstallationById(name, "unknown"))).toBe(404);

    const { data: updated } = await api.integrations.updateIntegrationInstallation(name, installation.id, {
      externalIds: ["account-1"],
      configuration: { key: "abc" },
      space_selection: "all" as never,
    });
    expect(updated).toMatchObject({
      id: installation.id,
      externalIds: ["account-1"],
      configuration: { key: "abc" },
    });
    expect(
      await statusOf(
        api.integrations.updateIntegrationInstallation(name, installation.id, { configuration: { key: 1 } }),
      ),
    ).toBe(400);
    expect(
      (await api.integrations.listIntegrationInstallations(name, { externalId: "account-1" })).data.items,
    ).toEqual([updated]);

    const { data: listed } = await api.orgs.listOrganizationInstallations(org, { search: name });
    expect(listed.items.map((item) => [item.integration.name, item.installation.id])).toEqual([
      [name, installation.id],
    ]);
    expect(
      (await api.orgs.listOrganizationInstallations(org, { search: "nothing-like-it" })).data.items,
    ).toEqual([]);

    // An installation token made before uninstalling is refused after it.
    const world = { clock: () => h.test.clock.now(), ids: () => randomId() };
    const token = await h.storage.write((tx) => issueIntegrationToken(tx, world, name));
    const installationClient = await h.client(token).createInstallationClient(name, installation.id);
    expect((await installationClient.spaces.getSpaceById(space)).status).toBe(200);

    expect((await api.integrations.uninstallIntegration(name, installation.id)).status).toBe(205);
    expect(await statusOf(installationClient.spaces.getSpaceById(space))).toBe(401);
    expect(await statusOf(api.integrations.getIntegrationInstallationById(name, installation.id))).toBe(404);
    expect((await api.integrations.listIntegrationSpaceInstallations(name)).data.items).toEqual([]);
    expect((await api.orgs.listOrganizationInstallations(org)).data.items).toEqual([]);
    const { data: events } = await api.integrations.listIntegrationEvents(name);
    expect(events.items.map((event) => event.payload.type)).toEqual([
      "installation_deleted",
      "installation_setup",
      "installation_setup",
    ]);
    expect((await api.integrations.uninstallIntegration(name, installation.id)).status).toBe(204);
  });

  it("sets and disables development mode", async () => {
    const { api, org } = await developer("tunneler");
    const name = `dev-${kind}`;
    await api.integrations.publishIntegration(name, definition(org));
    const set = await api.integrations.setIntegrationDevelopmentMode(name, {
      tunnelUrl: "https://tunnel.example/events",
      all: true,
    });
    expect(set.status).toBe(204);
    expect(await statusOf(api.integrations.setIntegrationDevelopmentMode(name, { tunnelUrl: "" }))).toBe(400);
    expect(
      await statusOf(
        api.integrations.setIntegrationDevelopmentMode("no-such-integration", {
          tunnelUrl: "https://t.example",
        }),
      ),
    ).toBe(404);
    expect((await api.integrations.disableIntegrationDevelopmentMode(name)).status).toBe(205);
  });
});
