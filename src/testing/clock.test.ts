import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELIVERY_RETRY_DELAYS_MS } from "../core/integrations/delivery.js";
import { SPACE_RETENTION_MS } from "../core/spaces/records.js";
import type { ConversationAnalyzer } from "../core/conversations/analyzer.js";
import type { Translator } from "../core/translations/translator.js";
import { durationMs } from "./clock.js";
import { createTestDocsbase } from "./double.js";

const START = "2024-01-01T00:00:00.000Z";

/** An analyzer that makes each message of a conversation an insight of its own, titled by it. */
const analyzer: ConversationAnalyzer = {
  analyze: (conversation) =>
    conversation.parts.map((part) => ({
      title: part.body,
      details: part.body,
      impact: "high" as const,
      terms: { [part.body]: 1 },
    })),
};
const at = (ms: number) => new Date(Date.parse(START) + ms);

describe("test.clock", () => {
  it("reads durations in ms, s, m, h, d, w and their combinations, or milliseconds", () => {
    expect(durationMs("500ms", "x")).toBe(500);
    expect(durationMs("7d", "x")).toBe(7 * 86_400_000);
    expect(durationMs("1h30m", "x")).toBe(90 * 60_000);
    expect(durationMs("2w1d1s", "x")).toBe(15 * 86_400_000 + 1000);
    expect(durationMs("1.5s", "x")).toBe(1500);
    expect(durationMs(250, "x")).toBe(250);
  });

  it("refuses a negative or malformed duration, naming the argument", async () => {
    const test = await createTestDocsbase({ now: START, conversationAnalyzer: analyzer });
    for (const bad of [-1, Number.NaN, "", "7", "7 days", "-1h", "1y", "h"]) {
      await expect(test.clock.advance(bad)).rejects.toMatchObject({
        code: "bad_request",
        message: expect.stringContaining(
          `clock.advance: ${typeof bad === "string" ? JSON.stringify(bad) : bad}`,
        ),
      });
    }
    expect(() => test.clock.set("not a date")).toThrow(/clock\.set: "not a date" is not a date/);
    await expect(createTestDocsbase({ now: "soon" })).rejects.toThrow(/now: "soon" is not a date/);
    expect(test.clock.now()).toEqual(new Date(START));
  });

  it("starts at `now` and stays frozen, moving only by set and advance, for every timestamp", async () => {
    const test = await createTestDocsbase({ now: START, conversationAnalyzer: analyzer });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(test.clock.now()).toEqual(new Date(START));
    const alice = await test.createUser("Alice");
    const org = await test.as(alice).createOrganization({ body: { title: "Acme" } });
    expect(org.createdAt).toBe(START);
    expect(await test.clock.advance("1h30m")).toBe(0);
    expect(test.clock.now()).toEqual(at(90 * 60_000));
    const space = await test.as(alice).createSpace({ organizationId: org.id, body: { title: "Guide" } });
    expect(space.createdAt).toBe(at(90 * 60_000).toISOString());
    expect(test.calls({ operationId: "createSpace" })[0]?.at).toEqual(at(90 * 60_000));
    test.clock.set(new Date("2030-05-05T00:00:00Z"));
    expect(test.clock.now().toISOString()).toBe("2030-05-05T00:00:00.000Z");
    test.clock.set("2031-01-01T00:00:00Z");
    expect(test.clock.now().getUTCFullYear()).toBe(2031);
    test.clock.set(0);
    expect(test.clock.now().getTime()).toBe(0);
  });

  it("follows real time without `now`, shifted by what set and advance added", async () => {
    const test = await createTestDocsbase();
    const before = Date.now();
    expect(Math.abs(test.clock.now().getTime() - before)).toBeLessThan(1000);
    await test.clock.advance("1d");
    const shifted = test.clock.now().getTime() - Date.now();
    expect(shifted).toBeGreaterThan(86_400_000 - 1000);
    expect(shifted).toBeLessThanOrEqual(86_400_000);
    test.clock.set("2000-01-01T00:00:00Z");
    await new Promise((resolve) => setTimeout(resolve, 20));
    const moved = test.clock.now().getTime() - Date.parse("2000-01-01T00:00:00Z");
    expect(moved).toBeGreaterThanOrEqual(15);
    expect(moved).toBeLessThan(1000);
  });

  it("reads the caller's clock, and refuses to move it", async () => {
    const test = await createTestDocsbase({ clock: () => new Date(START) });
    expect(test.clock.now()).toEqual(new Date(START));
    expect(() => test.clock.set(0)).toThrow(/the clock is the caller's/);
    await expect(test.clock.advance("1s")).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("clock.advance: the clock is the caller's"),
    });
  });

  it("expires a token by the double's clock, through the token cache", async () => {
    const test = await createTestDocsbase({ now: START, conversationAnalyzer: analyzer });
    const alice = await test.createUser("Alice");
    const { token } = await test.as(test.operatorToken).createUserToken({
      userId: alice.id,
      body: { expiresIn: 3600 },
    });
    expect((await test.request("GET", "/user", { token })).status).toBe(200);
    await test.clock.advance("59m");
    expect((await test.request("GET", "/user", { token })).status).toBe(200);
    await test.clock.advance("2h");
    expect((await test.request("GET", "/user", { token })).status).toBe(401);
    await expect(test.as(token).getAuthenticatedUser()).rejects.toMatchObject({ code: "unauthorized" });
  });

  it("runs the rate limiter's windows on the double's clock", async () => {
    const test = await createTestDocsbase({
      now: START,
      rateLimit: { requests: { limit: 2, windowMs: 60_000 } },
    });
    expect((await test.request("GET", "/user")).status).toBe(200);
    expect((await test.request("GET", "/user")).status).toBe(200);
    const limited = await test.request("GET", "/user");
    expect(limited.status).toBe(429);
    await test.clock.advance("1m");
    expect((await test.request("GET", "/user")).status).toBe(200);
  });
});

