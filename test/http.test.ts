import { describe, expect, it } from "vitest";
import { memoryStorage } from "../src/adapters/memory/index.js";
import { operations } from "../src/core/operations.js";
import type { Storage } from "../src/core/storage/port.js";
import { createDocsbase } from "../src/docsbase.js";
import { createTestDocsbase } from "../src/testing/double.js";

describe("fetch handler", () => {
  it("answers 401 without a token, with a malformed header and with an unknown token", async () => {
    const t = await createTestDocsbase();
    expect((await t.request("GET", "/user", { token: null })).status).toBe(401);
    expect((await t.request("GET", "/user", { token: "dbt_unknown_token_value" })).status).toBe(401);
    const malformed = await t.request("GET", "/user", {
      token: null,
      headers: { authorization: "Basic abc" },
    });
    expect(malformed.status).toBe(401);
    expect(malformed.body).toEqual({ error: { code: 401, message: expect.stringContaining("Bearer") } });
  });

  it("reads the Authorization header's token in every form the Bearer scheme allows, and only those", async () => {
    const t = await createTestDocsbase();
    const token = t.operatorToken;
    const status = async (authorization: string) =>
      (await t.request("GET", "/user", { token: null, headers: { authorization } })).status;
    for (const accepted of [
      `Bearer ${token}`,
      `bearer ${token}`,
      `BEARER\t${token}`,
      `Bearer   ${token}  `,
    ]) {
      expect(await status(accepted), accepted).toBe(200);
    }
    for (const refused of [
      `Bearer ${token}x`,
      `Bearer ${token} x`,
      `Bearer${token}`,
      `Bearer \u00e9${token}`,
      "Bearer ",
    ]) {
      expect(await status(refused), refused).toBe(401);
    }
  });

  it("answers 404 for unknown paths and 405 with Allow for a known path with another method", async () => {
    const t = await createTestDocsbase();
    const missing = await t.request("GET", "/nothing/here");
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe(404);
    const outside = await t.fetch("http://docsbase.test/v2/user");
    expect(outside.status).toBe(404);
    const wrongMethod = await t.request("DELETE", "/user");
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("GET");
  });

  it("answers 400 for malformed JSON and 415 for a non-JSON body, changing nothing", async () => {
    const t = await createTestDocsbase();
    const malformed = await t.request("POST", "/orgs", { body: '{"title": ' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.message).toMatch(/^body: malformed JSON/);
    const text = await t.request("POST", "/orgs", {
      body: "title=x",
      headers: { "content-type": "text/plain" },
    });
    expect(text.status).toBe(415);
    expect((await t.request("GET", "/orgs")).body.count).toBe(0);
  });

  it("names the field and the rule in validation errors", async () => {
    const t = await createTestDocsbase();
    const response = await t.request("POST", "/orgs", { body: { title: "x".repeat(300) } });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(/^body\.title: .*255/);
    const query = await t.request("GET", "/orgs?limit=1001");
    expect(query.status).toBe(400);
    expect(query.body.error.message).toMatch(/^query\.limit: /);
  });

  it("answers 413 past the body limit, declared or streamed", async () => {
    const t = await createTestDocsbase({ maxBodyBytes: 64 });
    const big = JSON.stringify({ title: "x".repeat(100) });
    const declared = await t.request("POST", "/orgs", { body: big });
    expect(declared.status).toBe(413);
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const streamed = await t.docsbase.fetch(
      new Request("http://docsbase.test/v1/orgs", {
        method: "POST",
        headers: { authorization: `Bearer ${t.operatorToken}`, "content-type": "application/json" },
        body: stream,
        duplex: "half",
      } as RequestInit),
    );
    expect(streamed.status).toBe(413);
  });

  it("answers 500 without internals when storage fails, and reports the error", async () => {
    const reported: unknown[] = [];
    const failing: Storage = { ...memoryStorage(), read: () => Promise.reject(new Error("disk on fire")) };
    const docsbase = createDocsbase({ storage: failing, onError: (error) => reported.push(error) });
    const response = await docsbase.fetch(
      new Request("http://localhost/v1/user", { headers: { authorization: "Bearer dbt_whatever_token" } }),
    );
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: { code: 500, message: "Internal server error" } });
    expect(String(reported[0])).toContain("disk on fire");
  });

  it("serves the OpenAPI document derived from the registry", async () => {
    const t = await createTestDocsbase();
    const response = await t.fetch("http://docsbase.test/v1/openapi.json");
    expect(response.status).toBe(200);
    const document = (await response.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(document.openapi).toBe("3.1.0");
    const ids = Object.values(document.paths).flatMap((methods) =>
      Object.values(methods).map((op) => op.operationId),
    );
    expect(ids.sort()).toEqual(Object.keys(operations).sort());
  });

  it("adds a Location header to 201 answers", async () => {
    const t = await createTestDocsbase();
    const created = await t.request("POST", "/orgs", { body: { title: "Located" } });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(`http://docsbase.test/v1/orgs/${created.body.id}`);
  });
});
