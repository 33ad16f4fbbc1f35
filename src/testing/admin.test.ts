import { describe, expect, it } from "vitest";
import { testDoubleHandler } from "./admin.js";
import { createTestDocsbase } from "./double.js";
import type { Fixture } from "./fixture.js";

const ADA = "tok-ada-0123456789abcdef";
const fixture: Fixture = {
  users: [{ id: "u-ada", displayName: "Ada", token: ADA }],
  organizations: [{ id: "org-acme", title: "Acme", members: [{ user: "u-ada", role: "admin" }] }],
  spaces: [{ id: "space-handbook", organization: "org-acme", title: "Handbook" }],
};

async function served() {
  const test = await createTestDocsbase({ fixture, now: "2030-01-01T00:00:00Z" });
  const handle = testDoubleHandler(test);
  const send = async (
    method: string,
    path: string,
    options: { body?: unknown; token?: string | null } = {},
  ) => {
    const token = options.token === undefined ? test.operatorToken : options.token;
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (token) headers["authorization"] = `Bearer ${token}`;
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const response = await handle(
      new Request(`http://double.test${path}`, { method, headers, ...(body !== undefined ? { body } : {}) }),
    );
    const text = await response.text();
    return {
      status: response.status,
      body: (text ? JSON.parse(text) : undefined) as any,
      headers: response.headers,
    };
  };
  const title = async () =>
    (await send("GET", "/v1/spaces/space-handbook", { token: ADA })).body.title as string;
  return { test, send, title };
}