describe("test.jobs and clock.advance", () => {
  it("purges a deleted space once its restore window has passed, not before", async () => {
    const test = await createTestDocsbase({ now: START, conversationAnalyzer: analyzer });
    const api = test.as(await test.createUser("Owner"));
    const org = (await api.createOrganization({ body: { title: "Acme" } })).id;
    const kept = (await api.createSpace({ organizationId: org, body: { title: "Kept" } })).id;
    const gone = (await api.createSpace({ organizationId: org, body: { title: "Gone" } })).id;
    await api.deleteSpaceById({ spaceId: kept });
    await api.deleteSpaceById({ spaceId: gone });
    // Both due at the end of the window; jobs due at one time run in id order, random here.
    const pending = await test.jobs.pending();
    expect(pending.map((job) => [job.type, job.runAt])).toEqual([
      ["purgeSpace", at(SPACE_RETENTION_MS).toISOString()],
      ["purgeSpace", at(SPACE_RETENTION_MS).toISOString()],
    ]);
    expect(pending.map((job) => job.payload["space"]).sort()).toEqual([kept, gone].sort());
    expect(await test.clock.advance("6d")).toBe(0);
    await api.restoreSpace({ spaceId: kept });
    expect(await test.clock.advance("1d")).toBe(2);
    expect(await test.jobs.pending()).toEqual([]);
    await expect(api.restoreSpace({ spaceId: gone })).rejects.toMatchObject({ code: "not_found" });
    expect((await test.request("POST", `/spaces/${gone}/restore`)).status).toBe(404);
    expect(await api.getSpaceById({ spaceId: kept })).toMatchObject({ title: "Kept" });
  });

  it("leaves jobs due now to drain() by default, and runs them before the call resolves with runJobs: auto", async () => {
    const source = { text: "openapi: 3.1.0\ninfo: { title: Pets, version: '1' }\npaths: {}\n" };
    for (const runJobs of ["manual", "auto"] as const) {
      const test = await createTestDocsbase({ now: START, runJobs });
      const api = test.as(await test.createUser("Owner"));
      const organizationId = (await api.createOrganization({ body: { title: "Acme" } })).id;
      const created = await api.createOpenAPISpec({ organizationId, body: { slug: "pets", source } });
      expect(created.processingState).toBe("pending");
      const spec = () => api.getOpenAPISpecBySlug({ organizationId, specSlug: "pets" });
      if (runJobs === "manual") {
        expect((await spec()).processingState).toBe("pending");
        expect(await test.jobs.pending()).toMatchObject([{ type: expect.any(String), runAt: START }]);
        expect(await test.jobs.drain()).toBe(1);
      }
      expect(await spec()).toMatchObject({ processingState: "complete", lastVersion: expect.any(String) });
      expect(await test.jobs.drain()).toBe(0);
    }
  });

  it("runs a translation when the clock moves", async () => {
    const upper: Translator = async ({ texts }) => texts.map((text) => text.toUpperCase());
    const test = await createTestDocsbase({ now: START, translator: upper });
    const api = test.as(await test.createUser("Owner"));
    const organizationId = (await api.createOrganization({ body: { title: "Acme" } })).id;
    const space = (await api.createSpace({ organizationId, body: { title: "Guide" } })).id;
    await api.createPage({ spaceId: space, body: { title: "Start", markdown: "Hello." } });
    const created = await api.createTranslation({
      organizationId,
      body: { language: "fr", source: { space, language: "en" } },
    });
    const translation = { organizationId, translationId: created.id };
    expect((await api.getTranslation(translation)).status).toBe("pending");
    expect(await test.clock.advance("1s")).toBeGreaterThanOrEqual(1);
    expect((await api.getTranslation(translation)).status).toBe("completed");
    const result = await api.getCurrentRevision({ spaceId: created.result!.space });
    expect(result.pages.map((page) => page.title)).toEqual(["START"]);
  });

  it("clusters ingested conversations when the clock moves", async () => {
    const test = await createTestDocsbase({ now: START, conversationAnalyzer: analyzer });
    const lead = test.as(await test.createUser("Lead"));
    const organizationId = (await lead.createOrganization({ body: { title: "Acme" } })).id;
    const parts = [{ type: "message" as const, role: "user" as const, body: "The login page crashes" }];
    await lead.ingestConversation({
      organizationId,
      body: [
        { id: "a", parts },
        { id: "b", parts },
      ],
    });
    expect((await lead.listConversationsIssues({ organizationId })).items).toEqual([]);
    expect(await test.clock.advance("1s")).toBeGreaterThanOrEqual(1);
    expect((await lead.listConversationsIssues({ organizationId })).items).toHaveLength(2);
    const clusters = await lead.listConversationsIssuesClusters({ organizationId });
    expect(clusters.items.map((item) => item.stats.issues)).toEqual([2]);
  });
});

