import { describe, expect, it } from "vitest";
import { createTestDocsbase } from "../../testing/double.js";
import { INSTALLATION_TOKEN_LIFETIME_MS, INTEGRATION_TOKEN_LIFETIME_MS } from "../users/integration-token.js";

/**
 * Integration and installation tokens (docs/integrations.md, "Tokens"): the integration token
 * arrives with each delivered event, in its `environment`, and obtains installation tokens, which
 * act in the installation's organization within the integration's scopes.
 */

const TUNNEL = "https://tunnel.example/events";

async function setup() {
  const delivered: Record<string, unknown>[] = [];
  const test = await createTestDocsbase({
    outbound: {
      resolveHost: async () => ["93.184.215.14"],
      transport: async (input, init) => {
        delivered.push((await new Request(input, init).json()) as Record<string, unknown>);
        return new Response(null, { status: 200 });
      },
    },
  });
  const developerUser = await test.createUser("Developer");
  const developer = test.as(developerUser);
  const org = (await developer.createOrganization({ body: { title: "Developer org" } })).id;
  const space = (await developer.createSpace({ organizationId: org, body: { title: "Guide" } })).id;
  const other = test.as(await test.createUser("Other"));
  const otherOrg = (await other.createOrganization({ body: { title: "Other org" } })).id;
  const otherSpace = (await other.createSpace({ organizationId: otherOrg, body: { title: "Theirs" } })).id;

  /** Publishes `name` with `scopes` (private, development mode on), installs it, delivers the event. */
  async function integration(name: string, scopes: string[]) {
    await developer.publishIntegration({
      integrationName: name,
      body: {
        organization: org,
        title: name,
        description: "Reads the docs",
        script: "export default {}",
        scopes: scopes as never,
        visibility: "private",
      },
    });
    await developer.setIntegrationDevelopmentMode({ integrationName: name, body: { tunnelUrl: TUNNEL } });
    const installation = await developer.installIntegration({
      integrationName: name,
      body: { organization: org },
    });
    await test.jobs.drain();
    const environment = delivered.at(-1)!["environment"] as {
      apiEndpoint: string;
      apiTokens: { integration: string; installation: string };
      integration: { name: string };
      installation: { id: string };
    };
    return { installation: installation.id, environment, token: environment.apiTokens.integration };
  }
  const status = async (token: string, method: string, path: string, body?: unknown) =>
    (await test.request(method, path, { token, ...(body === undefined ? {} : { body }) })).status;
  return {
    test,
    developer,
    developerToken: developerUser.token,
    org,
    space,
    otherSpace,
    integration,
    status,
    delivered,
  };
}

describe("integration tokens", () => {
  it("arrive in the delivered event's environment, never in the stored event", async () => {
    const s = await setup();
    const { environment, installation } = await s.integration("reader", ["space:content:read"]);
    expect(environment).toMatchObject({
      apiEndpoint: `${s.test.endpoint}/v1`,
      apiTokens: { integration: expect.any(String), installation: expect.any(String) },
      integration: { name: "reader" },
      installation: { id: installation },
      signingSecrets: { integration: expect.stringMatching(/^whsec_/) },
      secrets: {},
    });
    const [event] = (await s.developer.listIntegrationEvents({ integrationName: "reader" })).items;
    expect(JSON.stringify(event)).not.toContain(environment.apiTokens.integration);
    expect(event!.payload).not.toHaveProperty("environment");
  });

  it("read their own integration, even a private one, and nothing else", async () => {
    const s = await setup();
    const { token, installation } = await s.integration("reader", ["space:content:read"]);
    expect(await s.status(token, "GET", "/integrations/reader")).toBe(200);
    const refused: [string, string, unknown?][] = [
      ["GET", "/user"],
      ["GET", `/orgs/${s.org}`],
      ["GET", `/orgs/${s.org}/spaces`],
      ["GET", `/spaces/${s.space}`],
      ["GET", "/integrations"],
      ["GET", "/integrations/reader/installations"],
      ["GET", "/integrations/reader/events"],
      ["POST", "/integrations/reader/installations", { organization: s.org }],
      ["PUT", "/integrations/reader/dev", { tunnelUrl: TUNNEL }],
      ["DELETE", "/integrations/reader"],
      ["POST", `/orgs/${s.org}/spaces`, { title: "New" }],
    ];
    for (const [method, path, body] of refused) {
      expect([method, path, await s.status(token, method, path, body)]).toEqual([method, path, 403]);
    }
    // Nothing was changed by the refused calls.
    expect((await s.developer.listSpacesInOrganizationById({ organizationId: s.org })).items).toHaveLength(1);
    expect((await s.developer.getIntegrationByName({ integrationName: "reader" })).name).toBe("reader");
    expect(
      (await s.developer.listIntegrationInstallations({ integrationName: "reader" })).items.map((i) => i.id),
    ).toEqual([installation]);
  });

  it("expire after their lifetime", async () => {
    const s = await setup();
    const { token } = await s.integration("reader", ["space:content:read"]);
    await s.test.clock.advance(INTEGRATION_TOKEN_LIFETIME_MS);
    expect(await s.status(token, "GET", "/integrations/reader")).toBe(401);
  });
});

