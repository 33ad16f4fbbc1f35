import { describe, expect, it } from "vitest";
import { createTestDocsbase } from "../src/testing/double.js";

/**
 * What an outbound refusal or failure leaves in fields members read (docs/security.md, "Outbound
 * errors without DNS details"): an OpenAPI spec's `lastProcessedErrors` and an integration event's
 * trace say the address was refused or the connection failed, never what a name resolved to nor
 * the resolver's error code. A fake resolver stands for the internal DNS: no network is used.
 */

const INTERNAL = "intranet.corp.test";
const MISSING = "nonexistent.invalid";

async function resolveHost(host: string): Promise<readonly string[]> {
  if (host === INTERNAL) return ["127.0.0.1"];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
}

/** No DNS detail: neither the resolved address nor the resolver's code. */
function expectNoDnsDetail(text: string) {
  expect(text).not.toContain("127.0.0.1");
  expect(text).not.toContain("ENOTFOUND");
  expect(text).not.toContain("getaddrinfo");
  expect(text).not.toContain("resolves to");
}

async function setup() {
  const test = await createTestDocsbase({ outbound: { resolveHost } });
  const owner = await test.createUser("Owner");
  const client = test.as(owner);
  const org = (await client.createOrganization({ body: { title: "Acme" } })).id;
  return { test, client, org };
}

describe("outbound errors users read", () => {
  it("an OpenAPI spec's errors say the address was refused or could not be reached", async () => {
    const { test, client, org } = await setup();
    const errors = async (slug: string, url: string) => {
      await client.createOrUpdateOpenAPISpecBySlug({
        organizationId: org,
        specSlug: slug,
        body: { source: { url } },
      });
      await test.docsbase.runJobs();
      const spec = await client.getOpenAPISpecBySlug({ organizationId: org, specSlug: slug });
      expect(spec.lastProcessErrorCode).toBe("FETCH_ERROR");
      return JSON.stringify(spec.lastProcessedErrors);
    };
    const internal = await errors("internal", `http://${INTERNAL}/openapi.yaml`);
    expectNoDnsDetail(internal);
    expect(internal).toContain("address refused");
    const missing = await errors("missing", `http://${MISSING}/openapi.yaml`);
    expectNoDnsDetail(missing);
    expect(missing).toContain(`Could not connect to http://${MISSING}/openapi.yaml`);
    const loopback = await errors("loopback", "http://api.localhost/openapi.yaml");
    expectNoDnsDetail(loopback);
  });

  it("an integration event's trace says the address was refused or could not be reached", async () => {
    const { test, client, org } = await setup();
    const hooks = { integrationName: "hooks" };
    await client.publishIntegration({
      ...hooks,
      body: {
        organization: org,
        title: "Hooks",
        description: "Receives events",
        script: "export default {}",
        scopes: [],
        visibility: "public",
      },
    });
    for (const [host, expected] of [
      [INTERNAL, "address refused"],
      [MISSING, "Could not connect"],
    ] as const) {
      await client.setIntegrationDevelopmentMode({
        ...hooks,
        body: { tunnelUrl: `http://${host}/events`, all: true },
      });
      const customer = (await client.createOrganization({ body: { title: host } })).id;
      await client.installIntegration({ ...hooks, body: { organization: customer } });
      await test.docsbase.runJobs();
      const [event] = (await client.listIntegrationEvents({ ...hooks, limit: 1 })).items;
      const { trace } = await client.getIntegrationEvent({ ...hooks, eventId: event!.id });
      const text = JSON.stringify(trace);
      expectNoDnsDetail(text);
      expect(text).toContain(expected);
    }
  });
});