describe("clock.advance: integration event delivery retries", () => {
  let server: Server;
  let tunnel = "";
  const statuses: number[] = [];
  const attempts: Date[] = [];
  let now: () => Date = () => new Date();
  beforeAll(async () => {
    server = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        attempts.push(now());
        response.statusCode = statuses.shift() ?? 200;
        response.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    tunnel = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("delivers on the third attempt, at the times of the backoff", async () => {
    const test = await createTestDocsbase({ now: START, allowPrivateNetwork: true });
    now = () => test.clock.now();
    const developer = test.as(await test.createUser("Developer"));
    const organization = (await developer.createOrganization({ body: { title: "Dev" } })).id;
    const hooks = { integrationName: "hooks" };
    await developer.publishIntegration({
      ...hooks,
      body: { organization, title: "Hooks", description: "Events", script: "export default {}", scopes: [] },
    });
    await developer.setIntegrationDevelopmentMode({ ...hooks, body: { tunnelUrl: tunnel } });
    statuses.push(500, 500, 200);
    await developer.installIntegration({ ...hooks, body: { organization } });
    expect(await test.clock.advance("5m")).toBe(3);
    const [first, second] = DELIVERY_RETRY_DELAYS_MS;
    expect(attempts).toEqual([at(0), at(first), at(first + second)]);
    const [event] = (await developer.listIntegrationEvents({ ...hooks, limit: 1 })).items;
    expect(event).toMatchObject({ status: "success" });
    expect(test.clock.now()).toEqual(at(5 * 60_000));
  });
});
