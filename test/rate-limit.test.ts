import { base64url } from "jose";
import { describe, expect, it } from "vitest";
import { addressGroup, clientAddressOf } from "../src/http/rate-limit.js";
import { createTestDocsbase } from "../src/testing/double.js";

/** A clock the test moves by hand. */
function movableClock(start = Date.UTC(2026, 0, 1)) {
  let now = start;
  return { clock: () => new Date(now), advance: (ms: number) => (now += ms) };
}

describe("rate limits on failed authentications", () => {
  it("answers 429 with Retry-After and X-RateLimit-* after the limit, over 3,000 wrong tokens from one address", async () => {
    const { clock } = movableClock();
    const t = await createTestDocsbase({ rateLimit: true, clock, clientAddress: () => "203.0.113.7" });
    const statuses = new Map<number, number>();
    let refused: Awaited<ReturnType<typeof t.request>> | undefined;
    for (let index = 0; index < 3_000; index++) {
      // Every token has its own prefix: only the per-address limit can catch this spray.
      const answer = await t.request("GET", "/user", {
        token: `${index.toString(36).padStart(8, "0")}-guess`,
      });
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      refused ??= answer.status === 429 ? answer : undefined;
    }
    expect(Object.fromEntries(statuses)).toEqual({ 401: 20, 429: 2_980 });
    expect(refused!.body).toEqual({
      error: { code: 429, message: expect.stringMatching(/^Too many failed/) },
    });
    expect(refused!.headers.get("retry-after")).toBe("60");
    expect(refused!.headers.get("x-ratelimit-limit")).toBe("20");
    expect(refused!.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(Number(refused!.headers.get("x-ratelimit-reset"))).toBe(Math.ceil(clock().getTime() / 1000) + 60);
  });

  it("catches guesses sharing a token prefix from many addresses", async () => {
    let address = 0;
    const t = await createTestDocsbase({
      rateLimit: true,
      clientAddress: () => `198.51.100.${address % 250}`,
    });
    const statuses: number[] = [];
    for (let index = 0; index < 100; index++) {
      address++;
      statuses.push((await t.request("GET", "/user", { token: `dbt_AAAA${index}-guess` })).status);
    }
    expect(statuses.filter((status) => status === 401)).toHaveLength(20);
    expect(statuses.slice(20).every((status) => status === 429)).toBe(true);
  });

  it("tells JWTs apart: many bad ones do not lock out a good apiToken, one failing too often is limited", async () => {
    let address = 0;
    const t = await createTestDocsbase({
      rateLimit: true,
      clientAddress: () => `198.51.100.${address % 250}`,
    });
    const owner = t.as(await t.createUser("Owner"));
    const organizationId = (await owner.createOrganization({ body: { title: "Acme" } })).id;
    const spaceId = (await owner.createSpace({ organizationId, body: { title: "Docs" } })).id;
    const siteId = (await owner.createSite({ organizationId, body: { title: "Docs", spaces: [spaceId] } }))
      .id;
    await owner.publishSite({ organizationId, siteId });
    const url = encodeURIComponent(`http://docsbase.test/sites/${siteId}/`);
    const good = (await t.request("GET", `/urls/published?url=${url}`, { token: null })).body
      .apiToken as string;
    const [header, payload] = good.split(".") as [string, string];
    const read = (token: string) => t.request("GET", `/spaces/${spaceId}`, { token });
    // Fifty other JWTs (every one starts "eyJhbGci"), each failing once, from many addresses.
    for (let index = 0; index < 50; index++) {
      address++;
      const other = base64url.encode(JSON.stringify({ kind: "site", space: `guess-${index}` }));
      expect((await read(`${header}.${other}.c2lnbmF0dXJl`)).status).toBe(401);
    }
    address = 7;
    expect((await read(good)).status).toBe(200);
    // Guesses at this token's signature, from many addresses: caught after 20, however they come.
    const statuses: number[] = [];
    for (let index = 0; index < 25; index++) {
      address = 100 + index;
      statuses.push((await read(`${header}.${payload}.guess${index}`)).status);
    }
    expect(statuses).toEqual([...Array<number>(20).fill(401), ...Array<number>(5).fill(429)]);
    address = 200;
    expect((await read(good)).status).toBe(429);
  });

  it("does not block a good token for another client's failures, only the failing address", async () => {
    let address = "192.0.2.1";
    const t = await createTestDocsbase({ rateLimit: true, clientAddress: () => address });
    const user = await t.createUser("Ada");
    for (let index = 0; index < 50; index++) await t.request("GET", "/user", { token: `zzzzzzzz-${index}` });
    expect((await t.request("GET", "/user", { token: "zzzzzzzz-another" })).status).toBe(429);
    // The failing address is refused even with a good token: its token is not even looked up.
    expect((await t.request("GET", "/user", { token: user.token })).status).toBe(429);
    address = "192.0.2.2";
    const good = await t.request("GET", "/user", { token: user.token });
    expect(good.status).toBe(200);
    expect(good.body.id).toBe(user.id);
  });

  it("recovers when the window has passed", async () => {
    const { clock, advance } = movableClock();
    const t = await createTestDocsbase({
      rateLimit: { failedAuthPerAddress: { limit: 3, windowMs: 10_000 } },
      clock,
      clientAddress: () => "192.0.2.9",
    });
    const statuses = [];
    for (let index = 0; index < 5; index++)
      statuses.push((await t.request("GET", "/user", { token: `t${index}` })).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    advance(10_000);
    expect((await t.request("GET", "/user")).status).toBe(200);
  });

  it("is off by default in the library: in-process and test-double users are not throttled", async () => {
    const t = await createTestDocsbase({ clientAddress: () => "192.0.2.3" });
    for (let index = 0; index < 100; index++) {
      expect((await t.request("GET", "/user", { token: `dbt_wrong_${index}` })).status).toBe(401);
    }
  });
});

describe("rate limits on requests", () => {
  it("limits requests per caller, answers 429, and recovers after the window (moved clock)", async () => {
    const { clock, advance } = movableClock();
    const t = await createTestDocsbase({
      rateLimit: { requests: { limit: 5, windowMs: 60_000 } },
      clock,
      clientAddress: () => "192.0.2.4",
    });
    const other = await t.createUser("Grace");
    const remaining = [];
    for (let index = 0; index < 5; index++) {
      const answer = await t.request("GET", "/user");
      expect(answer.status).toBe(200);
      expect(answer.headers.get("x-ratelimit-limit")).toBe("5");
      remaining.push(answer.headers.get("x-ratelimit-remaining"));
    }
    expect(remaining).toEqual(["4", "3", "2", "1", "0"]);
    const refused = await t.request("GET", "/user");
    expect(refused.status).toBe(429);
    expect(refused.body.error).toEqual({ code: 429, message: expect.stringMatching(/^Too many requests/) });
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
    // Another caller has a quota of its own.
    expect((await t.request("GET", "/user", { token: other.token })).status).toBe(200);
    advance(59_000);
    const soon = await t.request("GET", "/user");
    expect(soon.status).toBe(429);
    expect(soon.headers.get("retry-after")).toBe("1");
    advance(1_000);
    expect((await t.request("GET", "/user")).status).toBe(200);
  });

  it("counts anonymous requests per client address", async () => {
    let address = "192.0.2.5";
    const t = await createTestDocsbase({
      rateLimit: { requests: { limit: 2, windowMs: 60_000 } },
      clientAddress: () => address,
    });
    const statuses = [];
    for (let index = 0; index < 3; index++)
      statuses.push((await t.request("GET", "/user", { token: null })).status);
    expect(statuses).toEqual([401, 401, 429]);
    address = "192.0.2.6";
    expect((await t.request("GET", "/user", { token: null })).status).toBe(401);
  });
});

describe("the client address", () => {
  it("ignores X-Forwarded-For unless trustProxy is set", async () => {
    const spoofed = await createTestDocsbase({
      rateLimit: { failedAuthPerAddress: { limit: 3, windowMs: 60_000 } },
      clientAddress: () => "192.0.2.7",
    });
    const statuses = [];
    for (let index = 0; index < 5; index++) {
      const headers = { "x-forwarded-for": `203.0.113.${index}` };
      statuses.push((await spoofed.request("GET", "/user", { token: `spoof${index}-x`, headers })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);

    const proxied = await createTestDocsbase({
      rateLimit: { failedAuthPerAddress: { limit: 3, windowMs: 60_000 } },
      clientAddress: () => "10.0.0.1",
      trustProxy: true,
    });
    for (let index = 0; index < 5; index++) {
      const headers = { "x-forwarded-for": `203.0.113.${index}` };
      expect((await proxied.request("GET", "/user", { token: `proxy${index}-x`, headers })).status).toBe(401);
    }
  });

  it("takes the entry the nearest trusted proxy saw, and groups IPv6 by /64", () => {
    const request = new Request("http://docsbase.test/", {
      headers: { "x-forwarded-for": "1.1.1.1, 203.0.113.9, 10.0.0.2" },
    });
    const socket = () => "10.0.0.3";
    expect(clientAddressOf(request, { clientAddress: socket })).toBe("10.0.0.3");
    expect(clientAddressOf(request, { clientAddress: socket, trustProxy: true })).toBe("10.0.0.2");
    expect(clientAddressOf(request, { clientAddress: socket, trustProxy: 2 })).toBe("203.0.113.9");
    expect(
      clientAddressOf(new Request("http://docsbase.test/"), { clientAddress: socket, trustProxy: 1 }),
    ).toBe("10.0.0.3");
    expect(addressGroup("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(addressGroup("2001:db8:1:2::9")).toBe(addressGroup("2001:0db8:0001:0002:ffff::1"));
    expect(addressGroup("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressGroup("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(addressGroup("192.0.2.1")).toBe("192.0.2.1");
  });
});
