import { GitBookAPI, IntegrationScope, IntegrationVisibility } from "@gitbook/api";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ClientInput } from "../src/core/client.js";
import { DELIVERY_RETRY_DELAYS_MS, MAX_DELIVERY_ATTEMPTS } from "../src/core/integrations/delivery.js";
import type { Operations } from "../src/core/operations.js";
import { createTestDocsbase, type TestDocsbase } from "../src/testing/double.js";

/**
 * Delivery of integration events to a development tunnel (docs/integrations.md, "Events"): a real
 * HTTP receiver on 127.0.0.1 (hence `allowPrivateNetwork`), signatures checked with the Standard
 * Webhooks reference library, retries driven by a movable clock and `runJobs()`.
 */

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

let server: Server;
let tunnel: string;
const received: Received[] = [];
/** Statuses the receiver answers, in turn; 200 once exhausted. */
let statuses: number[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      received.push({ headers: request.headers, body });
      response.statusCode = statuses.shift() ?? 200;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  tunnel = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
afterEach(() => {
  received.length = 0;
  statuses = [];
});

/** A docsbase on a clock starting now (signatures carry it; verify allows 5 minutes of skew). */
async function setup() {
  let now = Date.now();
  const test: TestDocsbase = await createTestDocsbase({
    allowPrivateNetwork: true,
    clock: () => new Date(now),
  });
  const developer = await test.createUser("Developer");
  const as = (token: string) => (method: string, path: string, body?: unknown) =>
    test.request(method, path, { token, ...(body !== undefined ? { body } : {}) });
  const api = as(developer.token);
  const client = test.as(developer);
  const hooks = { integrationName: "hooks" };
  const org = (await client.createOrganization({ body: { title: "Developer org" } })).id;
  const published = await client.publishIntegration({
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
  const secret = published.signingSecret!;
  /** Another organization, administered by another user, that installs the integration. */
  const customer = test.as(await test.createUser("Customer"));
  const customerOrg = (await customer.createOrganization({ body: { title: "Customer org" } })).id;
  const event = (eventId: string) => client.getIntegrationEvent({ ...hooks, eventId });
  const lastEvent = async () => (await client.listIntegrationEvents({ ...hooks, limit: 1 })).items[0]!;
  /** Turns development mode on, as the developer. */
  const dev = (body: ClientInput<Operations["setIntegrationDevelopmentMode"]>["body"]) =>
    client.setIntegrationDevelopmentMode({ ...hooks, body });
  /** Installs the integration into the developer's organization. */
  const install = () => client.installIntegration({ ...hooks, body: { organization: org } });
  return {
    test,
    api,
    client,
    org,
    secret,
    customer,
    customerOrg,
    event,
    lastEvent,
    dev,
    install,
    advance: (ms: number) => (now += ms),
  };
}

const verify = (secret: string, delivery: Received) =>
  new Webhook(secret).verify(delivery.body, {
    "webhook-id": String(delivery.headers["webhook-id"]),
    "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
    "webhook-signature": String(delivery.headers["webhook-signature"]),
  });

describe("integration event delivery", () => {
  it("POSTs the event's payload to the tunnel, signed per Standard Webhooks", async () => {
    const s = await setup();
    // No content: the call resolves to nothing.
    expect(await s.dev({ tunnelUrl: tunnel })).toBeUndefined();
    const installation = await s.install();
    await s.test.docsbase.runJobs();
    expect(received).toHaveLength(1);
    const [delivery] = received;
    const event = await s.lastEvent();
    expect(delivery!.headers["content-type"]).toBe("application/json");
    expect(delivery!.headers["webhook-id"]).toBe(event.id);
    // The payload, with the environment an integration's script receives (its tokens: never stored).
    const { environment, ...payload } = verify(s.secret, delivery!) as Record<string, unknown>;
    expect(payload).toEqual(event.payload);
    expect(environment).toMatchObject({ apiTokens: { integration: expect.any(String) } });
    expect(event.payload).toMatchObject({ type: "installation_setup", installationId: installation.id });
    expect(() => verify(`whsec_${btoa("another key of thirty-two bytes!")}`, delivery!)).toThrow();
    const { event: stored, trace } = await s.event(event.id);
    expect(stored.status).toBe("success");
    expect(trace.logs.at(-1)).toMatchObject({
      level: "info",
      message: expect.stringContaining("HTTP 200, delivered"),
    });
    await s.test.docsbase.close();
  });

  it("delivers installation_setup on an update and installation_deleted on uninstall", async () => {
    const s = await setup();
    await s.dev({ tunnelUrl: tunnel });
    const installation = await s.install();
    const byId = { integrationName: "hooks", installationId: installation.id };
    await s.client.updateIntegrationInstallation({ ...byId, body: { externalIds: ["account-1"] } });
    await s.client.uninstallIntegration(byId);
    await s.test.docsbase.runJobs();
    // The three jobs are due at once and run in no set order.
    const payloads = received.map((delivery) => verify(s.secret, delivery) as Record<string, any>);
    expect(payloads.map((payload) => payload["type"]).sort()).toEqual([
      "installation_deleted",
      "installation_setup",
      "installation_setup",
    ]);
    expect(payloads.find((payload) => payload["previous"]?.status)).toMatchObject({
      type: "installation_setup",
      installationId: installation.id,
      previous: { status: "active", configuration: {} },
    });
    const deleted = payloads.find((payload) => payload["type"] === "installation_deleted")!;
    expect(deleted).toMatchObject({ installationId: installation.id, previous: { configuration: {} } });
    // The installation is gone: the environment has neither it nor a token for it.
    expect(deleted["environment"]).not.toHaveProperty("installation");
    expect(deleted["environment"].apiTokens).not.toHaveProperty("installation");
    await s.test.docsbase.close();
  });

  it("retries a 500 within seconds with the same webhook-id, then delivers", async () => {
    const s = await setup();
    await s.dev({ tunnelUrl: tunnel });
    statuses = [500];
    await s.install();
    await s.test.docsbase.runJobs();
    expect(received).toHaveLength(1);
    // Not due yet: the job runner's own backoff is not involved.
    await s.test.docsbase.runJobs();
    expect(received).toHaveLength(1);
    expect(DELIVERY_RETRY_DELAYS_MS[0]).toBeLessThanOrEqual(10_000);
    s.advance(DELIVERY_RETRY_DELAYS_MS[0]);
    await s.test.docsbase.runJobs();
    expect(received).toHaveLength(2);
    expect(received[1]!.headers["webhook-id"]).toBe(received[0]!.headers["webhook-id"]);
    expect(verify(s.secret, received[1]!)).toBeTruthy();
    const event = await s.lastEvent();
    const { trace } = await s.event(event.id);
    expect(event.status).toBe("success");
    expect(trace.logs.map((line) => line.level).slice(-2)).toEqual(["warn", "info"]);
    expect(trace.logs.at(-2)!.message).toContain("attempt 1");
    expect(trace.logs.at(-2)!.message).toContain("HTTP 500");
    expect(await s.test.docsbase.jobs()).toEqual([]);
    await s.test.docsbase.close();
  });

  it("marks the event failed after the last attempt, each attempt a line of its trace", async () => {
    const s = await setup();
    await s.dev({ tunnelUrl: tunnel });
    statuses = Array(MAX_DELIVERY_ATTEMPTS).fill(503);
    await s.install();
    await s.test.docsbase.runJobs();
    for (const delay of DELIVERY_RETRY_DELAYS_MS) {
      s.advance(delay);
      await s.test.docsbase.runJobs();
    }
    expect(received).toHaveLength(MAX_DELIVERY_ATTEMPTS);
    expect(new Set(received.map((delivery) => delivery.headers["webhook-id"])).size).toBe(1);
    const event = await s.lastEvent();
    expect(event.status).toBe("failed");
    const { trace } = await s.event(event.id);
    const attempts = trace.logs.filter((line) => line.message.startsWith("Delivery attempt"));
    expect(attempts).toHaveLength(MAX_DELIVERY_ATTEMPTS);
    expect(attempts.at(-1)).toMatchObject({ level: "error", message: expect.stringContaining("giving up") });
    for (const line of attempts) expect(line.message).toContain("HTTP 503");
    // Nothing more is tried.
    s.advance(24 * 60 * 60_000);
    await s.test.docsbase.runJobs();
    expect(received).toHaveLength(MAX_DELIVERY_ATTEMPTS);
    await s.test.docsbase.close();
  });

  it("records a network failure as an attempt", async () => {
    const s = await setup();
    // A port nobody listens on: the connection is refused.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await s.dev({ tunnelUrl: `http://127.0.0.1:${port}/` });
    await s.install();
    await s.test.docsbase.runJobs();
    const { trace } = await s.event((await s.lastEvent()).id);
    expect(trace.logs.at(-1)).toMatchObject({
      level: "warn",
      message: expect.stringContaining("network_error"),
    });
    await s.test.docsbase.close();
  });

  it("forwards only the owner organization's events, unless `all`", async () => {
    const s = await setup();
    await s.dev({ tunnelUrl: tunnel });
    await s.customer.installIntegration({ integrationName: "hooks", body: { organization: s.customerOrg } });
    await s.test.docsbase.runJobs();
    expect(received).toHaveLength(0);
    const skipped = await s.lastEvent();
    expect(skipped.status).toBe("success");
    expect((await s.event(skipped.id)).trace.logs.at(-1)!.message).toContain(
      "owner organization's events only",
    );

    await s.dev({ tunnelUrl: tunnel, all: true });
    const other = s.test.as(await s.test.createUser("Second customer"));
    const otherOrg = (await other.createOrganization({ body: { title: "Second" } })).id;
    await other.installIntegration({ integrationName: "hooks", body: { organization: otherOrg } });
    await s.test.docsbase.runJobs();
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ type: "installation_setup" });
    expect(verify(s.secret, received[0]!)).toBeTruthy();
    await s.test.docsbase.close();
  });

  it("records, without a tunnel, that no receiver was set", async () => {
    const s = await setup();
    await s.install();
    await s.test.docsbase.runJobs();
    expect(received).toHaveLength(0);
    const event = await s.lastEvent();
    expect((await s.event(event.id)).trace.logs.at(-1)!.message).toContain("No receiver was set");
    // Development mode turned off between queueing and delivery: nothing is sent.
    await s.dev({ tunnelUrl: tunnel });
    const second = s.test.as(await s.test.createUser("Late"));
    const lateOrg = (await second.createOrganization({ body: { title: "Late" } })).id;
    await s.dev({ tunnelUrl: tunnel, all: true });
    await second.installIntegration({ integrationName: "hooks", body: { organization: lateOrg } });
    // Over HTTP: the delete's 205.
    expect((await s.api("DELETE", "/integrations/hooks/dev")).status).toBe(205);
    await s.test.docsbase.runJobs();
    expect(received).toHaveLength(0);
    const late = await s.lastEvent();
    expect(late.status).toBe("failed");
    expect((await s.event(late.id)).trace.logs.at(-1)!.message).toContain("no longer takes this event");
    await s.test.docsbase.close();
  });

  it("runs the worked example of docs/integrations.md", async () => {
    const test = await createTestDocsbase({ allowPrivateNetwork: true });
    const user = await test.createUser("Developer", "developer@example.test");
    const { endpoint, fetch } = test;
    const token = user.token;
    const org = (await test.as(token).createOrganization({ body: { title: "Acme" } })).id;
    const receiverUrl = tunnel;

    // --- docs/integrations.md, "A worked example" ---
    const api = new GitBookAPI({ endpoint, authToken: token, serviceBinding: { fetch } });

    // 1. Publish, owned by an organization the caller administers (by id or hostname).
    const { data: integration } = await api.integrations.publishIntegration("word-count", {
      organization: org,
      title: "Word count",
      description: "Counts the words of every page",
      script: "export default {}",
      scopes: [IntegrationScope.SpaceContentRead],
      visibility: IntegrationVisibility.Public,
    });
    // Shown to the owner organization's admins only.
    const { signingSecret } = integration as typeof integration & { signingSecret: string };

    // 2. Events of the owner organization now go to the receiver.
    await api.integrations.setIntegrationDevelopmentMode("word-count", { tunnelUrl: receiverUrl });

    // 3. Installing records an \`installation_setup\` event; a background job delivers it.
    const { data: installation } = await api.integrations.installIntegration("word-count", {
      organization: org,
    });
    await test.docsbase.runJobs(); // the standalone server runs it within a second
    const { body, headers } = received[0]!;

    // 4. The receiver checks the signature (\`body\` is the raw request body, \`headers\` its headers).
    const payload = new Webhook(signingSecret).verify(body, headers as Record<string, string>);
    expect(payload).toMatchObject({
      type: "installation_setup",
      installationId: installation.id,
      status: "active",
    });

    // 5. The event and its trace.
    const { data: events } = await api.integrations.listIntegrationEvents("word-count");
    const { data: detail } = await api.integrations.getIntegrationEvent("word-count", events.items[0]!.id);
    expect(detail.trace?.logs.map((line) => line.message)).toEqual([
      "Event installation_setup recorded",
      `Queued for delivery to the development tunnel ${receiverUrl}`,
      `Delivery attempt 1 of 5 to ${receiverUrl}: HTTP 200, delivered`,
    ]);
    await test.docsbase.close();
  });
});