describe("createIntegrationInstallationToken", () => {
  it("answers a token for the integration's own installation, as the integration only", async () => {
    const s = await setup();
    const reader = await s.integration("reader", ["space:content:read"]);
    const writer = await s.integration("writer", ["space:content:write"]);
    const path = (name: string, id: string) => `/integrations/${name}/installations/${id}/tokens`;

    const created = await s.test.request("POST", path("reader", reader.installation), {
      token: reader.token,
    });
    expect(created.status).toBe(200);
    expect(Object.keys(created.body as object)).toEqual(["token"]);

    // Another integration's installation, or an unknown one: 404.
    expect(await s.status(reader.token, "POST", path("reader", writer.installation))).toBe(404);
    expect(await s.status(reader.token, "POST", path("reader", "nope"))).toBe(404);
    // As another integration, a user (even the owner's admin) or an installation token: 403.
    expect(await s.status(writer.token, "POST", path("reader", reader.installation))).toBe(403);
    expect(await s.status(s.developerToken, "POST", path("reader", reader.installation))).toBe(403);
    const installationToken = (created.body as { token: string }).token;
    expect(await s.status(installationToken, "POST", path("reader", reader.installation))).toBe(403);
  });
});

describe("installation tokens", () => {
  /** An installation token of a new integration with `scopes`, as the integration obtains it. */
  async function installationToken(s: Awaited<ReturnType<typeof setup>>, name: string, scopes: string[]) {
    const { token, installation } = await s.integration(name, scopes);
    const integration = s.test.as(token);
    return (
      await integration.createIntegrationInstallationToken({
        integrationName: name,
        installationId: installation,
      })
    ).token;
  }

  it("read the installation's spaces, and no space of another organization", async () => {
    const s = await setup();
    const token = await installationToken(s, "reader", ["space:content:read"]);
    expect(await s.status(token, "GET", `/spaces/${s.space}`)).toBe(200);
    expect(await s.status(token, "GET", `/spaces/${s.space}/content`)).toBe(200);
    expect(await s.status(token, "GET", `/orgs/${s.org}/spaces`)).toBe(200);
    expect(await s.status(token, "GET", `/spaces/${s.otherSpace}`)).toBe(404);
  });

  it("write only with a write scope", async () => {
    const s = await setup();
    const reader = await installationToken(s, "reader", ["space:content:read"]);
    const writer = await installationToken(s, "writer", ["space:content:write"]);
    const changeRequests = `/spaces/${s.space}/change-requests`;
    expect(await s.status(reader, "POST", changeRequests, { subject: "Edit" })).toBe(403);
    expect(await s.status(writer, "POST", changeRequests, { subject: "Edit" })).toBe(201);
    // A write scope makes an editor, no more: managing the organization stays refused, and it is
    // no user: it creates no organization of its own.
    expect(await s.status(writer, "PATCH", `/orgs/${s.org}`, { title: "Renamed" })).toBe(403);
    expect(await s.status(writer, "POST", `/orgs/${s.org}/spaces`, { title: "New" })).toBe(403);
    expect(await s.status(writer, "POST", "/orgs", { title: "Mine" })).toBe(403);
  });

  it("stand nowhere without a scope that gives a role, or after their lifetime", async () => {
    const s = await setup();
    const none = await installationToken(s, "scriptonly", ["site:script:inject"]);
    expect(await s.status(none, "GET", `/spaces/${s.space}`)).toBe(404);
    const reader = await installationToken(s, "reader", ["space:content:read"]);
    await s.test.clock.advance(INSTALLATION_TOKEN_LIFETIME_MS);
    expect(await s.status(reader, "GET", `/spaces/${s.space}`)).toBe(401);
  });
});