describe("testDoubleHandler: the admin API under /_docsbase/", () => {
  it("takes the operator's token only: 401 without one, 403 with a user's or an unknown one", async () => {
    const { send } = await served();
    const missing = await send("POST", "/_docsbase/reset", { token: null });
    expect(missing.status).toBe(401);
    expect(missing.body.error).toEqual({ code: 401, message: expect.stringMatching(/operator's token/) });
    expect((await send("POST", "/_docsbase/reset", { token: ADA })).status).toBe(403);
    expect((await send("GET", "/_docsbase/calls", { token: "dbt_unknown_token_0000" })).status).toBe(403);
    expect((await send("GET", "/_docsbase/calls")).status).toBe(200);
  });

  it("answers 404 for no endpoint and 405 for another method", async () => {
    const { send } = await served();
    const none = await send("GET", "/_docsbase/nothing");
    expect(none.status).toBe(404);
    expect(none.body.error.message).toBe("No admin endpoint GET /_docsbase/nothing");
    const wrong = await send("PUT", "/_docsbase/calls");
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET, DELETE");
  });

  it("snapshots and restores by id; an unknown id is 404", async () => {
    const { send, title } = await served();
    const snapshot = await send("POST", "/_docsbase/snapshots");
    expect(snapshot.status).toBe(201);
    expect(snapshot.body).toEqual({ id: expect.any(String) });
    await send("PATCH", "/v1/spaces/space-handbook", { token: ADA, body: { title: "Renamed" } });
    expect(await title()).toBe("Renamed");
    expect((await send("POST", `/_docsbase/snapshots/${snapshot.body.id}/restore`)).status).toBe(204);
    expect(await title()).toBe("Handbook");
    const unknown = await send("POST", "/_docsbase/snapshots/nope/restore");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('No snapshot "nope"');
  });

  it("lists the journal with the double's filters, `at` as ISO strings, and clears it", async () => {
    const { send } = await served();
    await send("PATCH", "/v1/spaces/space-handbook", { token: ADA, body: { title: "Renamed" } });
    await send("GET", "/v1/user", { token: ADA });
    const all = await send("GET", "/_docsbase/calls");
    expect(all.body.items).toHaveLength(2);
    const renamed = await send("GET", "/_docsbase/calls?operationId=updateSpaceById&status=200&user=u-ada");
    expect(renamed.body.items).toEqual([
      expect.objectContaining({
        operationId: "updateSpaceById",
        method: "PATCH",
        path: "/spaces/space-handbook",
        body: { title: "Renamed" },
        status: 200,
        user: "u-ada",
        at: "2030-01-01T00:00:00.000Z",
      }),
    ]);
    expect((await send("GET", "/_docsbase/calls?method=get&path=/user")).body.items).toHaveLength(1);
    expect((await send("GET", "/_docsbase/calls?status=404")).body.items).toEqual([]);
    const bad = await send("GET", "/_docsbase/calls?status=ok");
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('status: "ok" is not a status code');
    expect((await send("GET", "/_docsbase/calls?colour=red")).body.error.message).toMatch(/^colour: /);
    expect((await send("DELETE", "/_docsbase/calls")).status).toBe(204);
    expect((await send("GET", "/_docsbase/calls")).body.items).toEqual([]);
  });

  it("adds faults, lists them with their hits, and removes them by id", async () => {
    const { send, title } = await served();
    const added = await send("POST", "/_docsbase/faults", {
      body: { operationId: "updateSpaceById", status: 503, times: 2 },
    });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      id: expect.any(String),
      operationId: "updateSpaceById",
      status: 503,
      times: 2,
      hits: 0,
    });
    const faulted = await send("PATCH", "/v1/spaces/space-handbook", {
      token: ADA,
      body: { title: "Renamed" },
    });
    expect(faulted.status).toBe(503);
    expect(await title()).toBe("Handbook");
    expect((await send("GET", `/_docsbase/faults/${added.body.id}`)).body.hits).toBe(1);
    expect((await send("GET", "/_docsbase/faults")).body.items).toHaveLength(1);
    expect((await send("DELETE", `/_docsbase/faults/${added.body.id}`)).status).toBe(204);
    expect(
      (await send("PATCH", "/v1/spaces/space-handbook", { token: ADA, body: { title: "Renamed" } })).status,
    ).toBe(200);
    expect((await send("DELETE", `/_docsbase/faults/${added.body.id}`)).status).toBe(404);
  });

  it("refuses a bad fault naming the field", async () => {
    const { send } = await served();
    const cases: [unknown, RegExp][] = [
      [{ operationId: "getAuthenticatedUser", status: "500" }, /^body\.status: /],
      [{ operationId: "getAuthenticatedUser", colour: "red" }, /^body: .*colour/],
      [{ method: "GET" }, /^body\.path: a fault targets/],
      [{ operationId: "x", method: "GET", path: "/user" }, /^body\.operationId: a fault targets/],
      [{ operationId: "x", probability: 2 }, /^body\.probability: /],
    ];
    for (const [body, message] of cases) {
      const refused = await send("POST", "/_docsbase/faults", { body });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(message);
    }
    expect((await send("GET", "/_docsbase/faults")).body.items).toEqual([]);
  });

  it("makes a network fault reject the handler with the double's TypeError", async () => {
    const { send } = await served();
    await send("POST", "/_docsbase/faults", { body: { method: "GET", path: "/user", networkError: true } });
    await expect(send("GET", "/v1/user", { token: ADA })).rejects.toThrow(TypeError);
  });

  it("reads, sets and advances the clock, running the jobs due on the way, and drains jobs", async () => {
    const { test, send } = await served();
    expect((await send("GET", "/_docsbase/clock")).body).toEqual({ now: "2030-01-01T00:00:00.000Z" });
    await send("DELETE", "/v1/spaces/space-handbook", { token: ADA });
    expect(await test.jobs.pending()).not.toEqual([]);
    const advanced = await send("POST", "/_docsbase/clock/advance", { body: { by: "30d" } });
    expect(advanced.status).toBe(200);
    expect(advanced.body).toEqual({ now: "2030-01-31T00:00:00.000Z", jobsRun: expect.any(Number) });
    expect(advanced.body.jobsRun).toBeGreaterThan(0);
    expect((await send("POST", "/_docsbase/clock/advance", { body: { by: 60_000 } })).body.now).toBe(
      "2030-01-31T00:01:00.000Z",
    );
    const set = await send("POST", "/_docsbase/clock", { body: { now: "2031-05-01T12:00:00Z" } });
    expect(set.body).toEqual({ now: "2031-05-01T12:00:00.000Z" });
    expect((await send("POST", "/_docsbase/jobs/drain")).body).toEqual({ jobsRun: 0 });
    expect((await send("GET", "/_docsbase/jobs")).body).toEqual({ items: [] });
    const bad = await send("POST", "/_docsbase/clock/advance", { body: { by: "soon" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^clock\.advance: "soon" is not a duration/);
    expect(
      (await send("POST", "/_docsbase/clock/advance", { body: { in: "1d" } })).body.error.message,
    ).toMatch(/^body\.by: milliseconds >= 0, or a duration/);
    expect((await send("POST", "/_docsbase/clock", { body: { now: "never" } })).status).toBe(400);
  });

  it("seeds a fixture; a bad one is 400 starting with its path, a bad body names the body", async () => {
    const { send } = await served();
    const seeded = await send("POST", "/_docsbase/seed", {
      body: { spaces: [{ id: "space-guide", organization: "org-acme", title: "Guide" }] },
    });
    expect(seeded.status).toBe(204);
    expect((await send("GET", "/v1/spaces/space-guide", { token: ADA })).body.title).toBe("Guide");
    const bad = await send("POST", "/_docsbase/seed", {
      body: { spaces: [{ organization: "org-acme", title: "Guide", pages: [{ markdown: "No title" }] }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^spaces\[0\]\.pages\[0\]\.title: /);
    expect((await send("POST", "/_docsbase/seed")).body.error.message).toBe("body: a JSON body is required");
    const handle = testDoubleHandler((await served()).test);
    const malformed = await handle(
      new Request("http://double.test/_docsbase/seed", {
        method: "POST",
        headers: { authorization: "Bearer dbt_operator_test_token" },
        body: "{",
      }),
    );
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ error: { code: 400, message: "body: not valid JSON" } });
  });

  it("resets to the state after the fixture, with no journal and no faults", async () => {
    const { send, title } = await served();
    await send("PATCH", "/v1/spaces/space-handbook", { token: ADA, body: { title: "Renamed" } });
    await send("POST", "/_docsbase/faults", { body: { operationId: "getSpaceById", status: 500 } });
    await send("POST", "/_docsbase/clock/advance", { body: { by: "1d" } });
    expect((await send("POST", "/_docsbase/reset")).status).toBe(204);
    expect(await title()).toBe("Handbook");
    expect((await send("GET", "/_docsbase/faults")).body.items).toEqual([]);
    expect((await send("GET", "/_docsbase/clock")).body.now).toBe("2030-01-01T00:00:00.000Z");
    expect((await send("GET", "/_docsbase/calls")).body.items).toHaveLength(1); // the title read above
  });
});
