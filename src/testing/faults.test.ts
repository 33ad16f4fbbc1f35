import { describe, expect, it } from "vitest";
import { createTestDocsbase } from "./double.js";
import { FaultError, mulberry32 } from "./faults.js";

async function world() {
  const test = await createTestDocsbase({ clock: () => new Date("2030-01-01T00:00:00Z") });
  const alice = await test.createUser("Alice");
  const org = await test.as(alice).createOrganization({ body: { title: "Acme" } });
  return { test, alice, org };
}

describe("test double: faults", () => {
  it("answers an error in the API's shape, over HTTP and in process, leaving data unchanged", async () => {
    const { test, alice, org } = await world();
    const fault = test.fault({ operationId: "updateOrganizationById" });
    const answered = await test.request("PATCH", `/orgs/${org.id}`, {
      token: alice.token,
      body: { title: "Renamed X" },
    });
    expect(answered).toMatchObject({
      status: 500,
      body: { error: { code: 500, message: expect.any(String) } },
    });
    const refused = await test
      .as(alice)
      .updateOrganizationById({ organizationId: org.id, body: { title: "Renamed Y" } })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(FaultError);
    expect(refused).toMatchObject({ status: 500, body: answered.body });
    expect(await test.as(alice).getOrganizationById({ organizationId: org.id })).toMatchObject({
      title: "Acme",
    });
    expect(test.calls({ operationId: "updateOrganizationById" }).map((call) => call.status)).toEqual([
      500, 500,
    ]);
    expect(fault.hits).toBe(2);
    fault.remove();
    await test.as(alice).updateOrganizationById({ organizationId: org.id, body: { title: "Renamed Z" } });
    expect(await test.as(alice).getOrganizationById({ organizationId: org.id })).toMatchObject({
      title: "Renamed Z",
    });
  });

  it("matches a method and path, as written or as called, with the given status, body and headers", async () => {
    const { test, alice, org } = await world();
    test.fault({ method: "GET", path: "/orgs/{organizationId}", status: 404, headers: { "X-Why": "test" } });
    const answered = await test.request("GET", `/orgs/${org.id}`, { token: alice.token });
    expect(answered.status).toBe(404);
    expect(answered.headers.get("x-why")).toBe("test");
    await expect(test.as(alice).getOrganizationById({ organizationId: org.id })).rejects.toMatchObject({
      code: "not_found",
      status: 404,
    });
    const other = await createTestDocsbase();
    other.fault({
      method: "get",
      path: "/user",
      status: 503,
      body: { error: { code: 503, message: "down" } },
    });
    expect(await other.request("GET", "/user")).toMatchObject({
      status: 503,
      body: { error: { message: "down" } },
    });
  });

  it("answers 429 with Retry-After and the rate-limit headers", async () => {
    const { test, alice } = await world();
    test.fault({ operationId: "getAuthenticatedUser", status: 429 });
    const answered = await test.request("GET", "/user", { token: alice.token });
    expect(answered.status).toBe(429);
    expect(Object.fromEntries(answered.headers)).toMatchObject({
      "retry-after": "1",
      "x-ratelimit-limit": "6000",
      "x-ratelimit-remaining": "0",
      "x-ratelimit-reset": String(Date.parse("2030-01-01T00:00:01Z") / 1000),
    });
  });

  it("fails as a network failure: fetch and the typed call reject with a TypeError, nothing written", async () => {
    const { test, alice, org } = await world();
    test.fault({ operationId: "updateOrganizationById", networkError: true });
    await expect(
      test.request("PATCH", `/orgs/${org.id}`, { token: alice.token, body: { title: "Renamed X" } }),
    ).rejects.toThrow(TypeError);
    await expect(
      test.as(alice).updateOrganizationById({ organizationId: org.id, body: { title: "Renamed Y" } }),
    ).rejects.toThrow(TypeError);
    expect(test.calls({ operationId: "updateOrganizationById" }).map((call) => call.status)).toEqual([0, 0]);
    expect(await test.as(alice).getOrganizationById({ organizationId: org.id })).toMatchObject({
      title: "Acme",
    });
  });

  it("delays the real answer, or the fault's", async () => {
    const { test, alice } = await world();
    const fault = test.fault({ operationId: "getAuthenticatedUser", delayMs: 40 });
    let started = Date.now();
    expect(await test.as(alice).getAuthenticatedUser()).toMatchObject({ id: alice.id });
    expect(Date.now() - started).toBeGreaterThanOrEqual(35);
    fault.remove();
    test.fault({ operationId: "getAuthenticatedUser", delayMs: 40, status: 502 });
    started = Date.now();
    expect((await test.request("GET", "/user", { token: alice.token })).status).toBe(502);
    expect(Date.now() - started).toBeGreaterThanOrEqual(35);
  });

  it("hits `times` calls only, and the same calls for the same seed", async () => {
    const { test, alice } = await world();
    test.fault({ operationId: "getAuthenticatedUser", times: 2, status: 500 });
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await test.request("GET", "/user", { token: alice.token })).status);
    expect(statuses).toEqual([500, 500, 200]);

    const draws = async (seed: number) => {
      const double = await createTestDocsbase();
      double.fault({ operationId: "getAuthenticatedUser", probability: 0.5, seed });
      const seen = [];
      for (let i = 0; i < 20; i++) seen.push((await double.request("GET", "/user")).status);
      return seen;
    };
    const first = await draws(7);
    expect(await draws(7)).toEqual(first);
    expect(first).toContain(500);
    expect(first).toContain(200);
    const random = mulberry32(7);
    expect(first).toEqual(Array.from({ length: 20 }, () => (random() < 0.5 ? 500 : 200)));
  });

  it("keeps two doubles' faults apart", async () => {
    const [one, two] = await Promise.all([createTestDocsbase(), createTestDocsbase()]);
    one.fault({ operationId: "getAuthenticatedUser", status: 500 });
    expect((await one.request("GET", "/user")).status).toBe(500);
    expect((await two.request("GET", "/user")).status).toBe(200);
  });
});
